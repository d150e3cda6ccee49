import fc from 'fast-check';
import { beforeAll, describe, expect, it } from 'vitest';
import { Walker } from '../../../core/walker.js';
import { WalkerError } from '../../../core/errors.js';
import { loadModelFile } from '../../../core/model/load.js';
import { builtinPlugins } from '../../../plugins/index.js';

let walker: Walker;
beforeAll(async () => {
  walker = await Walker.create(builtinPlugins({ scriptLimits: { timeoutMs: 50 } }));
});

const GUARDS = [undefined, '', 'true', 'x > 0', 'x < 3', '1', 'y.z', 'global.g == 1', '(', 'Math.random() < 0.5'];
const ACTIONS = [[], ['x = 1;'], ['x++;'], ['global.g = 1;'], ['throw new Error("boom")'], ['x = (x || 0) + 1;', 'y = x;']];
const NAMES = [undefined, 'v_A', 'v_B', 'e_x', 'shared'];

/** A model file value, valid or not: ids may collide, references may dangle, scripts may fail. */
const modelFile = fc
  .record({
    vertices: fc.integer({ min: 0, max: 6 }),
    edges: fc.array(
      fc.record({
        source: fc.integer({ min: -1, max: 6 }),
        target: fc.integer({ min: 0, max: 7 }),
        guard: fc.constantFrom(...GUARDS),
        actions: fc.constantFrom(...ACTIONS),
        name: fc.constantFrom(...NAMES),
        weight: fc.option(fc.double({ min: -0.5, max: 1.5, noNaN: true })),
      }),
      { maxLength: 12 },
    ),
    start: fc.integer({ min: 0, max: 18 }),
    shared: fc.array(fc.constantFrom(undefined, 'S1', 'S2'), { minLength: 7, maxLength: 7 }),
    twoModels: fc.boolean(),
  })
  .map(({ vertices, edges, start, shared, twoModels }) => {
    const model = (id: string) => ({
      id,
      name: id,
      actions: ['x = 0;'],
      startElementId: start < vertices ? `n${start}` : `e${start - vertices}`,
      vertices: Array.from({ length: vertices }, (_, i) => ({ id: `n${i}`, name: NAMES[i % NAMES.length], sharedState: shared[i] })),
      edges: edges.map((e, i) => ({
        id: `e${i}`,
        name: e.name,
        sourceVertexId: e.source < 0 ? undefined : `n${e.source}`,
        targetVertexId: `n${e.target}`,
        guard: e.guard,
        actions: e.actions,
        weight: e.weight ?? undefined,
      })),
    });
    return { models: twoModels ? [model('a'), { ...model('b'), startElementId: undefined }] : [model('a')] };
  });

const CONDITIONS = ['edge_coverage(100)', 'vertex_coverage(50)', 'length(20)', 'never', 'reached_vertex(v_B)', 'reached_edge(e_x)',
  'reached_shared_state(S1)', 'time_duration(1)', 'requirement_coverage(100)', 'dependency_edge_coverage(50)', 'predefined_path', 'bogus(3)', 'length(x)'];
const GENERATORS = ['random', 'weighted_random', 'quick_random', 'a_star', 'shortest_all_paths', 'predefined_path', 'RandomPath', 'nope'];

/** A generator string from the language's own pieces, often valid, sometimes not. */
const generatorString = fc
  .array(
    fc.tuple(fc.constantFrom(...GENERATORS), fc.array(fc.constantFrom(...CONDITIONS), { minLength: 1, maxLength: 3 }), fc.constantFrom(' and ', ' or ', ' && ', ' || ')),
    { minLength: 1, maxLength: 2 },
  )
  .map((parts) => parts.map(([g, cs, op]) => `${g}(${cs.join(op)})`).join(' '));

describe('the machine on random models and generator strings', () => {
  it('never throws anything but a WalkerError, and every walk ends or is stopped', () => {
    let walked = 0;
    fc.assert(
      fc.property(modelFile, generatorString, fc.nat(), (file, generator, seed) => {
        let machine;
        try {
          machine = walker.walk(loadModelFile(file), { seed, generator });
          walked++;
          for (let i = 0; i < 300 && machine.hasNext(); i++) machine.next();
          machine.statistics();
          machine.data();
          machine.restart();
        } catch (error) {
          if (!(error instanceof WalkerError)) throw error;
          expect(error.message.length).toBeGreaterThan(0);
        } finally {
          machine?.dispose();
        }
      }),
      { numRuns: 300 },
    );
    // Most random strings and models are invalid; make sure a fair share still got walked.
    expect(walked).toBeGreaterThan(30);
  });
});
