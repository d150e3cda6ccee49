import type { Graph } from '../../../core/model/graph.js';
import { reachableEdges } from './models.js';

/**
 * The best covering walk by exhaustive search: breadth-first over (vertex, set of covered edges) states from
 * the model's start vertex. `covered` is the most reachable required edges one walk can cover, `steps` the
 * fewest edges a walk needs to cover that many. Exponential: for models of a few edges only.
 */
export function bruteForceCover(
  graph: Graph,
  modelIndex = 0,
  isRequired: (edge: number) => boolean = () => true,
): { covered: number; steps: number } {
  const edges = reachableEdges(graph, modelIndex).filter(isRequired);
  const bit = new Map(edges.map((e, i) => [e, 1 << i]));
  const start = graph.models[modelIndex].startElement;
  const firstSteps = new Map<number, number>([[0, 0]]);
  const seen = new Set<string>([`${start}:0`]);
  let frontier: [number, number][] = [[start, 0]];
  for (let steps = 1; frontier.length > 0; steps++) {
    const next: [number, number][] = [];
    for (const [v, mask] of frontier) {
      for (const e of graph.outEdgesOf(v)) {
        const m = mask | (bit.get(e) ?? 0);
        const key = `${graph.target[e]}:${m}`;
        if (seen.has(key)) continue;
        seen.add(key);
        next.push([graph.target[e], m]);
        const count = popCount(m);
        if (!firstSteps.has(count)) firstSteps.set(count, steps);
      }
    }
    frontier = next;
  }
  const covered = Math.max(...firstSteps.keys());
  return { covered, steps: firstSteps.get(covered)! };
}

function popCount(x: number): number {
  let n = 0;
  for (; x; x &= x - 1) n++;
  return n;
}

/**
 * Length of the shortest walk from the start covering every edge of a strongly connected model, computed
 * independently of the planner: |E| plus a min-cost flow by successive shortest paths with Bellman-Ford, one
 * unit at a time, on an explicit network (super source, super sink, and a free-end node that any vertex may
 * send one unit to at no cost). Slow and simple on purpose.
 */
export function referenceTourLength(graph: Graph, modelIndex = 0): number {
  const edges = reachableEdges(graph, modelIndex);
  const n = graph.vertexCount;
  const [source, sink, freeEnd] = [n, n + 1, n + 2];
  const net = new ReferenceNetwork(n + 3);
  const supply = new Array<number>(n).fill(0);
  for (const e of edges) {
    net.add(graph.source[e], graph.target[e], 1e9, 1);
    supply[graph.source[e]]--;
    supply[graph.target[e]]++;
  }
  supply[graph.models[modelIndex].startElement]++;
  for (let v = 0; v < n; v++) {
    if (supply[v] > 0) net.add(source, v, supply[v], 0);
    if (supply[v] < 0) net.add(v, sink, -supply[v], 0);
    net.add(v, freeEnd, 1, 0);
  }
  net.add(freeEnd, sink, 1, 0);
  return edges.length + net.minCost(source, sink);
}

class ReferenceNetwork {
  private readonly arcs: { to: number; cap: number; cost: number }[] = [];
  private readonly out: number[][];

  constructor(private readonly n: number) {
    this.out = Array.from({ length: n }, () => []);
  }

  add(from: number, to: number, cap: number, cost: number): void {
    this.out[from].push(this.arcs.length);
    this.arcs.push({ to, cap, cost });
    this.out[to].push(this.arcs.length);
    this.arcs.push({ to: from, cap: 0, cost: -cost });
  }

  minCost(s: number, t: number): number {
    let total = 0;
    for (;;) {
      const dist = new Array<number>(this.n).fill(Infinity);
      const via = new Array<number>(this.n).fill(-1);
      dist[s] = 0;
      for (let round = 0; round < this.n; round++) {
        for (let v = 0; v < this.n; v++) {
          if (dist[v] === Infinity) continue;
          for (const a of this.out[v]) {
            const arc = this.arcs[a];
            if (arc.cap > 0 && dist[v] + arc.cost < dist[arc.to]) [dist[arc.to], via[arc.to]] = [dist[v] + arc.cost, a];
          }
        }
      }
      if (dist[t] === Infinity) return total;
      for (let v = t; v !== s; v = this.arcs[via[v] ^ 1].to) {
        this.arcs[via[v]].cap--;
        this.arcs[via[v] ^ 1].cap++;
      }
      total += dist[t];
    }
  }
}

/**
 * The moves from a vertex in the joined graph of a multi-model file, with their cost in steps: each out-edge
 * (two: the edge and its target) and each jump to a vertex of another model with the same shared state that
 * has a name or an out-edge (one). Written from the machine's rules, independently of the planners.
 */
export function joinedMoves(graph: Graph, v: number): { move: number; to: number; cost: number }[] {
  const moves = Array.from(graph.outEdgesOf(v), (e) => ({ move: e, to: graph.target[e], cost: 2 }));
  const state = graph.sharedState[v];
  if (state === undefined) return moves;
  for (const w of graph.sharedStateVertices(state)) {
    const enterable = graph.names[w] !== undefined || graph.outEdgesOf(w).length > 0;
    if (graph.modelOf[w] !== graph.modelOf[v] && enterable) moves.push({ move: w, to: w, cost: 1 });
  }
  return moves;
}

/** Dijkstra over string-keyed states with small integer costs (a bucket queue); the cost of every state reached. */
function cheapest<S>(
  start: S,
  key: (s: S) => string,
  next: (s: S) => [S, number][],
): Map<string, { state: S; cost: number }> {
  const best = new Map([[key(start), { state: start, cost: 0 }]]);
  const buckets: S[][] = [[start]];
  for (let cost = 0; cost < buckets.length; cost++) {
    for (const state of buckets[cost] ?? []) {
      if (best.get(key(state))!.cost !== cost) continue;
      for (const [s, step] of next(state)) {
        const k = key(s);
        const c = cost + step;
        if (best.has(k) && best.get(k)!.cost <= c) continue;
        best.set(k, { state: s, cost: c });
        (buckets[c] ??= []).push(s);
      }
    }
  }
  return best;
}

/** Fewest steps from vertex `from` to stand on an element `isGoal` accepts, over the joined graph; Infinity if none. */
export function joinedStepsTo(graph: Graph, from: number, isGoal: (element: number) => boolean): number {
  const moves = (v: number) => joinedMoves(graph, v).map(({ to, cost }): [number, number] => [to, cost]);
  const costs = cheapest(from, String, moves);
  let best = Infinity;
  for (const { state: v, cost } of costs.values()) {
    if (isGoal(v)) best = Math.min(best, cost);
    for (const e of graph.outEdgesOf(v)) if (isGoal(e)) best = Math.min(best, cost + 1);
  }
  return best;
}

/**
 * The best covering walk of a joined multi-model file by exhaustive search from the first model's start
 * vertex: the most edges one walk can cover, the fewest steps that takes (edges two, jumps one), and the
 * fewest edges if jumps were free. Exponential: for a few edges only.
 */
export function bruteForceJoinedCover(graph: Graph): { covered: number; steps: number; edges: number } {
  const all = Array.from({ length: graph.edgeCount }, (_, i) => graph.vertexCount + i);
  const edges = all.filter((e) => graph.source[e] >= 0);
  const bit = new Map(edges.map((e, i) => [e, 1 << i]));
  const start = graph.models[0].startElement;
  const search = (jumpCost: number) =>
    cheapest<[number, number]>([start, 0], ([v, mask]) => `${v}:${mask}`, ([v, mask]) =>
      joinedMoves(graph, v).map(({ move, to, cost }): [[number, number], number] => [
        [to, mask | (bit.get(move) ?? 0)],
        cost === 1 ? jumpCost : cost,
      ]),
    );
  const bestOf = (costs: ReturnType<typeof search>) => {
    let covered = 0;
    let cost = 0;
    for (const { state: [, mask], cost: c } of costs.values()) {
      const n = popCount(mask);
      if (n > covered || (n === covered && c < cost)) [covered, cost] = [n, c];
    }
    return { covered, cost };
  };
  const exact = bestOf(search(1));
  return { covered: exact.covered, steps: exact.cost, edges: bestOf(search(0)).cost / 2 };
}
