import type { RandomSource } from '../../../core/random.js';
import type { Graph } from '../../../core/model/graph.js';
import { chooseChain, type BalancedGraph, type Segment } from './chain.js';
import { joiningWalks } from './connect.js';
import { eulerTrail } from './euler.js';
import { layJumps } from './jumps.js';
import { reachableGraph, type LocalGraph } from './local-graph.js';
import { UnitCostFlow } from './min-cost-flow.js';
import { JoinedGraph } from '../../../core/model/joined-graph.js';
import { stronglyConnected } from '../../../core/model/scc.js';

/** A covering walk planned from one vertex. */
export interface CoveringPlan {
  /**
   * The moves in walking order: an edge index means take that edge, a vertex index jump to that vertex through
   * its shared state. Empty when no required edge is reachable.
   */
  readonly tour: readonly number[];
  /** Graph vertex indices reachable from the start (through shared states too): where the plan looked. */
  readonly reachable: Int32Array;
  /** Required edges reachable from the start; how many of them the tour covers. */
  readonly required: number;
  readonly covered: number;
  /** Vertices plus edges of the reachable part: what the plan cost to make, roughly. */
  readonly work: number;
  /**
   * True when a balancing flow could not send all its supply, so that no trail could be laid: the tour is then
   * empty and the caller must find its own way. By construction every demand lies in the component of its
   * supply, so this guards against a planner bug rather than a model; the generator walks quick_random's way.
   */
  readonly failed: boolean;
}

/**
 * The shortest walk from `start` that covers the required edges reachable from it (guards ignored): directed
 * route inspection (Chinese postman) with a free end, over the joined graph of all models.
 *
 * 0. The vertices of each shared-state group are merged into one ({@link reachableGraph} with the
 *    {@link JoinedGraph}), so that the walk may leave a model through one member and go on from another. The
 *    plan minimises edges walked; the jumps it then needs (a step each, where an edge costs two) are laid
 *    afterwards, as few as those edges allow ({@link layJumps}). A plan that walked an edge more to save
 *    jumps could be shorter by a step or so per group; on the files seen, the groups are few and the edges
 *    between them many, so the edges dominate.
 * 1. The reachable part of the joined graph is split into strongly connected components. A walk never
 *    returns to a component it has left, so when the reachable part is not strongly connected it can cover
 *    at most the components of one chain; {@link chooseChain} picks the chain that covers the most required
 *    edges, then the cheapest.
 * 2. Inside each component, where required in- and out-degrees differ, the cheapest extra walks are a
 *    min-cost flow from surplus in-degree to surplus out-degree ({@link UnitCostFlow}); one more unit from
 *    the entry to the exit makes the degrees those of an open trail (an artificial zero-cost edge from the
 *    free end back to the start, in effect). This is the exact optimum when every reachable edge is required.
 * 3. When only some edges are required (re-planning), {@link joiningWalks} joins stray pieces.
 * 4. {@link eulerTrail} lays the trail; with a random source, another of the equally short trails per seed.
 */
export function planCoveringWalk(
  graph: Graph,
  start: number,
  isRequired: (edge: number) => boolean,
  random?: RandomSource,
  joined: JoinedGraph = new JoinedGraph(graph),
): CoveringPlan {
  const g = reachableGraph(graph, start, joined);
  const need = new Uint8Array(g.edgeCount);
  let required = 0;
  for (let e = 0; e < g.edgeCount; e++) if (isRequired(g.edges[e])) required += need[e] = 1;
  const work = g.vertexCount + g.edgeCount;
  const nothing = { tour: [], reachable: g.reached, required, covered: 0, work };
  if (required === 0) return { ...nothing, failed: false };
  let times: Int32Array;
  try {
    const balanced = balanceComponents(g, need);
    times = walkCounts(balanced, chooseChain(balanced));
  } catch (error) {
    if (error instanceof UnbalancedFlow) return { ...nothing, failed: true };
    throw error;
  }
  let covered = 0;
  for (let e = 0; e < g.edgeCount; e++) if (times[e] > 0) covered += need[e];
  const withJumps = g.merged ? layJumps(graph, joined, g, times, start) : undefined;
  const tour = withJumps ?? Array.from(eulerTrail(g, times, 0, random), (e) => g.edges[e]);
  return { tour, reachable: g.reached, required, covered, work, failed: false };
}

/** A balancing flow that left supply unsent: the walk counts would not form a trail. */
class UnbalancedFlow extends Error {}

/** Solves the flow, or throws {@link UnbalancedFlow}: a trail laid over an unbalanced multigraph would be no walk. */
function solve(flow: UnitCostFlow): void {
  if (!flow.solve()) throw new UnbalancedFlow('a balancing flow could not send all its supply');
}

/** Step 2 for closed tours: each component's required edges balanced by a min-cost flow over its own edges. */
function balanceComponents(g: LocalGraph, need: Uint8Array): BalancedGraph {
  const components = stronglyConnected(g);
  const arcOf = new Int32Array(g.edgeCount).fill(-1);
  const from: number[] = [];
  const to: number[] = [];
  for (let e = 0; e < g.edgeCount; e++) {
    if (components.of[g.from[e]] !== components.of[g.to[e]]) continue;
    arcOf[e] = from.length;
    from.push(g.from[e]);
    to.push(g.to[e]);
  }
  const flow = new UnitCostFlow(g.vertexCount, from, to);
  for (let e = 0; e < g.edgeCount; e++) if (need[e] === 1 && arcOf[e] >= 0) requireWalks(flow, g, e, 1);
  solve(flow);
  return { g, components, need, flow, arcOf };
}

/**
 * How often the plan walks each local edge: the chain's required edges once, the bridges between its
 * components once, plus the balancing walks, after one more unit of flow from each segment's entry to its
 * exit has turned the closed tours into open trails.
 */
function walkCounts(balanced: BalancedGraph, segments: readonly Segment[]): Int32Array {
  const { g, components, flow } = balanced;
  for (const s of segments) {
    flow.excess[s.entry]++;
    flow.excess[s.exit]--;
  }
  solve(flow);
  const times = counts(balanced, segments, new Int32Array(g.edgeCount));
  const joins = joiningWalks(g, components, segments, times);
  if (joins === null) return times;
  for (let e = 0; e < g.edgeCount; e++) if (joins[e] > 0) requireWalks(flow, g, e, joins[e]);
  solve(flow);
  return counts(balanced, segments, joins);
}

/** Walks per local edge on the chain: required + `extra` + balancing flow; bridges once. */
function counts(balanced: BalancedGraph, segments: readonly Segment[], extra: Int32Array): Int32Array {
  const { g, components, need, flow, arcOf } = balanced;
  const onChain = new Uint8Array(components.count);
  for (const s of segments) onChain[components.of[s.entry]] = 1;
  const times = new Int32Array(g.edgeCount);
  for (let e = 0; e < g.edgeCount; e++) {
    if (arcOf[e] >= 0 && onChain[components.of[g.from[e]]] === 1) times[e] = need[e] + extra[e] + flow.flow(arcOf[e]);
  }
  for (const s of segments) if (s.bridge >= 0) times[s.bridge] = 1;
  return times;
}

/** Counts `times` more walks of edge e as required: its source then needs that many more ways in, its target out. */
function requireWalks(flow: UnitCostFlow, g: LocalGraph, e: number, times: number): void {
  flow.excess[g.from[e]] -= times;
  flow.excess[g.to[e]] += times;
}
