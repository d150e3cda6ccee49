import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { ErrorCodes } from '../../../core/errors.js';
import type { RandomSource } from '../../../core/random.js';
import { aStarGenerator } from '../../../plugins/generators/index.js';
import { createGenerator, idsOf, run, TestWalk } from './harness.js';
import { at, graphOf, model, randomModel } from './models.js';

const message =
  'a_star needs a stop condition that names a target, such as reached_vertex(v_Name), reached_edge(e_Name) ' +
  'or reached_shared_state(NAME)';

describe('a_star', () => {
  it('refuses a stop condition without targets', () => {
    const graph = graphOf(model(['a'], []));
    for (const targets of [undefined, []]) {
      expect(() => createGenerator(aStarGenerator, graph, { targets })).toThrow(message);
      expect(() => createGenerator(aStarGenerator, graph, { targets })).toThrow(
        expect.objectContaining({ code: ErrorCodes.GENERATOR_INVALID }),
      );
    }
  });

  it('reaches a target vertex or edge without standing on any vertex twice, on any model', () => {
    // A shortest way repeats no vertex; that holds whichever of several shortest ways the seed picks.
    const models = fc.record({
      seed: fc.nat(10_000),
      n: fc.integer({ min: 2, max: 15 }),
      extra: fc.nat(30),
      pick: fc.nat(1000),
      edgeTarget: fc.boolean(),
    });
    fc.assert(
      fc.property(models, ({ seed, n, extra, pick, edgeTarget }) => {
        const graph = graphOf(randomModel(seed, n, n + extra, true));
        const target = edgeTarget ? graph.vertexCount + (pick % graph.edgeCount) : 1 + (pick % (n - 1));
        const result = run(aStarGenerator, graph, { seed, targets: [target], until: (w) => w.current === target });
        expect(result.walk.current).toBe(target);
        const vertices = result.path.filter((e) => graph.isVertex(e));
        expect(new Set(vertices).size).toBe(vertices.length);
      }),
      { numRuns: 200 },
    );
  });

  it('takes the shorter of two ways when the longer one is declared first, whatever the seed', () => {
    // From s: the long way s → l1 → l2 → t, or the short way s → m → t declared after it.
    const graph = graphOf(
      model(['s', 'l1', 'l2', 'm', 't'], [['sl', 's', 'l1'], ['ll', 'l1', 'l2'], ['lt', 'l2', 't'], ['sm', 's', 'm'], ['mt', 'm', 't'], ['ts', 't', 's']]),
    );
    for (const seed of [1, 2, 3]) {
      const result = run(aStarGenerator, graph, { seed, targets: [at(graph, 't')], until: (w) => w.current === at(graph, 't') });
      expect(idsOf(graph, result.path)).toEqual(['s', 'sm', 'm', 'mt', 't']);
    }
  });

  describe('between equally short ways', () => {
    const graph = graphOf(model(['s', 'a', 'b', 't'], [['sb', 's', 'b'], ['sa', 's', 'a'], ['bt', 'b', 't'], ['at', 'a', 't']]));
    const t = at(graph, 't');
    /** A random source whose every `int(bound)` answers `pick(bound)`, counting the draws. */
    const fixed = (pick: (bound: number) => number) => {
      const draws: number[] = [];
      const random: RandomSource = { seed: 0, next: () => 0, int: (bound) => (draws.push(bound), pick(bound)) };
      return { random, draws };
    };
    const walkTo = (options: { seed?: number; random?: RandomSource }) =>
      idsOf(graph, run(aStarGenerator, graph, { ...options, targets: [t], until: (w) => w.current === t }).path);

    it('keeps the k-th of the equally short edges when the draw int(k) answers 0: the seed picks one uniformly', () => {
      // sb is the first shortest edge at s, sa the second: sa replaces sb exactly when int(2) is 0.
      const always = fixed(() => 0);
      expect(walkTo({ random: always.random })).toEqual(['s', 'sa', 'a', 'at', 't']);
      const never = fixed((bound) => bound - 1);
      expect(walkTo({ random: never.random })).toEqual(['s', 'sb', 'b', 'bt', 't']);
      // One draw, at s; at a and b a single shortest edge draws nothing.
      expect(always.draws).toEqual([2]);
      expect(never.draws).toEqual([2]);
    });

    it('walks the same way for the same seed, and another of the shortest ways for another seed', () => {
      expect(walkTo({ seed: 1 })).toEqual(['s', 'sb', 'b', 'bt', 't']);
      expect(walkTo({ seed: 2 })).toEqual(['s', 'sa', 'a', 'at', 't']);
    });
  });

  it('heads for the nearest target, then for the next-nearest one not reached yet', () => {
    const graph = graphOf(
      model(
        ['s', 'near', 'mid', 'far'],
        [['s_near', 's', 'near'], ['near_mid', 'near', 'mid'], ['mid_far', 'mid', 'far'], ['far_s', 'far', 's'], ['near_s', 'near', 's']],
      ),
    );
    const targets = [at(graph, 'far'), at(graph, 'near')];
    const result = run(aStarGenerator, graph, { targets, until: (w) => w.current === at(graph, 'far') });
    expect(idsOf(graph, result.path)).toEqual(['s', 's_near', 'near', 'near_mid', 'mid', 'mid_far', 'far']);
  });

  it('takes a random open edge when guards block every way to a target, and gets there once they open', () => {
    const graph = graphOf(
      model(['s', 'a', 't'], [['st', 's', 't'], ['sa', 's', 'a'], ['as', 'a', 's'], ['aa', 'a', 'a']]),
    );
    const st = at(graph, 'st');
    const guard = (e: number, walk: TestWalk) => e !== st || walk.steps > 40;
    const t = at(graph, 't');
    const result = run(aStarGenerator, graph, { guard, targets: [t], until: (w) => w.current === t, maxSteps: 1000 });
    expect(result.walk.current).toBe(t);
    expect(result.walk.steps).toBeGreaterThan(40);
  });

  it('walks on randomly once every target has been reached', () => {
    const graph = graphOf(randomModel(3, 10, 30, true));
    const result = run(aStarGenerator, graph, { targets: [0, 3], maxSteps: 500 });
    expect(result.walk.steps).toBe(500);
  });
});
