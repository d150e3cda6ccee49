import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { Graph } from '../../../core/model/graph.js';
import { JoinedGraph } from '../../../core/model/joined-graph.js';
import { OneWalk } from '../../../core/model/one-walk.js';
import { WalkGraph } from '../../../core/model/walk-graph.js';
import type { ModelJson } from '../../../core/model/types.js';

/**
 * Small files of one or two models (up to 3 vertices and 4 edges each, start edges included), vertices named
 * or not and carrying one of two shared states or none: few enough elements for exhaustive search over every
 * (element, set of elements visited) a walk can reach.
 */
const files = fc
  .record({
    models: fc.array(
      fc.record({
        vertices: fc.array(fc.record({ named: fc.boolean(), state: fc.constantFrom(undefined, 'S', 'T') }), { minLength: 1, maxLength: 3 }),
        edges: fc.array(fc.tuple(fc.nat(3), fc.nat(2)), { maxLength: 4 }),
        start: fc.nat(6),
      }),
      { minLength: 1, maxLength: 2 },
    ),
  })
  .map(({ models }) =>
    new Graph({
      models: models.map((m, i): ModelJson => {
        const n = m.vertices.length;
        // A source of n is a start edge (none), so the walk may begin on an edge that no vertex leads to.
        const edges = m.edges.map(([s, t], e) => ({ id: `e${e}`, ...(s % (n + 1) < n ? { sourceVertexId: `v${s % (n + 1)}` } : {}), targetVertexId: `v${t % n}` }));
        const start = m.start % (n + edges.length);
        return {
          id: `m${i}`,
          ...(i === 0 ? { startElementId: start < n ? `v${start}` : `e${start - n}` } : {}),
          vertices: m.vertices.map((v, j) => ({ id: `v${j}`, ...(v.named ? { name: `v${j}` } : {}), ...(v.state ? { sharedState: v.state } : {}) })),
          edges,
        };
      }),
    }),
  );

/**
 * The moves a walk can make from an element, written from the machine's rules and not from the code under
 * test: an edge leads to its target; a vertex to its out-edges, and by a jump to every vertex of another model
 * with its shared state that has a name or an out-edge. Guards, and the machine's refusal to jump straight
 * back, are left out, as the load-time check leaves them out.
 */
function moves(graph: Graph, x: number): number[] {
  if (!graph.isVertex(x)) return graph.target[x] >= 0 ? [graph.target[x]] : [];
  const out = Array.from(graph.outEdgesOf(x));
  const state = graph.sharedState[x];
  if (state === undefined) return out;
  for (const w of graph.sharedStateVertices(state)) {
    if (graph.modelOf[w] !== graph.modelOf[x] && (graph.names[w] || graph.outEdgesOf(w).length > 0)) out.push(w);
  }
  return out;
}

/** Exhaustive search: the best (primary, secondary) totals over every set of elements some walk has visited. */
function bruteForce(graph: Graph, primary: number[], secondary: number[]): [number, number] {
  const start = graph.models[0].startElement;
  const n = graph.size;
  const seen = new Uint8Array(n << n);
  const queue: [number, number][] = [[start, 1 << start]];
  seen[(start << n) | (1 << start)] = 1;
  let best: [number, number] = [0, 0];
  for (let head = 0; head < queue.length; head++) {
    const [x, mask] = queue[head];
    let [p, s] = [0, 0];
    for (let e = 0; e < n; e++) if (mask & (1 << e)) [p, s] = [p + primary[e], s + secondary[e]];
    if (p > best[0] || (p === best[0] && s > best[1])) best = [p, s];
    for (const y of moves(graph, x)) {
      const next = mask | (1 << y);
      if (seen[(y << n) | next] === 0) {
        seen[(y << n) | next] = 1;
        queue.push([y, next]);
      }
    }
  }
  return best;
}

function reaches(graph: Graph, from: number, to: number): boolean {
  const seen = new Set([from]);
  const queue = [from];
  for (let i = 0; i < queue.length; i++) for (const y of moves(graph, queue[i])) if (!seen.has(y) && seen.add(y)) queue.push(y);
  return seen.has(to);
}

const oneWalkOf = (graph: Graph) => new OneWalk(new WalkGraph(graph, new JoinedGraph(graph)));
const allElements = (graph: Graph) => Array.from({ length: graph.size }, (_, e) => e);

describe('what one walk can cover', () => {
  it('is what exhaustive search over walks finds, for any weights and a second criterion after the first', () => {
    const weights = fc.array(fc.tuple(fc.nat(3), fc.nat(3)), { minLength: 14, maxLength: 14 });
    fc.assert(
      fc.property(files, weights, (graph, w) => {
        const primary = allElements(graph).map((e) => w[e][0]);
        const secondary = allElements(graph).map((e) => w[e][1]);
        const best = oneWalkOf(graph).best({ elements: allElements(graph), weights: primary }, { elements: allElements(graph), weights: secondary });
        expect([best.primary, best.secondary]).toEqual(bruteForce(graph, primary, secondary));
      }),
      { numRuns: 300 },
    );
  });

  it('walks the components it reports: each follows the one before it', () => {
    fc.assert(
      fc.property(files, (graph) => {
        const walks = oneWalkOf(graph);
        const sample = (c: number) => allElements(graph).find((e) => walks.componentOf(e) === c);
        // Shared-state groups and the hub are nodes of their own; only components of elements can be walked on.
        const path = walks.best({ elements: allElements(graph) }).components.map(sample).filter((e) => e !== undefined);
        expect(walks.componentOf(path[0]!)).toBe(walks.componentOf(graph.models[0].startElement));
        for (let i = 1; i < path.length; i++) expect(reaches(graph, path[i - 1], path[i])).toBe(true);
      }),
      { numRuns: 200 },
    );
  });

  it('names as a rival exactly the elements that neither reach nor are reached from it', () => {
    fc.assert(
      fc.property(files, fc.nat(), fc.nat(), (graph, i, j) => {
        const walks = oneWalkOf(graph);
        const reachable = allElements(graph).filter((e) => walks.componentOf(e) >= 0);
        const [a, b] = [reachable[i % reachable.length], reachable[j % reachable.length]];
        const apart = !reaches(graph, a, b) && !reaches(graph, b, a);
        expect(walks.rival(a, [b])).toBe(apart ? b : -1);
      }),
      { numRuns: 300 },
    );
  });

  it('reaches what the machine can reach, and gives the rest no component', () => {
    fc.assert(
      fc.property(files, (graph) => {
        const walks = oneWalkOf(graph);
        const start = graph.models[0].startElement;
        for (const e of allElements(graph)) expect(walks.componentOf(e) >= 0).toBe(reaches(graph, start, e));
      }),
      { numRuns: 200 },
    );
  });
});
