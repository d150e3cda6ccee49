import { BlockingFlow } from './blocking-flow.js';
import { MinHeap } from './heap.js';

/** Capacity of an arc that may carry any amount: a model edge can be walked again as often as needed. */
export const UNLIMITED = 0x3fffffff;

/**
 * Min-cost flow over a multigraph whose arcs all cost 1 per unit and have unlimited capacity: the balancing
 * step of route inspection, where a unit of flow along a path is one more walk along it.
 *
 * Primal-dual (successive shortest paths with potentials), pushing a whole blocking flow per phase: each
 * phase is one Dijkstra from every vertex with excess (in reduced costs, which stay non-negative), after which
 * all the shortest paths have reduced cost 0 and are filled at once by a Dinic-style blocking flow. With
 * unit costs there are only as many phases as distinct path lengths (a handful on a random model with
 * 50,000 edges), where one Dijkstra per unit of imbalance would need thousands.
 *
 * Residual arcs come in pairs: arc `2i` is input arc `i` (cost +1), arc `2i+1` its reverse (cost −1, capacity
 * = flow on `i`). `excess[v] > 0` is supply still to send, `< 0` demand still to meet. The potentials stay
 * valid between calls, so supplies may be added after a solve and {@link solve} called again.
 */
export class UnitCostFlow {
  readonly head: Int32Array;
  readonly capacity: Int32Array;
  readonly nextArc: Int32Array;
  readonly firstArc: Int32Array;
  readonly excess: Int32Array;
  readonly potential: Float64Array;
  private readonly dist: Float64Array;
  private readonly heap: MinHeap;
  private readonly blocking: BlockingFlow;
  private readonly touched: number[] = [];
  private origin = -1;

  /** Arc `i` goes from `from[i]` to `to[i]` (node indices below `nodeCount`). */
  constructor(
    readonly nodeCount: number,
    from: ArrayLike<number>,
    to: ArrayLike<number>,
  ) {
    const arcs = 2 * from.length;
    this.head = new Int32Array(arcs);
    this.capacity = new Int32Array(arcs);
    this.nextArc = new Int32Array(arcs);
    this.firstArc = new Int32Array(nodeCount).fill(-1);
    // Inserted back to front so that each node's arc list runs in input (declaration) order.
    for (let i = from.length - 1; i >= 0; i--) {
      this.link(2 * i + 1, to[i], from[i], 0);
      this.link(2 * i, from[i], to[i], UNLIMITED);
    }
    this.excess = new Int32Array(nodeCount);
    this.potential = new Float64Array(nodeCount);
    this.dist = new Float64Array(nodeCount).fill(Infinity);
    this.heap = new MinHeap(nodeCount + arcs);
    this.blocking = new BlockingFlow(this);
  }

  /** Units of flow on input arc `i`: how many extra times that edge is walked. */
  flow(i: number): number {
    return this.capacity[2 * i + 1];
  }

  /** Cost of residual arc `a` relative to the potentials; never negative on an arc with capacity. */
  reducedCost(a: number, from: number): number {
    return 1 - 2 * (a & 1) + this.potential[from] - this.potential[this.head[a]];
  }

  /**
   * Sends all excess to the demands at least cost. Returns false (leaving some excess) only when a demand
   * cannot be reached from any supply. The route planner rules that out by balancing inside strongly
   * connected components, and should it happen all the same, gives up the plan rather than lay a trail over
   * unbalanced counts.
   */
  solve(): boolean {
    for (;;) {
      const nearest = this.shortestFromSupplies();
      if (nearest === Infinity) return !this.excess.some((x) => x !== 0);
      // Capping at the nearest demand keeps every residual arc's reduced cost non-negative and makes
      // exactly the arcs of shortest supply-to-demand paths cost 0: the admissible graph of this phase.
      for (let v = 0; v < this.nodeCount; v++) this.potential[v] += Math.min(this.dist[v], nearest);
      this.blocking.saturate();
    }
  }

  /**
   * Single-source Dijkstra in the residual graph: afterwards {@link realDistance} gives the cost of the
   * cheapest way to send one more unit from `origin` to a node. Only the nodes it reaches are reset next
   * time, so that many calls on small components of a large graph stay cheap.
   */
  distancesFrom(origin: number): void {
    for (const v of this.touched) this.dist[v] = Infinity;
    this.touched.length = 0;
    this.origin = origin;
    this.dijkstra([origin], false);
  }

  /** Real (not reduced) residual distance from the last {@link distancesFrom} origin; Infinity if unreached. */
  realDistance(v: number): number {
    return this.dist[v] - this.potential[this.origin] + this.potential[v];
  }

  /** Multi-source Dijkstra from every node with supply, stopped at the first demand; its distance. */
  private shortestFromSupplies(): number {
    this.dist.fill(Infinity);
    this.touched.length = 0;
    const sources: number[] = [];
    for (let v = 0; v < this.nodeCount; v++) if (this.excess[v] > 0) sources.push(v);
    return this.dijkstra(sources, true);
  }

  private dijkstra(sources: readonly number[], stopAtDemand: boolean): number {
    const { dist, heap } = this;
    heap.clear();
    for (const s of sources) this.settle(s, 0);
    while (heap.size > 0) {
      const v = heap.pop();
      const d = heap.lastKey;
      if (d > dist[v]) continue;
      if (stopAtDemand && this.excess[v] < 0) return d;
      for (let a = this.firstArc[v]; a >= 0; a = this.nextArc[a]) {
        if (this.capacity[a] > 0) this.settle(this.head[a], d + this.reducedCost(a, v));
      }
    }
    return Infinity;
  }

  private settle(v: number, d: number): void {
    if (d >= this.dist[v]) return;
    if (this.dist[v] === Infinity) this.touched.push(v);
    this.dist[v] = d;
    this.heap.push(d, v);
  }

  private link(a: number, from: number, to: number, capacity: number): void {
    this.head[a] = to;
    this.capacity[a] = capacity;
    this.nextArc[a] = this.firstArc[from];
    this.firstArc[from] = a;
  }
}
