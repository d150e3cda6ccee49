import fc from 'fast-check';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { loadModelFile } from '../../../core/model/load.js';
import type { ModelFileJson } from '../../../core/model/types.js';
import { Walker } from '../../../core/walker.js';
import { builtinPlugins } from '../../../plugins/index.js';
import { CLINIC_MODELS, clinicFile } from '../../support/clinic-project.js';
import { projectCoverageOptimum, type OracleModel } from '../../support/guard-oracle.js';
import { coversWithClientData, walkCapped } from '../../support/guarded-walks.js';

/**
 * Planning across models linked by shared states (docs/planning.md, "Across models"): the states follow jumps,
 * carrying every model's variables and the shared `global.` ones, so that a walk of several models is planned
 * as one walk. The planners are held to the oracle's optimum on the PetClinic-shaped project of
 * test/support/clinic-project.ts, whose vets' counter has no bound (so the walk also plans on the fly), and
 * on generated projects to never walking longer than planning by the graph alone.
 */

let walker: Walker;
beforeAll(async () => {
  walker = await Walker.create(builtinPlugins());
});
afterAll(() => walker.dispose());

const SEEDS = [1, 2, 3, 4, 5];
const COVER = 'edge_coverage(100)';

describe('the clinic project, four models linked by shared states', () => {
  let optimum = 0;
  beforeAll(() => {
    optimum = projectCoverageOptimum(CLINIC_MODELS) as number;
  }, 240_000);

  it('shortest_all_paths walks within 1.05 times the optimum on every seed, quick_random within 2 times', () => {
    expect(optimum).toBeGreaterThan(0);
    const loaded = loadModelFile(clinicFile());
    for (const seed of SEEDS) {
      const tour = walkCapped(walker, loaded, `shortest_all_paths(${COVER})`, seed, 50 * optimum);
      const quick = walkCapped(walker, loaded, `quick_random(${COVER})`, seed, 50 * optimum);
      expect({ seed, tour: tour.ended && tour.steps <= 1.05 * optimum, quick: quick.ended && quick.steps <= 2 * optimum }).toEqual({
        seed,
        tour: true,
        quick: true,
      });
    }
  }, 240_000);

  it('every generator ends on every seed, and the planned walks are no longer than by the graph alone', () => {
    const loaded = loadModelFile(clinicFile());
    const cap = 100 * optimum;
    for (const generator of ['random', 'weighted_random', 'quick_random', 'shortest_all_paths']) {
      for (const seed of SEEDS) {
        const planned = walkCapped(walker, loaded, `${generator}(${COVER})`, seed, cap);
        expect({ generator, seed, ended: planned.ended, failure: planned.failure }).toEqual({ generator, seed, ended: true, failure: undefined });
        if (generator === 'quick_random' || generator === 'shortest_all_paths') {
          const graphAlone = walkCapped(walker, loaded, `${generator}(${COVER})`, seed, cap, { planStates: 0 });
          expect(planned.steps, `${generator} seed ${seed}`).toBeLessThanOrEqual(graphAlone.ended ? graphAlone.steps : cap);
        }
      }
    }
  }, 240_000);

  it('a_star heads through the models for a shared state and an edge of the last model, and ends on every seed', () => {
    const toShared = 'a_star(reached_shared_state(OwnerInformation))';
    // Each model has its own generator: the visits' model heads for its discharge, the others for the owner's page.
    const generators = [toShared, toShared, toShared, 'a_star(reached_edge(e_Discharge))'];
    const loaded = loadModelFile(clinicFile());
    for (const seed of SEEDS) {
      const machine = walker.walk(loaded, { generators, seed });
      try {
        const path: string[] = [];
        while (path.length < 1000 && machine.hasNext()) path.push(machine.next().id);
        expect({ seed, ended: !machine.hasNext(), last: path.at(-1), through: path.includes('v_OwnerList') }).toEqual({
          seed,
          ended: true,
          last: 'e_Discharge',
          through: true,
        });
      } finally {
        machine.dispose();
      }
    }
  });

  it('explores across the jumps: the load sees the edges of the models entered through shared states', () => {
    const machine = walker.walk(loadModelFile(clinicFile()), { generator: `shortest_all_paths(${COVER})`, seed: 1, planStates: 60 });
    try {
      machine.next();
      // The vets' counter has no bound: the exploration stops, and the walk plans on the fly across models.
      expect(machine.planningCut()).toMatch(/^(states|growth)$/);
      let steps = 1;
      while (machine.hasNext()) {
        machine.next();
        steps++;
      }
      expect({ coverage: machine.statistics().edgeCoverage, decisions: (machine.planningFigures()?.decisions ?? 0) > 0 }).toEqual({ coverage: 100, decisions: true });
      // Decisions of 60 states see less far ahead than the default bounds: held to twice the optimum.
      expect(steps).toBeLessThanOrEqual(2 * optimum);
    } finally {
      machine.dispose();
    }
  });
});

describe('what the load judges across models', () => {
  /**
   * The clinic with every counter capped at 3, so that its states are finite and a load explores them all,
   * and the vets' specialty filter never shown: its guard asks for fewer views than the walk starts with.
   */
  const neverShown = () => {
    const file = clinicFile() as unknown as { models: Array<{ edges: Array<{ id: string; guard?: string; actions?: string[] }> }> };
    for (const m of file.models) {
      m.edges = m.edges.map((e) => ({
        ...e,
        ...(e.id === 'e_Specialty' ? { guard: 'global.views < 0' } : {}),
        actions: (e.actions ?? []).map((a) => a.replace(/^global\.(\w+)\+\+;$/, 'global.$1 = Math.min(global.$1 + 1, 3);')),
      }));
    }
    return loadModelFile(file as unknown as ModelFileJson);
  };

  it('refuses full coverage offline, naming the edge of the model entered through a shared state and its guard', () => {
    const loaded = neverShown();
    expect(() => walker.walk(loaded, { generator: `shortest_all_paths(${COVER})`, seed: 1, planStates: 100_000 }).dispose()).toThrow(
      /Model 'Vets'.*Closed by guards: e_Specialty \(guard "global\.views < 0"/,
    );
  });

  it('serves it with a warning where a client may set data, and names the edge among the closed ones', () => {
    const machine = walker.walk(neverShown(), { generator: 'random(never)', seed: 1, dataWriters: 'client' });
    try {
      expect(machine.closedEdges().map(({ words }) => words.split(' ')[0])).toContain('e_Specialty');
    } finally {
      machine.dispose();
    }
  });

  /**
   * Two models each with a start element of its own and no shared state: the walk enters B at its start once A
   * is done. B counts `n` up on a self-loop; its gate opens at 5 and a shortcut at remainders of 2. When
   * `closed`, the self-loop sets `n` to 0 instead, so neither ever opens.
   */
  const startedTwice = (generator: string, closed: boolean) =>
    loadModelFile({
      models: [
        {
          id: 'a',
          name: 'A',
          generator,
          startElementId: 'a0',
          vertices: [{ id: 'a0', name: 'v_A0' }, { id: 'a1', name: 'v_A1' }],
          edges: [
            { id: 'a01', name: 'e_a', sourceVertexId: 'a0', targetVertexId: 'a1' },
            { id: 'a10', name: 'e_b', sourceVertexId: 'a1', targetVertexId: 'a0' },
          ],
        },
        {
          id: 'b',
          name: 'B',
          generator,
          startElementId: 'b0',
          actions: ['n = 0;'],
          vertices: [{ id: 'b0', name: 'v_B0' }, { id: 'b1', name: 'v_B1' }, { id: 'b2', name: 'v_B2' }],
          edges: [
            { id: 'b_inc', name: 'e_inc', sourceVertexId: 'b0', targetVertexId: 'b0', actions: [closed ? 'n = 0;' : 'n++;'] },
            { id: 'b_go', name: 'e_go', sourceVertexId: 'b0', targetVertexId: 'b1' },
            { id: 'b_back', name: 'e_back', sourceVertexId: 'b1', targetVertexId: 'b0' },
            { id: 'b_gate', name: 'e_gate', sourceVertexId: 'b1', targetVertexId: 'b2', guard: 'n >= 5' },
            { id: 'b_reset', name: 'e_reset', sourceVertexId: 'b2', targetVertexId: 'b0', actions: ['n = 0;'] },
            { id: 'b_odd', name: 'e_odd', sourceVertexId: 'b0', targetVertexId: 'b2', guard: 'n % 3 == 2' },
          ],
        },
      ],
    } as ModelFileJson);
  const GENERATORS = [`random(${COVER})`, `quick_random(${COVER})`, `shortest_all_paths(${COVER})`];

  it("refuses offline a goal that guards close in a later model entered at its own start element, which every generator walked for ever", () => {
    for (const generator of GENERATORS) {
      expect(() => walker.walk(startedTwice(generator, true), { seed: 1 }).dispose()).toThrow(
        /^Model 'B', generator '.*': edge_coverage\(100\) can never be fulfilled: .*Closed by guards: b_gate \(guard "n >= 5"; at v_B1 the variables are only n=0\)/,
      );
    }
    const online = walker.walk(startedTwice(`random(${COVER})`, true), { seed: 1, dataWriters: 'client' });
    try {
      expect(online.guardedGoals().map(({ model }) => model)).toEqual([1]);
      expect(online.closedEdges().map(({ edge }) => online.graph.ids[edge])).toEqual(['b_gate', 'b_reset', 'b_odd']);
    } finally {
      online.dispose();
    }
  });

  it('plans such a model from its start by its states: shortest_all_paths walks B in the fewest steps, and every generator ends', () => {
    for (const seed of SEEDS) {
      for (const generator of GENERATORS) {
        const walk = walkCapped(walker, startedTwice(generator, false), generator, seed, 5_000);
        expect({ seed, generator, ended: walk.ended }).toEqual({ seed, generator, ended: true });
        // A: its start vertex and its two edges, each with its target (5 elements). B: its start vertex and the
        // fewest edges that cover it, 13 (inc twice, odd, reset, inc five times, go, back, go, gate, or the
        // same in another order), each with its target (27).
        if (generator.startsWith('shortest')) expect({ seed, steps: walk.steps }).toEqual({ seed, steps: 5 + 27 });
      }
    }
  });
});

/**
 * A generated project: a hub model with the start, and two or three spokes, each linked to the hub by one
 * shared state where the walk goes in and one where it comes back. A shared counter `g`, capped at 4 so that
 * the states are few, is counted up and reset by actions and read by guards in every model.
 */
interface Project {
  readonly spokes: ReadonlyArray<{ readonly guard: number; readonly k: number; readonly action: number; readonly back: number }>;
  readonly hub: ReadonlyArray<{ readonly guard: number; readonly k: number; readonly action: number }>;
}

const ACTIONS = ['', 'global.g = Math.min(global.g + 1, 4);', 'global.g = 0;'];
const guardOf = (kind: number, k: number) => ['', `global.g >= ${1 + (k % 4)}`, `global.g % 2 == ${k % 2}`, `global.g < ${1 + (k % 3)}`][kind];
const action = (a: number) => (ACTIONS[a] === '' ? [] : [ACTIONS[a]]);
const guard = (kind: number, k: number) => (guardOf(kind, k) === '' ? {} : { guard: guardOf(kind, k) });

const project: fc.Arbitrary<Project> = fc.record({
  spokes: fc.array(
    fc.record({ guard: fc.integer({ min: 0, max: 3 }), k: fc.integer({ min: 0, max: 100 }), action: fc.integer({ min: 0, max: 2 }), back: fc.integer({ min: 0, max: 2 }) }),
    { minLength: 2, maxLength: 3 },
  ),
  hub: fc.array(fc.record({ guard: fc.integer({ min: 0, max: 3 }), k: fc.integer({ min: 0, max: 100 }), action: fc.integer({ min: 0, max: 2 }) }), { minLength: 1, maxLength: 2 }),
});

function modelsOf(p: Project): OracleModel[] {
  const hub = {
    id: 'hub',
    name: 'hub',
    startElementId: 'h0',
    actions: ['global.g = 0;'],
    vertices: [
      { id: 'h0', name: 'h0' },
      ...p.spokes.flatMap((_, i) => [
        { id: `out${i}`, name: `out${i}`, sharedState: `OUT${i}` },
        { id: `in${i}`, name: `in${i}`, sharedState: `IN${i}` },
      ]),
    ] as unknown as OracleModel['vertices'],
    edges: [
      ...p.spokes.flatMap((_, i) => [
        { id: `h_go${i}`, name: `h_go${i}`, sourceVertexId: 'h0', targetVertexId: `out${i}` },
        { id: `h_back${i}`, name: `h_back${i}`, sourceVertexId: `in${i}`, targetVertexId: 'h0' },
      ]),
      ...p.hub.map((e, i) => ({ id: `h_x${i}`, name: `h_x${i}`, sourceVertexId: 'h0', targetVertexId: 'h0', ...guard(e.guard, e.k), actions: action(e.action) })),
    ],
  } as unknown as OracleModel;
  const spokes = p.spokes.map((s, i) => ({
    id: `spoke${i}`,
    name: `spoke${i}`,
    actions: [],
    vertices: [
      { id: `s${i}_in`, name: `s${i}_in`, sharedState: `OUT${i}` },
      { id: `s${i}_a`, name: `s${i}_a` },
      { id: `s${i}_out`, name: `s${i}_out`, sharedState: `IN${i}` },
    ] as unknown as OracleModel['vertices'],
    edges: [
      { id: `s${i}_go`, name: `s${i}_go`, sourceVertexId: `s${i}_in`, targetVertexId: `s${i}_a`, actions: action(s.action) },
      { id: `s${i}_x`, name: `s${i}_x`, sourceVertexId: `s${i}_a`, targetVertexId: `s${i}_a`, ...guard(s.guard, s.k), actions: action((s.action + 1) % 3) },
      { id: `s${i}_back`, name: `s${i}_back`, sourceVertexId: `s${i}_a`, targetVertexId: `s${i}_out`, actions: action(s.back) },
    ],
  }) as unknown as OracleModel);
  return [hub, ...spokes];
}

const fileOf = (models: readonly OracleModel[], generator: string): ModelFileJson =>
  ({ models: models.map((m) => ({ ...m, generator })) }) as unknown as ModelFileJson;

describe('generated projects of models linked by shared states', () => {
  it('shortest_all_paths walks within 1.05 times the optimum and never longer than by the graph alone; quick_random within 2 times', () => {
    // A project whose guards forbid full coverage is refused at load (the other property below holds that
    // refusal to what walks do); the planners are measured on the others.
    const solvable = project
      .map(modelsOf)
      .map((models) => ({ models, optimum: projectCoverageOptimum(models, 'generated', 200_000) }))
      .filter((p): p is { models: OracleModel[]; optimum: number } => p.optimum !== undefined);
    let comparedToGraph = 0;
    fc.assert(
      fc.property(solvable, fc.integer({ min: 1, max: 1000 }), ({ models, optimum }, seed) => {
        const loaded = loadModelFile(fileOf(models, 'random(never)'));
        const cap = 60 * optimum;
        const tour = walkCapped(walker, loaded, `shortest_all_paths(${COVER})`, seed, cap);
        const graphAlone = walkCapped(walker, loaded, `shortest_all_paths(${COVER})`, seed, cap, { planStates: 0 });
        if (graphAlone.ended) {
          comparedToGraph++;
          expect(tour.steps).toBeLessThanOrEqual(graphAlone.steps);
        }
        // quick_random heads for the nearest edge left, and where the guards make the order matter for good it may
        // walk where an edge left can never open again (as it may in one model): held to ending whenever
        // planning by the graph alone ends, and to 2 times the optimum when it ends.
        const quick = walkCapped(walker, loaded, `quick_random(${COVER})`, seed, cap);
        const quickAlone = walkCapped(walker, loaded, `quick_random(${COVER})`, seed, cap, { planStates: 0 });
        const within = { tour: tour.ended && tour.steps <= 1.05 * optimum, quick: quick.ended ? quick.steps <= 2 * optimum : !quickAlone.ended };
        expect({ optimum, steps: [tour.steps, quick.steps, quickAlone.steps], ...within }).toEqual({
          optimum,
          steps: [tour.steps, quick.steps, quickAlone.steps],
          tour: true,
          quick: true,
        });
      }),
      { numRuns: 30, seed: 22 },
    );
    expect(comparedToGraph).toBeGreaterThan(10);
  }, 240_000);

  it('no goal is called impossible across models that a walk reaches: offline when random walks reach it, online when a client sets data', () => {
    expectSoundJudgments(project.map(modelsOf), 22);
  }, 240_000);

  it('nor when the spokes have start elements of their own, where the walk may also enter them once the models before are done', () => {
    const started = project.map((p) => modelsOf(p).map((m, i) => (i === 0 ? m : ({ ...m, startElementId: `s${i - 1}_in` } as OracleModel))));
    expectSoundJudgments(started, 23);
  }, 240_000);
});

/**
 * Over generated projects: a goal refused offline is one no random walk reached, and one that a client's data
 * lets a walk reach is served where a client may write. Enough of them are reached, and some refused offline,
 * for both halves to have been put to the test.
 */
function expectSoundJudgments(projects: fc.Arbitrary<OracleModel[]>, seedOfRuns: number): void {
  let reached = 0;
  let refusedOffline = 0;
  fc.assert(
    fc.property(projects, fc.integer({ min: 1, max: 1000 }), fc.array(fc.integer({ min: 0, max: 4 }), { minLength: 20, maxLength: 20 }), (models, seed, data) => {
      const loaded = loadModelFile(fileOf(models, 'random(never)'));
      const goal = { seed, generator: `random(${COVER})` };
      let refused = false;
      try {
        walker.walk(loaded, goal).dispose();
      } catch {
        refused = true;
        refusedOffline++;
      }
      // Random walks with only the model writing: one that covers every edge proves the goal possible offline.
      const alone = walker.walk(loaded, { seed, dataWriters: 'client' });
      try {
        for (let i = 0; i < 400 && alone.hasNext(); i++) alone.next();
      } catch {
        // A dead end: this walk proves nothing.
      } finally {
        const covered = alone.statistics().edgeCoverage === 100;
        alone.dispose();
        if (covered) expect({ seed, refused }).toEqual({ seed, refused: false });
      }
      // A client that sets the counter between steps, as a test step may.
      if (!coversWithClientData(walker, loaded, seed, 400, 6, (i) => `global.g = ${data[i % data.length]};`)) return;
      reached++;
      walker.walk(loaded, { ...goal, dataWriters: 'client' }).dispose();
    }),
    { numRuns: 40, seed: seedOfRuns },
  );
  expect(reached).toBeGreaterThan(10);
  expect(refusedOffline).toBeGreaterThan(0);
}
