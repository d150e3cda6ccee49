import type { Graph } from '../../../core/model/graph.js';

/**
 * Breadth-first search for a shortest way back onto a planned route, whose first edge is one of the edges
 * open now (beyond it the static graph, guards ignored): how `shortest_all_paths` carries on after a guard
 * closed the edge that was due. Goals are vertices with a rank (the route position where the walk would go
 * on); among the goals of the nearest level the lowest rank wins, so as little of the route as possible is
 * skipped. The search gives up after `limit` vertices, so a repair costs at most that much whatever the
 * model's size.
 */
export class DetourSearch {
  private readonly seen: Int32Array;
  private readonly via: Int32Array;
  private readonly depth: Int32Array;
  private readonly queue: Int32Array;
  private stamp = 0;

  constructor(
    private readonly graph: Graph,
    private readonly limit = 4096,
  ) {
    this.seen = new Int32Array(graph.vertexCount);
    this.via = new Int32Array(graph.vertexCount);
    this.depth = new Int32Array(graph.vertexCount);
    this.queue = new Int32Array(graph.vertexCount);
  }

  /**
   * The edges from `start` to the best goal (`rank` gives a vertex's rank, or undefined for no goal; `start`
   * itself never counts), the first one from `open`; undefined when no goal is found within the limit.
   */
  search(start: number, open: readonly number[], rank: (v: number) => number | undefined): number[] | undefined {
    const { graph, queue } = this;
    this.stamp++;
    this.seen[start] = this.stamp;
    this.depth[start] = 0;
    let tail = 0;
    let best = -1;
    let bestRank = Infinity;
    for (let head = -1; head < tail && tail < this.limit; head++) {
      const v = head < 0 ? start : queue[head];
      if (best >= 0 && this.depth[v] >= this.depth[best]) break;
      for (const e of head < 0 ? open : graph.outEdgesOf(v)) {
        const w = graph.target[e];
        if (!this.visit(w, e, this.depth[v] + 1)) continue;
        queue[tail++] = w;
        const r = rank(w);
        if (r !== undefined && r < bestRank) [best, bestRank] = [w, r];
      }
    }
    return best < 0 ? undefined : this.way(start, best);
  }

  private visit(v: number, edge: number, depth: number): boolean {
    if (this.seen[v] === this.stamp) return false;
    this.seen[v] = this.stamp;
    this.via[v] = edge;
    this.depth[v] = depth;
    return true;
  }

  private way(start: number, goal: number): number[] {
    const way: number[] = [];
    for (let v = goal; v !== start; v = this.graph.source[this.via[v]]) way.push(this.via[v]);
    return way.reverse();
  }
}
