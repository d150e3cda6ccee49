import { join } from 'node:path';
import { performance } from 'node:perf_hooks';
import { Walker } from '../core/walker.js';
import { loadModelFile, type LoadedModelFile } from '../core/model/load.js';
import type { ModelFileJson } from '../core/model/types.js';
import { builtinPlugins } from '../plugins/index.js';
import { planTour } from '../core/planning/tour-search.js';
import { createRandom } from '../core/random.js';
import {
  coverageOptimum,
  exploreModel,
  exploreModelFile,
  projectCoverageOptimum,
  stepsToReach,
  unboundedCoverageOptimum,
  type OracleModel,
} from '../test/support/guard-oracle.js';
import { CLINIC_MODELS, clinicFile } from '../test/support/clinic-project.js';
import { COUNTER_MODELS, counterFile } from '../test/support/counter-models.js';
import { GUARDED_MODELS, guardedModelsFolder, SEEDS, walkCapped } from '../test/support/guarded-walks.js';
import type { GuardedModel, WalkOutcome } from '../test/support/guarded-walks.js';
import { edgesOf, pickUpGrid, plainStatesOf } from '../test/support/planning-models.js';
import type { BenchRow, BenchSection } from './report.js';

const SECTION = 'planning';
/** A walk of a guarded model gives up past this many times its optimum (reported as "did not end"). */
const CAP_FACTOR = 50;
/** `random` may wander a long while before it ends: its cap is this many times the optimum. */
const RANDOM_CAP_FACTOR = 1_000;
/** The generated model: `processed` counts 0..LIMIT, `retries` 0..MAX_RETRIES, so (LIMIT + 1) x 10 states at v_Run. */
const LIMIT = 9_998;
const MAX_RETRIES = 9;

/**
 * Planning with guards (issue 13): for each guarded model of test/fixtures/models/guarded, its reachable states
 * and optimum by brute force (test/support/guard-oracle.ts), and the worst of 10 seeds per generator; then two
 * pick-up grids beyond the fixtures (one the oracle solves, one too large for it), a guard that reads chance,
 * and a generated model of 99,991 reachable states (within the default bound of 100,000), for the time to
 * plan and the pace of a planned walk.
 */
export const benchPlanning: BenchSection = async () => {
  const walker = await Walker.create(builtinPlugins());
  const rows: BenchRow[] = [];
  for (const model of GUARDED_MODELS) rows.push(...(await guardedModel(walker, model)));
  for (const grid of GRIDS) rows.push(...pickUpGridRows(walker, grid));
  rows.push(...(await chanceGuard(walker)));
  rows.push(...largeStateSpace(walker));
  for (const model of COUNTER_MODELS) rows.push(...counterModelRows(walker, model));
  rows.push(...clinicRows(walker));
  return rows;
};

/**
 * A model whose counter has no bound (issue 22, test/support/counter-models.ts): every exploration stops at a
 * bound, and the walk plans on the fly. Its optimum is the lazy oracle's; each generator's worst of 10 seeds at
 * the default bounds, against planning by the graph alone (`--plan-states 0`, what these models got before),
 * and the time from opening to the first move and of the slowest later decision.
 */
export function counterModelRows(walker: Walker, model: OracleModel & { id: string }): BenchRow[] {
  const subject = `counter model ${model.id} (endless states)`;
  return endlessStateRows(walker, subject, unboundedCoverageOptimum(model, subject) as number, loadModelFile(counterFile(model)));
}

/**
 * The clinic project (issue 22, test/support/clinic-project.ts): four models linked by shared states, guards
 * on shared `global.` variables, and a counter without bound, planned as one walk; held to the optimum of the
 * oracle for projects, like the counter models.
 */
export function clinicRows(walker: Walker): BenchRow[] {
  const subject = 'clinic project, 4 models linked by shared states (endless states)';
  const optimum = projectCoverageOptimum(CLINIC_MODELS, subject) as number;
  return endlessStateRows(walker, subject, optimum, loadModelFile(clinicFile()), ['weighted_random(edge_coverage(100))']);
}

/**
 * A walk whose states are endless, against its optimum: each generator's worst of 10 seeds at the default
 * bounds and by the graph alone, and the time of the first move and of the slowest later decision.
 */
function endlessStateRows(walker: Walker, subject: string, optimum: number, loaded: LoadedModelFile, more: readonly string[] = []): BenchRow[] {
  const rows: BenchRow[] = [{ section: SECTION, subject, metric: 'optimum steps to edge_coverage(100) (lazy oracle)', value: optimum }];
  const goals: Array<[string, number | undefined]> = [
    ['shortest_all_paths(edge_coverage(100))', 1.05],
    ['quick_random(edge_coverage(100))', 2],
    ['random(edge_coverage(100))', undefined],
    ...more.map((generator): [string, undefined] => [generator, undefined]),
  ];
  for (const [generator, factor] of goals) {
    rows.push(...worstOfSeeds(walker, loaded, subject, generator, optimum, factor));
    const graphAlone = SEEDS.map((seed) => walkCapped(walker, loaded, generator, seed, CAP_FACTOR * optimum, { planStates: 0 }));
    const worst = graphAlone.every((o) => o.ended) ? Math.max(...graphAlone.map((o) => o.steps)) : Infinity;
    rows.push({ section: SECTION, subject: `${subject}, ${generator}, by the graph alone (--plan-states 0)`, metric: 'steps, worst of 10 seeds', value: worst });
  }
  const timing = decisionTimes(walker, loaded, 'shortest_all_paths(edge_coverage(100))', CAP_FACTOR * optimum);
  rows.push(
    { section: SECTION, subject: `${subject}, shortest_all_paths`, metric: 'ms to open the walk (the load explores until its bound or endless growth)', value: timing.openMs },
    { section: SECTION, subject: `${subject}, shortest_all_paths`, metric: 'ms of the first move, after the open', value: timing.firstMs, target: '< 1000', met: timing.openMs + timing.firstMs < 1000 },
    { section: SECTION, subject: `${subject}, shortest_all_paths`, metric: 'ms of the slowest later decision', value: timing.slowestMs, target: '< 50', met: timing.slowestMs < 50 },
  );
  return rows;
}

/** One walk at the default bounds, seed 1: the open, the first move, and the slowest step after it. */
function decisionTimes(walker: Walker, loaded: LoadedModelFile, generator: string, cap: number): { openMs: number; firstMs: number; slowestMs: number } {
  const round = (ms: number) => Math.round(ms * 10) / 10;
  let at = performance.now();
  const machine = walker.walk(loaded, { generator, seed: 1 });
  try {
    const openMs = performance.now() - at;
    at = performance.now();
    for (let i = 0; i < 2 && machine.hasNext(); i++) machine.next();
    const firstMs = performance.now() - at;
    let slowestMs = 0;
    for (let steps = 2; steps < cap && machine.hasNext(); steps++) {
      at = performance.now();
      machine.next();
      slowestMs = Math.max(slowestMs, performance.now() - at);
    }
    return { openMs: round(openMs), firstMs: round(firstMs), slowestMs: round(slowestMs) };
  } finally {
    machine.dispose();
  }
}

/**
 * Pick-up grids (test/support/planning-models.ts): 55 x 55 positions and 7 pick-ups, 11 edges, which the
 * oracle solves; 52 x 52 and 21, 25 edges, which it cannot (2,704 states x 2^25 sets of edges), so its tour
 * is held to the lower bound the planner's search proves.
 */
const GRIDS: ReadonlyArray<{ side: number; picks: number; seed: number }> = [
  { side: 55, picks: 7, seed: 3 },
  { side: 52, picks: 21, seed: 5 },
];

function pickUpGridRows(walker: Walker, { side, picks, seed }: { side: number; picks: number; seed: number }): BenchRow[] {
  const model = pickUpGrid(side, picks, seed);
  const subject = `pick-up grid ${side} x ${side}, ${picks + 4} edges`;
  const space = plainStatesOf(model);
  const loaded = loadModelFile({ models: [model] } as ModelFileJson);
  const rows: BenchRow[] = [{ section: SECTION, subject, metric: 'states the planner explored', value: space.size }];
  // The oracle's table holds states x 2^edges pairs: 6 M for the smaller grid, 90 G for the larger.
  if (picks + 4 <= 16) {
    const optimum = coverageOptimum(exploreModel(model)).steps as number;
    rows.push({ section: SECTION, subject, metric: 'optimum steps to edge_coverage(100)', value: optimum });
    rows.push(...worstOfSeeds(walker, loaded, subject, 'shortest_all_paths(edge_coverage(100))', optimum, 1.05));
    rows.push(...worstOfSeeds(walker, loaded, subject, 'quick_random(edge_coverage(100))', optimum, 2));
    return rows;
  }
  const plan = planTour(space, 0, edgesOf(space), createRandom(1));
  // The bound counts the steps after the start vertex.
  const bound = 1 + plan.lowerBound;
  rows.push({ section: SECTION, subject, metric: 'lower bound on steps to edge_coverage(100), proved by the search', value: bound });
  for (const generator of ['shortest_all_paths(edge_coverage(100))', 'quick_random(edge_coverage(100))']) {
    const walked = worstOfSeeds(walker, loaded, subject, generator, bound, undefined, 'lower bound');
    rows.push(...walked, { section: SECTION, subject: `${subject}, ${generator}`, metric: 'worst steps / lower bound', value: walked[0].value / bound });
  }
  return rows;
}

/**
 * flaky.json: five builds, then a deploy whose guard opens when `Math.random() < 0.5`. The best walk takes 14
 * elements when the first draw opens it, and two more per draw that does not.
 */
async function chanceGuard(walker: Walker): Promise<BenchRow[]> {
  const loaded = await walker.read(join(guardedModelsFolder(), 'flaky.json'));
  return worstOfSeeds(walker, loaded, 'flaky.json (a guard that reads chance)', 'a_star(reached_edge(e_Flaky))', 14);
}

async function guardedModel(walker: Walker, model: GuardedModel): Promise<BenchRow[]> {
  const path = join(guardedModelsFolder(), model.file);
  const space = exploreModelFile(path);
  const optimum = coverageOptimum(space).steps as number;
  const loaded = await walker.read(path);
  const rows: BenchRow[] = [
    { section: SECTION, subject: model.file, metric: 'reachable states (brute force)', value: space.states.length },
    { section: SECTION, subject: model.file, metric: 'optimum steps to edge_coverage(100)', value: optimum },
    { section: SECTION, subject: model.file, metric: 'states the planner explored', value: plannerStates(walker, loaded) },
  ];
  const goals: Array<[string, number, number | undefined]> = [
    ['shortest_all_paths(edge_coverage(100))', optimum, 1.05],
    ['quick_random(edge_coverage(100))', optimum, 2],
    ['random(edge_coverage(100))', optimum, undefined],
    [`a_star(reached_vertex(${model.vertex}))`, stepsToReach(space, model.vertex) as number, undefined],
    [`a_star(reached_edge(${model.edge}))`, stepsToReach(space, model.edge) as number, undefined],
  ];
  for (const [generator, best, factor] of goals) rows.push(...worstOfSeeds(walker, loaded, model.file, generator, best, factor));
  return rows;
}

/** The states the walk's own planner finds, by the first move of a shortest_all_paths walk. */
function plannerStates(walker: Walker, loaded: LoadedModelFile): number {
  const machine = walker.walk(loaded, { seed: 1, generator: 'shortest_all_paths(edge_coverage(100))' });
  try {
    for (let i = 0; i < 2 && machine.hasNext(); i++) machine.next();
    return machine.plannedStates() ?? 0;
  } finally {
    machine.dispose();
  }
}

/**
 * The worst of the seeds' steps against the best possible (or, where that is not known, a lower bound on it,
 * `bestIs` saying which), and the mean time of one walk.
 */
function worstOfSeeds(
  walker: Walker,
  loaded: LoadedModelFile,
  file: string,
  generator: string,
  best: number,
  factor?: number,
  bestIs = 'best',
): BenchRow[] {
  const cap = (generator.startsWith('random') ? RANDOM_CAP_FACTOR : CAP_FACTOR) * best;
  const start = performance.now();
  const outcomes = SEEDS.map((seed) => walkCapped(walker, loaded, generator, seed, cap));
  const ms = Math.round(((performance.now() - start) / SEEDS.length) * 100) / 100;
  const stuck = SEEDS.filter((_, i) => !outcomes[i].ended);
  const worst = stuck.length > 0 ? Infinity : Math.max(...outcomes.map((o) => o.steps));
  const subject = `${file}, ${generator}${stuck.length > 0 ? `: ${notEnded(stuck, outcomes, cap)}` : ''}`;
  const target = factor === undefined ? `ends (${bestIs} ${best})` : `<= ${Math.floor(factor * best)} (${factor} x optimum)`;
  const met = factor === undefined ? stuck.length === 0 : worst <= factor * best;
  return [
    { section: SECTION, subject, metric: 'steps, worst of 10 seeds', value: worst, target, met },
    { section: SECTION, subject: `${file}, ${generator}`, metric: 'ms per walk, mean of 10 seeds', value: ms },
  ];
}

function notEnded(stuck: readonly number[], outcomes: readonly WalkOutcome[], cap: number): string {
  const failed = stuck.filter((seed) => outcomes[seed - 1].failure !== undefined);
  const capped = stuck.filter((seed) => outcomes[seed - 1].failure === undefined);
  const parts = [];
  if (capped.length > 0) parts.push(`did not end within ${cap.toLocaleString('en-US')} steps (seeds ${capped.join(', ')})`);
  if (failed.length > 0) parts.push(`failed (seeds ${failed.join(', ')}: ${outcomes[failed[0] - 1].failure})`);
  return parts.join('; ');
}

/**
 * Two guarded counters on one vertex: `processed` up to LIMIT, `retries` up to MAX_RETRIES, and e_Finish opens
 * only when both are full. 10,000 x 10 states at v_Run and one at v_Done. The best covering walk moves 10,014
 * times: LIMIT + MAX_RETRIES increments, one step down and back up on each counter (e_Undo and e_ForgiveRetry
 * must be walked once, and every step down is paid back by one more up), e_Finish and e_Restart; so 1 + 2 x
 * 10,014 = 20,029 elements.
 */
export function twoCounters(): ModelFileJson {
  const loop = (id: string, guard: string, action: string) => {
    return { id, name: id, sourceVertexId: 'v_Run', targetVertexId: 'v_Run', guard, actions: [action] };
  };
  return {
    name: 'Two counters',
    models: [
      {
        id: 'two_counters',
        name: 'TwoCounters',
        generator: 'shortest_all_paths(edge_coverage(100))',
        startElementId: 'v_Run',
        actions: ['processed = 0;', 'retries = 0;', `LIMIT = ${LIMIT};`, `MAX_RETRIES = ${MAX_RETRIES};`],
        vertices: [
          { id: 'v_Run', name: 'v_Run' },
          { id: 'v_Done', name: 'v_Done' },
        ],
        edges: [
          loop('e_Process', 'processed < LIMIT', 'processed++;'),
          loop('e_Undo', 'processed > 0', 'processed--;'),
          loop('e_Retry', 'retries < MAX_RETRIES', 'retries++;'),
          loop('e_ForgiveRetry', 'retries > 0', 'retries--;'),
          {
            id: 'e_Finish',
            name: 'e_Finish',
            sourceVertexId: 'v_Run',
            targetVertexId: 'v_Done',
            guard: 'processed == LIMIT && retries == MAX_RETRIES',
          },
          {
            id: 'e_Restart',
            name: 'e_Restart',
            sourceVertexId: 'v_Done',
            targetVertexId: 'v_Run',
            actions: ['processed = 0;', 'retries = 0;'],
          },
        ],
      },
    ],
  } as ModelFileJson;
}

/** The optimum argued at {@link twoCounters}. */
const TWO_COUNTERS_OPTIMUM = 1 + 2 * (LIMIT + MAX_RETRIES + 2 + 2 + 1 + 1);

/** The generated model: its states by brute force, and one timed `shortest_all_paths` walk of it. */
function largeStateSpace(walker: Walker): BenchRow[] {
  const file = twoCounters();
  const subject = `two counters (${LIMIT + 1} x ${MAX_RETRIES + 1} states + 1)`;
  const states = exploreModel(file.models[0] as OracleModel, 'two counters').states.length;
  const cap = CAP_FACTOR * TWO_COUNTERS_OPTIMUM;
  const walk = timedWalk(walker, loadModelFile(file), cap);
  const bound = 1.05 * TWO_COUNTERS_OPTIMUM;
  const walked = `${subject}${walk.ended ? '' : `: did not end within ${cap.toLocaleString('en-US')} steps`}, shortest_all_paths`;
  return [
    { section: SECTION, subject, metric: 'reachable states (brute force)', value: states },
    { section: SECTION, subject, metric: 'optimum steps to edge_coverage(100) (argued)', value: TWO_COUNTERS_OPTIMUM },
    {
      section: SECTION,
      subject: `${subject}, shortest_all_paths`,
      metric: 'ms from open to first move (plan made)',
      value: walk.planMs,
      target: '< 1000',
      met: walk.planMs < 1000,
    },
    {
      section: SECTION,
      subject: walked,
      metric: 'steps, seed 1',
      value: walk.ended ? walk.steps : Infinity,
      target: `<= ${Math.floor(bound)} (1.05 x optimum)`,
      met: walk.ended && walk.steps <= bound,
    },
    { section: SECTION, subject: `${subject}, shortest_all_paths`, metric: 'steps/s after the first move', value: walk.pace },
  ];
}

/**
 * Opens a walk with the model's own generator and walks it to its end or `cap`: the time from opening to the
 * first move (whether a planner plans at load or at its first move, the plan is made by then), and the pace of
 * the walk after it.
 */
function timedWalk(walker: Walker, loaded: LoadedModelFile, cap: number): { planMs: number; steps: number; ended: boolean; pace: number } {
  const start = performance.now();
  const machine = walker.walk(loaded, { seed: 1 });
  let steps = 0;
  try {
    for (; steps < 2 && machine.hasNext(); steps++) machine.next();
    const planMs = Math.round((performance.now() - start) * 10) / 10;
    const walkStart = performance.now();
    for (; steps < cap && machine.hasNext(); steps++) machine.next();
    const pace = Math.round(((steps - 2) / (performance.now() - walkStart)) * 1000);
    return { planMs, steps, ended: !machine.hasNext(), pace };
  } finally {
    machine.dispose();
  }
}
