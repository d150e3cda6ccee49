import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { ErrorCodes } from '../../../core/errors.js';
import { aStarGenerator } from '../../../plugins/generators/index.js';
import { createGenerator, edgesOf, idsOf, run, TestWalk } from './harness.js';
import { at, graphOf, model, randomModel } from './models.js';
import { distanceTo } from './reference.js';

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

  it('reaches a target vertex or edge along a shortest path', () => {
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
        expect(edgesOf(graph, result.path)).toHaveLength(distanceTo(graph, 0, target));
      }),
      { numRuns: 200 },
    );
  });

  it('breaks ties in declaration order', () => {
    const graph = graphOf(model(['s', 'a', 'b', 't'], [['sb', 's', 'b'], ['sa', 's', 'a'], ['bt', 'b', 't'], ['at', 'a', 't']]));
    const result = run(aStarGenerator, graph, { targets: [at(graph, 't')], until: (w) => w.current === at(graph, 't') });
    expect(idsOf(graph, result.path)).toEqual(['s', 'sb', 'b', 'bt', 't']);
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
