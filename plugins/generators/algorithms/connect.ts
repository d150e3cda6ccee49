import type { LocalGraph } from './local-graph.js';
import type { Segment } from './chain.js';
import type { Components } from '../../../core/model/scc.js';
import { Grouped } from '../../../core/model/grouped.js';
import { UnionFind } from './union-find.js';

/**
 * When only some edges must be covered (re-planning over the edges not yet visited: the rural postman
 * problem, NP-hard in general), the required edges plus the balancing walks may fall apart into pieces that
 * an Euler trail from the start cannot join. This repairs that greedily: inside each component on the chain,
 * in chain order, a breadth-first search from the part already joined to the start adds the shortest path to
 * every other piece it meets. The caller then re-balances with those path edges counted as required, which
 * keeps everything joined (a min-cost flow with positive costs is a set of paths between joined vertices).
 *
 * Returns per local edge how many extra walks to add, or null when everything is joined already (always the
 * case when every edge of the chain's components is walked, i.e. when planning a full cover).
 */
export function joiningWalks(
  g: LocalGraph,
  components: Components,
  segments: readonly Segment[],
  times: Int32Array,
): Int32Array | null {
  const sets = new UnionFind(g.vertexCount);
  const walked = new Uint8Array(g.vertexCount);
  for (let e = 0; e < g.edgeCount; e++) {
    if (times[e] === 0) continue;
    sets.union(g.from[e], g.to[e]);
    walked[g.from[e]] = walked[g.to[e]] = 1;
  }
  if (!hasLoosePiece(sets, walked)) return null;
  const extra = new Int32Array(g.edgeCount);
  const members = Grouped.by(components.count, g.vertexCount, (v) => components.of[v]);
  const search = new JoinSearch(g, components.of, sets, walked, extra);
  for (const segment of segments) search.run(members.items(components.of[segment.entry]));
  return extra;
}

function hasLoosePiece(sets: UnionFind, walked: Uint8Array): boolean {
  for (let v = 0; v < walked.length; v++) if (walked[v] === 1 && !sets.same(v, 0)) return true;
  return false;
}

/** Breadth-first search inside one component from everything already joined to local vertex 0. */
class JoinSearch {
  private readonly parent: Int32Array;
  private readonly queue: Int32Array;

  constructor(
    private readonly g: LocalGraph,
    private readonly comp: Int32Array,
    private readonly sets: UnionFind,
    private readonly walked: Uint8Array,
    private readonly extra: Int32Array,
  ) {
    this.parent = new Int32Array(g.vertexCount).fill(-2);
    this.queue = new Int32Array(g.vertexCount);
  }

  /** Searches the component whose vertices are `members`. */
  run(members: Int32Array): void {
    const { g, parent, queue } = this;
    const c = this.comp[members[0]];
    let tail = 0;
    for (const v of members) if (this.sets.same(v, 0)) parent[(queue[tail++] = v)] = -1;
    for (let head = 0; head < tail; head++) {
      const v = queue[head];
      for (let e = g.outStart[v]; e < g.outStart[v + 1]; e++) {
        const w = g.to[e];
        if (this.comp[w] !== c || parent[w] !== -2) continue;
        parent[(queue[tail++] = w)] = e;
        if (this.walked[w] === 1 && !this.sets.same(w, 0)) this.join(w);
      }
    }
  }

  /** Adds the search-tree path that reached `w`, joining w's piece (and any it passes) to the start's. */
  private join(w: number): void {
    for (let v = w; this.parent[v] >= 0; v = this.g.from[this.parent[v]]) {
      const e = this.parent[v];
      this.extra[e]++;
      this.sets.union(this.g.from[e], v);
    }
  }
}
