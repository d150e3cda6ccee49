import type { Graph } from '../../../core/model/graph.js';
import { eulerTrail } from './euler.js';
import type { JoinedGraph } from '../../../core/model/joined-graph.js';
import type { LocalGraph } from './local-graph.js';
import { UnionFind } from './union-find.js';

/**
 * Lays a covering walk planned over merged shared-state groups ({@link LocalGraph} with `merged`) out on the
 * real vertices, with the fewest jumps the planned edges allow.
 *
 * The plan fixes how often each edge is walked. Per real vertex w, `in(w) − out(w)` (plus one at the start)
 * says how many more times the walk arrives at w than it leaves by an edge; inside a group these differences
 * sum to zero, but to one at the group where the walk ends, where one member keeps an arrival as the end. Jumps
 * from the members that are left too seldom to those left too often then balance every vertex: one jump each
 * between different models, two (through a member of a third model) within one model. Groups that still
 * split the walk into pieces get a jump there and one back. Which member ends the walk changes what that
 * costs, so each (up to {@link END_CANDIDATES}) is tried and the fewest jumps kept. An Euler trail over edges
 * and jumps is then the walk; runs of jumps in a row are cut to the fewest (none when they come back to where
 * they started, or end the walk).
 *
 * Returns the moves (edge index: take it; vertex index: jump there), or undefined when the jumps cannot be
 * laid (a group whose other members the machine would never offer), in which case the caller walks the
 * edges and lets the generator find its way between them.
 */
export function layJumps(
  graph: Graph,
  joined: JoinedGraph,
  g: LocalGraph,
  times: Int32Array,
  start: number,
): number[] | undefined {
  const arcs = new Arcs(graph);
  arcs.index(start);
  for (let e = 0; e < g.edgeCount; e++) if (times[e] > 0) arcs.add(graph.source[g.edges[e]], g.edges[e], times[e]);
  const edgesOnly = arcs.mark();
  const lay = (end: number): boolean => {
    arcs.restore(edgesOnly);
    const need = arcs.imbalance(start);
    need[end]--;
    return balanceGroups(graph, joined, arcs, need) && connectGroups(joined, arcs, start);
  };
  let best = -1;
  let fewest = Infinity;
  for (const end of endCandidates(joined, arcs, arcs.imbalance(start))) {
    const jumps = lay(end) ? arcs.total() - arcs.total(edgesOnly.arcs) : Infinity;
    if (jumps < fewest) [best, fewest] = [end, jumps];
  }
  if (best < 0 || !lay(best)) return undefined;
  const { local, element, times: counts } = arcs.bySource();
  const trail = eulerTrail(local, counts, 0);
  if (trail.length !== arcs.total()) return undefined;
  return shortenJumpRuns(graph, joined, start, Array.from(trail, (a) => element[a]));
}

/** How many members of the last group are tried as the walk's end. */
const END_CANDIDATES = 8;

/**
 * Where the walk may end: the vertex with one arrival too many, or, when that is a group, its members in the
 * walk (those with an arrival too many first).
 */
function endCandidates(joined: JoinedGraph, arcs: Arcs, need: Int32Array): number[] {
  for (let v = 0; v < need.length; v++) if (need[v] === 1 && joined.groupOf[arcs.vertices[v]] < 0) return [v];
  for (const members of byGroup(joined, arcs, () => true).values()) {
    if (members.reduce((sum, v) => sum + need[v], 0) !== 1) continue;
    const ordered = [...members.filter((v) => need[v] > 0), ...members.filter((v) => need[v] <= 0)];
    return ordered.slice(0, END_CANDIDATES);
  }
  return [];
}

/** The multigraph of the walk: arcs between real vertices, each an edge or a jump walked some number of times. */
class Arcs {
  readonly element: number[] = [];
  readonly from: number[] = [];
  readonly to: number[] = [];
  readonly times: number[] = [];
  /** Graph vertex → local index, and back. */
  readonly localOf = new Map<number, number>();
  readonly vertices: number[] = [];

  constructor(private readonly graph: Graph) {}

  index(v: number): number {
    let local = this.localOf.get(v);
    if (local === undefined) {
      local = this.vertices.length;
      this.localOf.set(v, local);
      this.vertices.push(v);
    }
    return local;
  }

  /** An arc from graph vertex `source`: an edge (element ≥ vertexCount) or a jump to the vertex `element`. */
  add(source: number, element: number, times: number): void {
    const target = this.graph.isVertex(element) ? element : this.graph.target[element];
    this.element.push(element);
    this.from.push(this.index(source));
    this.to.push(this.index(target));
    this.times.push(times);
  }

  /** Per local vertex: arrivals − departures, plus one at the start (which the walk leaves without arriving). */
  imbalance(start: number): Int32Array {
    const need = new Int32Array(this.vertices.length);
    for (let a = 0; a < this.element.length; a++) {
      need[this.to[a]] += this.times[a];
      need[this.from[a]] -= this.times[a];
    }
    need[this.index(start)]++;
    return need;
  }

  /** Walks along the first `arcs` arcs (all by default). */
  total(arcs = this.times.length): number {
    let sum = 0;
    for (let a = 0; a < arcs; a++) sum += this.times[a];
    return sum;
  }

  /** How many arcs and vertices there are now, to {@link restore} later. */
  mark(): { arcs: number; vertices: number } {
    return { arcs: this.element.length, vertices: this.vertices.length };
  }

  /** Drops the arcs and vertices added since the mark. */
  restore(mark: { arcs: number; vertices: number }): void {
    for (const list of [this.element, this.from, this.to, this.times]) list.length = mark.arcs;
    for (const v of this.vertices.splice(mark.vertices)) this.localOf.delete(v);
  }

  /**
   * The arcs renumbered by source, as a local graph for {@link eulerTrail} with their elements and counts in
   * the new numbering; within a vertex, edges come before jumps (their insertion order).
   */
  bySource(): { local: LocalGraph; element: Int32Array; times: Int32Array } {
    const n = this.vertices.length;
    const count = this.element.length;
    const outStart = new Int32Array(n + 1);
    for (const f of this.from) outStart[f + 1]++;
    for (let v = 0; v < n; v++) outStart[v + 1] += outStart[v];
    const fill = outStart.slice(0, n);
    const order = new Int32Array(count);
    for (let a = 0; a < count; a++) order[fill[this.from[a]]++] = a;
    const element = Int32Array.from(order, (a) => this.element[a]);
    const local: LocalGraph = {
      vertexCount: n,
      vertices: Int32Array.from(this.vertices),
      edgeCount: count,
      edges: element,
      from: Int32Array.from(order, (a) => this.from[a]),
      to: Int32Array.from(order, (a) => this.to[a]),
      outStart,
      reached: Int32Array.from(this.vertices),
      merged: false,
    };
    return { local, element, times: Int32Array.from(order, (a) => this.times[a]) };
  }
}

/** Local vertices with a shared-state group, by group. */
function byGroup(joined: JoinedGraph, arcs: Arcs, include: (local: number) => boolean): Map<number, number[]> {
  const groups = new Map<number, number[]>();
  arcs.vertices.forEach((v, local) => {
    const group = joined.groupOf[v];
    if (group < 0 || !include(local)) return;
    const members = groups.get(group);
    if (members === undefined) groups.set(group, [local]);
    else members.push(local);
  });
  return groups;
}

/**
 * Adds the jumps that balance each group: from members with more arrivals than departures to members with
 * more departures, other models first.
 */
function balanceGroups(graph: Graph, joined: JoinedGraph, arcs: Arcs, need: Int32Array): boolean {
  for (const members of byGroup(joined, arcs, (v) => need[v] !== 0).values()) {
    const excess = members.filter((v) => need[v] > 0);
    const deficit = members.filter((v) => need[v] < 0);
    for (const u of excess) {
      while (need[u] > 0) {
        const model = graph.modelOf[arcs.vertices[u]];
        const open = deficit.filter((w) => need[w] < 0);
        const v = open.find((w) => graph.modelOf[arcs.vertices[w]] !== model) ?? open[0];
        if (v === undefined || !addJumps(joined, arcs, arcs.vertices[u], arcs.vertices[v], 1)) return false;
        need[u]--;
        need[v]++;
      }
    }
  }
  return true;
}

/** Adds the fewest jumps from `a` to `b` (one, or two through a third model), `times` times. */
function addJumps(joined: JoinedGraph, arcs: Arcs, a: number, b: number, times: number): boolean {
  const way = joined.jumpsBetween(a, b);
  if (way.length === 0) return false;
  let at = a;
  for (const w of way) {
    arcs.add(at, w, times);
    at = w;
  }
  return true;
}

/**
 * Makes every arc reachable from the start: as long as some group has members both in the start's piece and
 * in another, a jump from the first into the second and one back join them. Since the plan was connected
 * over merged groups, this ends with one piece.
 */
function connectGroups(joined: JoinedGraph, arcs: Arcs, start: number): boolean {
  // Local vertices are numbered as arcs are added, so the sets grow with them.
  const sets = new UnionFind();
  let unioned = 0;
  const unionNewArcs = (): void => {
    for (; unioned < arcs.element.length; unioned++) sets.union(arcs.from[unioned], arcs.to[unioned]);
  };
  unionNewArcs();
  const root = arcs.index(start);
  const groups = [...byGroup(joined, arcs, () => true).values()];
  for (let changed = true; changed; ) {
    changed = false;
    for (const members of groups) {
      const inside = members.find((v) => sets.same(v, root));
      if (inside === undefined) continue;
      for (const v of members) {
        if (sets.same(v, root)) continue;
        const [a, b] = [arcs.vertices[inside], arcs.vertices[v]];
        if (!addJumps(joined, arcs, a, b, 1) || !addJumps(joined, arcs, b, a, 1)) return false;
        unionNewArcs();
        changed = true;
      }
    }
  }
  return true;
}

/**
 * Cuts each run of jumps in a row to the fewest: none when it ends where it began or ends the walk, one
 * between different models, two within one model. (The machine also refuses to jump straight back to where
 * it jumped from.)
 */
function shortenJumpRuns(graph: Graph, joined: JoinedGraph, start: number, moves: readonly number[]): number[] {
  const out: number[] = [];
  let at = start;
  for (let i = 0; i < moves.length; ) {
    if (!graph.isVertex(moves[i])) {
      out.push(moves[i]);
      at = graph.target[moves[i]];
      i++;
      continue;
    }
    let end = i;
    while (end < moves.length && graph.isVertex(moves[end])) end++;
    const to = moves[end - 1];
    // Jumps at the very end lead nowhere the walk needs to be.
    if (to !== at && end < moves.length) out.push(...joined.jumpsBetween(at, to));
    at = to;
    i = end;
  }
  return out;
}
