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

/** Fewest edges from `from` to stand on an unvisited edge, by plain BFS (guards ignored); Infinity if none. */
export function distanceToUnvisited(graph: Graph, from: number, visits: (e: number) => number): number {
  const seen = new Set([from]);
  let frontier = [from];
  for (let d = 1; frontier.length > 0; d++) {
    const next: number[] = [];
    for (const v of frontier) {
      for (const e of graph.outEdgesOf(v)) {
        if (visits(e) === 0) return d;
        if (!seen.has(graph.target[e])) {
          seen.add(graph.target[e]);
          next.push(graph.target[e]);
        }
      }
    }
    frontier = next;
  }
  return Infinity;
}

/** Fewest edges from `from` to stand on `target` (a vertex, or an edge: counted when taken); Infinity if none. */
export function distanceTo(graph: Graph, from: number, target: number): number {
  if (from === target) return 0;
  const seen = new Set([from]);
  let frontier = [from];
  for (let d = 1; frontier.length > 0; d++) {
    const next: number[] = [];
    for (const v of frontier) {
      for (const e of graph.outEdgesOf(v)) {
        if (e === target || graph.target[e] === target) return d;
        if (!seen.has(graph.target[e])) {
          seen.add(graph.target[e]);
          next.push(graph.target[e]);
        }
      }
    }
    frontier = next;
  }
  return Infinity;
}
