import type { Graph } from './graph.js';
import { Grouped } from './grouped.js';

/**
 * The shared-state jumps of a graph, indexed: what the machine's load-time checks and the planners add to the
 * models' edges to treat a multi-model file as one *joined graph*. The machine makes one per walk and hands it
 * to its generators and conditions (`WalkScope.joined`), so nothing is cached beside the walk that uses it.
 *
 * A jump goes from a vertex to a vertex of another model with the same shared state, and costs one step (an
 * edge costs two: the edge, then its target). Only shared states with vertices in at least two models form a
 * group: vertices of one model never jump to each other directly. A group member is a jump destination only
 * when it has a name or an out-edge, the machine's rule for candidates (guards and failed models aside, which
 * only the walk knows).
 */
export class JoinedGraph {
  /** Per vertex: its group, or -1 when it has no shared state shared with another model. */
  readonly groupOf: Int32Array;
  /** Per vertex: 1 when the machine may offer it as a jump destination. */
  readonly jumpable: Uint8Array;
  /** Number of groups; 0 when the file has no jumps at all. */
  readonly groupCount: number;
  private readonly groups: Grouped;
  /** Per vertex: how many jump destinations it has. */
  private readonly jumps: Int32Array;

  constructor(readonly graph: Graph) {
    const n = graph.vertexCount;
    this.groupOf = new Int32Array(n).fill(-1);
    this.jumpable = new Uint8Array(n);
    for (let v = 0; v < n; v++) {
      this.jumpable[v] = graph.names[v] || graph.outOffsets[v + 1] > graph.outOffsets[v] ? 1 : 0;
    }
    let count = 0;
    for (const state of graph.sharedStates()) {
      const members = graph.sharedStateVertices(state);
      if (members.some((v) => graph.modelOf[v] !== graph.modelOf[members[0]])) {
        for (const v of members) this.groupOf[v] = count;
        count++;
      }
    }
    this.groupCount = count;
    this.groups = Grouped.by(count, n, (v) => this.groupOf[v]);
    this.jumps = new Int32Array(n);
    for (let v = 0; v < n; v++) {
      if (this.groupOf[v] < 0) continue;
      for (const w of this.members(this.groupOf[v])) this.jumps[v] += this.isJump(v, w) ? 1 : 0;
    }
  }

  /** The vertices of a group, in graph order (a view). */
  members(group: number): Int32Array {
    return this.groups.items(group);
  }

  /** True when the walk may jump from `from` straight to `to` (same group, other model, `to` jumpable). */
  isJump(from: number, to: number): boolean {
    const g = this.graph;
    const group = this.groupOf[from];
    return group >= 0 && group === this.groupOf[to] && g.modelOf[from] !== g.modelOf[to] && this.jumpable[to] === 1;
  }

  /** How many jump destinations `v` has (guards and failed models ignored). */
  jumpCount(v: number): number {
    return this.jumps[v];
  }

  /**
   * The fewest jumps from `from` to `to` (members of one group, `from` ≠ `to`) as destinations in order: `[to]`
   * when the models differ, else `[x, to]` through a member x of another model; empty when there is no way.
   */
  jumpsBetween(from: number, to: number): number[] {
    if (this.isJump(from, to)) return [to];
    if (this.groupOf[from] < 0 || this.groupOf[from] !== this.groupOf[to]) return [];
    for (const x of this.members(this.groupOf[from])) if (this.isJump(from, x) && this.isJump(x, to)) return [x, to];
    return [];
  }
}
