import type { Graph } from '../../../core/model/graph.js';

/** The chance of a walk that takes longer than {@link walkBound}, per walk. */
const DOUBT = 1e-9;

/**
 * Steps within which a walk of `random` (or of `weighted_random` without weights) has stood on every vertex
 * and every unguarded edge of a file, except with probability {@link DOUBT}; what the walk-property tests
 * allow a walk whose goals lie on those elements.
 *
 * The argument. The walk is a Markov chain on (where it stands, whether it just jumped). From any such state
 * there is a path of unguarded edges and jumps to any target, and the walk follows it with at least the product
 * of its choices' chances: an edge of vertex w is taken with chance ≥ 1/outdeg(w) (guards only shrink the
 * choice), halved where w offers a jump (the machine then picks staying or jumping at random, 1/2 each), and a
 * jump is taken with chance 1/2 — except straight after a jump, when the machine offers no way back and the
 * walk stays for sure. So within L steps (the longest of these best paths, one more for a walk standing on an
 * edge) a given target is hit with chance ≥ q (the smallest of their chances), whatever happened before; after
 * k blocks of L steps it is still missed with chance ≤ (1 − q)^k ≤ e^(−qk), and all T targets are hit unless
 * with chance ≤ T·e^(−qk) ≤ DOUBT for k = ⌈ln(T / DOUBT) / q⌉. The planners head for what is not covered yet
 * and fall back to the same random choices when guards spoil a plan, so the bound serves them as well.
 */
export function walkBound(graph: Graph): number {
  const targets = [...Array(graph.vertexCount).keys(), ...sureEdges(graph)];
  let q = 1;
  let steps = 0;
  for (const start of states(graph)) {
    const best = bestPaths(graph, start);
    for (const t of targets) {
      const [chance, length] = graph.isVertex(t) ? reachVertex(best, t) : reachEdge(graph, best, t);
      q = Math.min(q, chance);
      steps = Math.max(steps, length);
    }
  }
  const k = Math.ceil(Math.log(targets.length / DOUBT) / q);
  return 2 + (steps + 1) * k;
}

/** A state: the vertex the walk stands on, and 1 when it got there by a jump. */
type State = readonly [vertex: number, jumped: 0 | 1];

function sureEdges(graph: Graph): number[] {
  return Array.from({ length: graph.edgeCount }, (_, i) => graph.vertexCount + i).filter((e) => graph.source[e] >= 0 && graph.guard[e] === undefined);
}

/** The vertices of other models a vertex may jump to (each has a name in these files). */
function partners(graph: Graph, v: number): number[] {
  const state = graph.sharedState[v];
  return state === undefined ? [] : graph.sharedStateVertices(state).filter((w) => graph.modelOf[w] !== graph.modelOf[v]);
}

function states(graph: Graph): State[] {
  return [...Array(graph.vertexCount).keys()].flatMap((v): State[] => (partners(graph, v).length > 0 ? [[v, 0], [v, 1]] : [[v, 0]]));
}

/** The chance of taking a given out-edge of v: a jump decision to stay first, unless v was just jumped to. */
function edgeChance(graph: Graph, [v, jumped]: State): number {
  const stay = partners(graph, v).length > 0 && jumped === 0 ? 1 / (1 + partners(graph, v).length) : 1;
  return stay / graph.outEdgesOf(v).length;
}

/** Per state key `v:jumped`, the likeliest path there: its chance and length in steps (Bellman-Ford on a dozen states). */
function bestPaths(graph: Graph, start: State): Map<string, [number, number, State]> {
  const best = new Map<string, [number, number, State]>([[`${start[0]}:${start[1]}`, [1, 0, start]]]);
  for (let round = 0; round <= 2 * graph.vertexCount; round++) {
    for (const [chance, length, s] of [...best.values()]) {
      const moves: [State, number, number][] = [];
      for (const e of graph.outEdgesOf(s[0])) if (graph.guard[e] === undefined) moves.push([[graph.target[e], 0], edgeChance(graph, s), 2]);
      if (s[1] === 0) for (const w of partners(graph, s[0])) moves.push([[w, 1], 1 / (1 + partners(graph, s[0]).length), 1]);
      for (const [next, p, cost] of moves) {
        const key = `${next[0]}:${next[1]}`;
        const known = best.get(key);
        if (known === undefined || chance * p > known[0]) best.set(key, [chance * p, length + cost, next]);
      }
    }
  }
  return best;
}

function reachVertex(best: Map<string, [number, number, State]>, v: number): [number, number] {
  const ways = [best.get(`${v}:0`), best.get(`${v}:1`)].filter((w) => w !== undefined);
  if (ways.length === 0) return [0, Infinity];
  return ways.reduce(([c, l], [c2, l2]) => (c2 > c ? [c2, l2] : [c, l]), [0, Infinity] as [number, number]);
}

function reachEdge(graph: Graph, best: Map<string, [number, number, State]>, e: number): [number, number] {
  let result: [number, number] = [0, Infinity];
  for (const [chance, length, s] of best.values()) {
    if (s[0] !== graph.source[e]) continue;
    const p = chance * edgeChance(graph, s);
    if (p > result[0]) result = [p, length + 1];
  }
  return result;
}
