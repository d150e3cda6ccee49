import type { Graph } from '../../../core/model/graph.js';
import type { RandomSource } from '../../../core/random.js';
import type { WalkState } from '../../../core/walk-state.js';

/**
 * Breadth-first search for the nearest edges the walk has never stepped on, for `quick_random`. The first
 * step must be one of the edges open now; beyond it the search uses the static graph (guards cannot be
 * evaluated ahead of time), skipping edges the caller knows to be blocked. It stops at the end of the first
 * level that holds an unvisited edge, so a search costs only what lies nearer than its target, and picks
 * among that level's unvisited edges at random.
 *
 * Scratch arrays are kept between searches and "cleared" by bumping a stamp, so a search allocates only its
 * route.
 */
export class NearestUnvisited {
  private readonly seen: Int32Array;
  private readonly via: Int32Array;
  private readonly depth: Int32Array;
  private readonly queue: Int32Array;
  private readonly found: number[] = [];
  private stamp = 0;
  private queued = 0;
  /** Whether the last search looked at every edge it could have (nothing open-only or blocked was skipped). */
  exhaustive = true;

  constructor(private readonly graph: Graph) {
    this.seen = new Int32Array(graph.vertexCount);
    this.via = new Int32Array(graph.vertexCount);
    this.depth = new Int32Array(graph.vertexCount);
    this.queue = new Int32Array(graph.vertexCount);
  }

  /**
   * The route (edges in walking order, first one open, last one unvisited) from `start` to a nearest unvisited
   * edge, or undefined when none can be reached.
   */
  search(walk: WalkState, start: number, open: readonly number[], blocked: (edge: number) => boolean): number[] | undefined {
    this.begin(start, open);
    let nearest = Infinity;
    for (let head = 0; head < this.queued; head++) {
      const v = this.queue[head];
      if (this.depth[v] + 1 > nearest) break;
      const edges = head === 0 ? open : this.graph.outEdgesOf(v);
      for (const e of edges) {
        if (head > 0 && blocked(e)) {
          this.exhaustive = false;
        } else if (walk.visits(e) === 0) {
          this.found.push(e);
          nearest = this.depth[v] + 1;
        } else if (nearest === Infinity) {
          this.enqueue(this.graph.target[e], e, this.depth[v] + 1);
        }
      }
    }
    return this.found.length === 0 ? undefined : this.route(start, walk.random);
  }

  /** The vertices the last search reached (a view, valid until the next search). */
  reached(): Int32Array {
    return this.queue.subarray(0, this.queued);
  }

  private begin(start: number, open: readonly number[]): void {
    this.stamp++;
    this.queued = 0;
    this.found.length = 0;
    const g = this.graph;
    this.exhaustive = open.length === g.outOffsets[start + 1] - g.outOffsets[start];
    this.enqueue(start, -1, 0);
  }

  private enqueue(v: number, edge: number, depth: number): void {
    if (this.seen[v] === this.stamp) return;
    this.seen[v] = this.stamp;
    this.via[v] = edge;
    this.depth[v] = depth;
    this.queue[this.queued++] = v;
  }

  private route(start: number, random: RandomSource): number[] {
    const n = this.found.length;
    const target = this.found[n === 1 ? 0 : random.int(n)];
    const route = [target];
    for (let v = this.graph.source[target]; v !== start; v = this.graph.source[this.via[v]]) route.push(this.via[v]);
    return route.reverse();
  }
}
