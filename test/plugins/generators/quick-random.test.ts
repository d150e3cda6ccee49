import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { quickRandomGenerator } from '../../../plugins/generators/index.js';
import { coveredEdges, edgesOf, idsOf, run, TestWalk } from './harness.js';
import { at, graphOf, model, randomModel, reachableEdges, ring, type EdgeSpec } from './models.js';

/** v0 with `n` spokes out and back: every return to v0 should take a new spoke. */
function star(n: number) {
  const spokes = Array.from({ length: n }, (_, i) => `s${i}`);
  return graphOf(model(['v0', ...spokes], spokes.flatMap((s): EdgeSpec[] => [[`to_${s}`, 'v0', s], [`from_${s}`, s, 'v0']])));
}

function coverageRatio(graph: ReturnType<typeof star>, seed: number): number {
  const edges = reachableEdges(graph).length;
  const result = run(quickRandomGenerator, graph, { seed, until: coveredEdges(edges), maxSteps: 40 * edges });
  expect(result.walk.visitedEdges(0)).toBe(edges);
  return (result.walk.steps - 1) / (2 * edges);
}

describe('quick_random', () => {
  it('takes an unvisited open edge whenever there is one', () => {
    expect(coverageRatio(star(6), 1)).toBe(1);
  });

  describe('otherwise walks a shortest way to the nearest unvisited edge', () => {
    // A corridor a ⇄ b ⇄ c ⇄ d with a loop at a and a way round d → e → a.
    const corridor = graphOf(
      model(['a', 'b', 'c', 'd', 'e'], [
        ['ab', 'a', 'b'], ['ba', 'b', 'a'], ['bc', 'b', 'c'], ['cb', 'c', 'b'], ['cd', 'c', 'd'],
        ['dc', 'd', 'c'], ['aa', 'a', 'a'], ['de', 'd', 'e'], ['ea', 'e', 'a'],
      ]),
    );
    const edgesWalked = (seed: number) => idsOf(corridor, edgesOf(corridor, run(quickRandomGenerator, corridor, { seed, until: coveredEdges(9) }).path));

    it('walks these exact paths for seeds 1 and 4', () => {
      // Seed 1: aa and ab open unvisited at a, the seed takes aa, then ab; ba of ba/bc; back at a nothing is
      // new, and the nearest new edge is bc, two edges away: ab, bc; cb of cb/cd; at b the nearest new edge is
      // cd: bc, cd; de of dc/de; ea; at a the last new edge, dc, lies four edges away: ab, bc, cd, dc.
      expect(edgesWalked(1)).toEqual(['aa', 'ab', 'ba', 'ab', 'bc', 'cb', 'bc', 'cd', 'de', 'ea', 'ab', 'bc', 'cd', 'dc']);
      // Seed 4: ab, ba, then aa (new, at a), ab and bc towards c; cb, bc again, cd; dc of dc/de; at c nothing is
      // new and de is two edges away: cd, de; ea.
      expect(edgesWalked(4)).toEqual(['ab', 'ba', 'aa', 'ab', 'bc', 'cb', 'bc', 'cd', 'dc', 'cd', 'de', 'ea']);
    });

    it('never stands on a vertex twice between two new edges, on any model: a shortest way repeats none', () => {
      const models = fc.record({ seed: fc.nat(10_000), n: fc.integer({ min: 2, max: 12 }), extra: fc.nat(25) });
      fc.assert(
        fc.property(models, ({ seed, n, extra }) => {
          const graph = graphOf(randomModel(seed, n, n + extra, true));
          const { path, walk } = run(quickRandomGenerator, graph, { seed, until: coveredEdges(graph.edgeCount) });
          expect(walk.visitedEdges(0)).toBe(graph.edgeCount);
          const seen = new Set<number>();
          const counted = new Set<number>();
          for (const element of path) {
            if (!graph.isVertex(element)) {
              if (!counted.has(element)) seen.clear();
              counted.add(element);
              continue;
            }
            expect(seen.has(element)).toBe(false);
            seen.add(element);
          }
        }),
        { numRuns: 100 },
      );
    });
  });

  it('covers small and medium random models in under 2.5 × the edges (steps / (2 × edges))', () => {
    expect(coverageRatio(ring(9), 1)).toBe(1);
    for (const [n, m] of [[5, 12], [20, 60], [200, 1000], [1000, 5000]]) {
      for (const seed of [1, 2, 3]) expect(coverageRatio(graphOf(randomModel(seed, n, m, true)), seed)).toBeLessThan(2.5);
    }
  });

  it('gives the same path for the same seed and another for another seed', () => {
    const graph = graphOf(randomModel(4, 30, 90, true));
    const first = run(quickRandomGenerator, graph, { seed: 5, maxSteps: 300 }).path;
    expect(run(quickRandomGenerator, graph, { seed: 5, maxSteps: 300 }).path).toEqual(first);
    expect(run(quickRandomGenerator, graph, { seed: 6, maxSteps: 300 }).path).not.toEqual(first);
  });

  it('goes round a guard that blocks its route, and takes the edge once it opens', () => {
    // From a, the short way to the unvisited edge cx is through b, whose guard opens late; d is the long way.
    const graph = graphOf(
      model(
        ['a', 'b', 'c', 'd', 'x'],
        [
          ['ab', 'a', 'b'],
          ['ba', 'b', 'a'],
          ['bc', 'b', 'c'],
          ['ad', 'a', 'd'],
          ['dc', 'd', 'c'],
          ['ca', 'c', 'a'],
          ['cx', 'c', 'x'],
          ['xa', 'x', 'a'],
        ],
      ),
    );
    const bc = at(graph, 'bc');
    const guard = (e: number, walk: TestWalk) => e !== bc || walk.steps > 60;
    const result = run(quickRandomGenerator, graph, { guard, until: coveredEdges(8), maxSteps: 2000 });
    expect(result.walk.visitedEdges(0)).toBe(8);
    expect(result.path.indexOf(bc)).toBeGreaterThan(60);
  });

  it('finds the way round a guard that never opens', () => {
    // Every route from a or b to cx runs through bc first in declaration order; bc never opens.
    const graph = graphOf(
      model(
        ['a', 'b', 'c', 'd', 'x'],
        [
          ['ab', 'a', 'b'],
          ['ba', 'b', 'a'],
          ['bc', 'b', 'c'],
          ['ad', 'a', 'd'],
          ['dc', 'd', 'c'],
          ['ca', 'c', 'a'],
          ['cx', 'c', 'x'],
          ['xa', 'x', 'a'],
        ],
      ),
    );
    const bc = at(graph, 'bc');
    for (let seed = 1; seed <= 20; seed++) {
      const result = run(quickRandomGenerator, graph, { seed, guard: (e) => e !== bc, until: coveredEdges(7), maxSteps: 60 });
      expect(result.walk.visitedEdges(0)).toBe(7);
    }
  });

  it('walks on randomly, without searching every step, once nothing unvisited is reachable', () => {
    // b is a trap: once there, the edges of a are out of reach.
    const graph = graphOf(model(['a', 'b'], [['ab', 'a', 'b'], ['aa', 'a', 'a'], ['bb', 'b', 'b'], ['bb2', 'b', 'b']]));
    const result = run(quickRandomGenerator, graph, { maxSteps: 5001 });
    expect(result.walk.steps).toBe(5001);
    expect(edgesOf(graph, result.path).length).toBe(2500);
  });

  it('answers -1 at a dead end', () => {
    const graph = graphOf(model(['a', 'b'], [['ab', 'a', 'b']]));
    expect(run(quickRandomGenerator, graph).deadEnd).toBe(true);
  });
});
