import type { LocalGraph } from './local-graph.js';
import type { UnitCostFlow } from './min-cost-flow.js';
import type { Components } from '../../../core/model/scc.js';
import { Grouped } from '../../../core/model/grouped.js';

/** One strongly connected component on the planned walk: entered at `entry`, left at `exit`. */
export interface Segment {
  readonly entry: number;
  /** The source of `bridge`, or for the last segment the vertex where the walk ends. */
  readonly exit: number;
  /** The local edge into the next component; -1 for the last segment. */
  readonly bridge: number;
}

/** What the planner knows about a balanced reachable graph; `arcOf` maps local edges to flow arcs (-1 between components). */
export interface BalancedGraph {
  readonly g: LocalGraph;
  readonly components: Components;
  readonly need: Uint8Array;
  readonly flow: UnitCostFlow;
  readonly arcOf: Int32Array;
}

/**
 * Dijkstra runs allowed for exact costs, in vertices+edges visited. A walk can never come back to a component
 * it left, so the choice of components, entries and exits matters only on models that are not strongly
 * connected; on those, a component with very many entries gets coverage-exact but cost-approximate choices
 * rather than a quadratic number of searches.
 */
const EXACT_BUDGET = 5_000_000;

/**
 * Chooses the chain of components the covering walk passes through, where it enters and leaves each, and
 * where it ends: the most required edges covered, then the fewest steps (Dynamic programming over the
 * components in reverse topological order). Inside a component every required edge is walked, so the walk
 * from entry a to exit b costs the component's balanced closed tour plus the residual distance a→b of its
 * balancing flow: the exact optimum of route inspection with a free end (successive shortest paths).
 */
export function chooseChain(balanced: BalancedGraph): Segment[] {
  const planner = new ChainPlanner(balanced);
  for (let c = 0; c < balanced.components.count; c++) planner.evaluate(c);
  return planner.route();
}

class ChainPlanner {
  private readonly g: LocalGraph;
  private readonly comp: Int32Array;
  /** Vertices grouped by component (CSR), bridges grouped by source component (CSR). */
  private readonly members: Grouped;
  private readonly bridges: Grouped;
  private readonly isEntry: Uint8Array;
  /** Per component: required internal edges, and steps of its balanced closed tour. */
  private readonly covered: Float64Array;
  private readonly tourCost: Float64Array;
  private readonly size: Float64Array;
  /** Per entry vertex: the best walk from there on. */
  private readonly bestCover: Float64Array;
  private readonly bestCost: Float64Array;
  private readonly bestBridge: Int32Array;
  private readonly bestEnd: Int32Array;
  private budget = EXACT_BUDGET;

  constructor(private readonly b: BalancedGraph) {
    const { g, components } = b;
    this.g = g;
    this.comp = components.of;
    const n = g.vertexCount;
    this.members = Grouped.by(components.count, n, (v) => components.of[v]);
    this.bridges = Grouped.by(components.count, g.edgeCount, (e) => (b.arcOf[e] < 0 ? components.of[g.from[e]] : -1));
    this.isEntry = new Uint8Array(n);
    this.isEntry[0] = 1;
    for (let e = 0; e < g.edgeCount; e++) if (b.arcOf[e] < 0) this.isEntry[g.to[e]] = 1;
    [this.covered, this.tourCost, this.size] = this.componentCosts();
    this.bestCover = new Float64Array(n);
    this.bestCost = new Float64Array(n);
    this.bestBridge = new Int32Array(n).fill(-1);
    this.bestEnd = new Int32Array(n);
  }

  evaluate(c: number): void {
    const entries = this.members.items(c).filter((v) => this.isEntry[v] === 1);
    const exact = entries.length * this.size[c] <= this.budget;
    if (exact) this.budget -= entries.length * this.size[c];
    for (const a of entries) this.evaluateEntry(c, a, exact);
  }

  route(): Segment[] {
    const segments: Segment[] = [];
    for (let a = 0; ; a = this.g.to[this.bestBridge[a]]) {
      const bridge = this.bestBridge[a];
      segments.push({ entry: a, exit: bridge < 0 ? this.bestEnd[a] : this.g.from[bridge], bridge });
      if (bridge < 0) return segments;
    }
  }

  private evaluateEntry(c: number, a: number, exact: boolean): void {
    const { flow } = this.b;
    if (exact) flow.distancesFrom(a);
    const distance = (v: number): number => (exact ? flow.realDistance(v) : 0);
    let end = a;
    for (const v of this.members.items(c)) if (distance(v) < distance(end)) end = v;
    let cover = this.covered[c];
    let cost = this.tourCost[c] + distance(end);
    let bridge = -1;
    for (const e of this.bridges.items(c)) {
      const next = this.g.to[e];
      const eCover = this.covered[c] + this.b.need[e] + this.bestCover[next];
      const eCost = this.tourCost[c] + distance(this.g.from[e]) + 1 + this.bestCost[next];
      if (eCover > cover || (eCover === cover && eCost < cost)) [cover, cost, bridge] = [eCover, eCost, e];
    }
    this.bestCover[a] = cover;
    this.bestCost[a] = cost;
    this.bestBridge[a] = bridge;
    this.bestEnd[a] = end;
  }

  /** Per component: required internal edges, closed-tour steps (required edges + balancing walks), size. */
  private componentCosts(): [Float64Array, Float64Array, Float64Array] {
    const count = this.b.components.count;
    const covered = new Float64Array(count);
    const cost = new Float64Array(count);
    const size = new Float64Array(count);
    for (let v = 0; v < this.g.vertexCount; v++) size[this.comp[v]]++;
    for (let e = 0; e < this.g.edgeCount; e++) {
      const arc = this.b.arcOf[e];
      if (arc < 0) continue;
      const c = this.comp[this.g.from[e]];
      covered[c] += this.b.need[e];
      cost[c] += this.b.need[e] + this.b.flow.flow(arc);
      size[c]++;
    }
    return [covered, cost, size];
  }
}
