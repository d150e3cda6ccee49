import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { eulerTrail } from '../../../plugins/generators/algorithms/euler.js';
import { reachableGraph } from '../../../plugins/generators/algorithms/local-graph.js';
import { UnitCostFlow } from '../../../plugins/generators/algorithms/min-cost-flow.js';
import { stronglyConnected } from '../../../core/model/scc.js';
import { UnionFind } from '../../../plugins/generators/algorithms/union-find.js';
import { graphOf, model, type EdgeSpec } from './models.js';

const localGraphs = fc
  .record({ n: fc.integer({ min: 1, max: 9 }), pairs: fc.array(fc.tuple(fc.nat(8), fc.nat(8)), { maxLength: 25 }) })
  .map(({ n, pairs }) => {
    const vertices = Array.from({ length: n }, (_, i) => `v${i}`);
    const graph = graphOf(model(vertices, pairs.map(([a, b], i): EdgeSpec => [`e${i}`, `v${a % n}`, `v${b % n}`])));
    return reachableGraph(graph, 0);
  });

/** reach[u][v]: v can be reached from u (every vertex reaches itself). */
function reachability(g: ReturnType<typeof reachableGraph>): boolean[][] {
  const reach = Array.from({ length: g.vertexCount }, (_, u) => Array.from({ length: g.vertexCount }, (_, v) => u === v));
  for (let e = 0; e < g.edgeCount; e++) reach[g.from[e]][g.to[e]] = true;
  for (let k = 0; k < g.vertexCount; k++) {
    for (let u = 0; u < g.vertexCount; u++) for (let v = 0; v < g.vertexCount; v++) reach[u][v] ||= reach[u][k] && reach[k][v];
  }
  return reach;
}

describe('planning algorithms', () => {
  it('strongly connected components: same component iff mutually reachable, edges between them go downwards', () => {
    fc.assert(
      fc.property(localGraphs, (g) => {
        const { of } = stronglyConnected(g);
        const reach = reachability(g);
        for (let u = 0; u < g.vertexCount; u++) {
          for (let v = 0; v < g.vertexCount; v++) expect(of[u] === of[v]).toBe(reach[u][v] && reach[v][u]);
        }
        for (let e = 0; e < g.edgeCount; e++) expect(of[g.from[e]]).toBeGreaterThanOrEqual(of[g.to[e]]);
      }),
    );
  });

  it('Euler trail: walks every edge as often as asked, as one walk from the start', () => {
    const g = reachableGraph(graphOf(model(['a', 'b', 'c'], [['ab', 'a', 'b'], ['bc', 'b', 'c'], ['ca', 'c', 'a'], ['ba', 'b', 'a']])), 0);
    const trail = eulerTrail(g, Int32Array.from([2, 1, 1, 1]), 0);
    expect(trail).toHaveLength(5);
    let v = 0;
    for (const e of trail) {
      expect(g.from[e]).toBe(v);
      v = g.to[e];
    }
    expect([...trail].sort()).toEqual([0, 0, 1, 2, 3]);
  });

  it('min-cost flow: sends all supply along shortest paths, and can take more supply after a solve', () => {
    // A line 0 → 1 → 2 → 3 with a shortcut 0 → 3 and a way back 3 → 0.
    const flow = new UnitCostFlow(4, [0, 1, 2, 0, 3], [1, 2, 3, 3, 0]);
    flow.excess[0] = 2;
    flow.excess[3] = -2;
    expect(flow.solve()).toBe(true);
    expect([0, 1, 2, 3, 4].map((i) => flow.flow(i))).toEqual([0, 0, 0, 2, 0]);
    // Now 1 has a unit to send and 0 one unit less: the cheapest answer reroutes one unit through 1 → 2 → 3.
    flow.excess[1] = 1;
    flow.excess[0] = -1;
    expect(flow.solve()).toBe(true);
    expect([0, 1, 2, 3, 4].map((i) => flow.flow(i))).toEqual([0, 1, 1, 1, 0]);
    // Residual distances may be negative: sending one more unit 0 → 1 is cheapest by undoing flow.
    flow.distancesFrom(0);
    expect([1, 2, 3].map((v) => flow.realDistance(v))).toEqual([-1, 0, 1]);
  });

  it('union-find: same set iff joined by a chain of unions, also for vertices past its initial size', () => {
    const unions = fc.array(fc.tuple(fc.nat(40), fc.nat(40)), { maxLength: 60 });
    fc.assert(
      fc.property(fc.nat(12), unions, (initial, pairs) => {
        const sets = new UnionFind(initial);
        // A naive labelling: relabel one whole set on every union.
        const label = Array.from({ length: 41 }, (_, v) => v);
        for (const [a, b] of pairs) {
          const joined = label[a] !== label[b];
          expect(sets.union(a, b)).toBe(joined);
          const old = label[b];
          for (let v = 0; v <= 40; v++) if (label[v] === old) label[v] = label[a];
        }
        for (let u = 0; u <= 40; u++) for (let v = 0; v <= 40; v++) expect(sets.same(u, v)).toBe(label[u] === label[v]);
      }),
    );
  });
});
