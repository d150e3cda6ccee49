import { Worker } from 'node:worker_threads';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { loadModelFile } from '../../../core/model/load.js';
import { Walker } from '../../../core/walker.js';
import { builtinPlugins } from '../../../plugins/index.js';
import type { ModelFileJson } from '../../../core/model/types.js';
import { clinicFile } from '../../support/clinic-project.js';
import { jobRunner, counterFile, rateLimiter } from '../../support/counter-models.js';

/**
 * A seed fixes the whole path (docs/planning.md, "The bound"): planning on the fly bounds each decision by
 * states, never by the clock, so a walk of a counter without bound replays step for step on a machine that a
 * busy thread beside it slows down.
 */

let walker: Walker;
beforeAll(async () => {
  walker = await Walker.create(builtinPlugins());
});
afterAll(() => walker.dispose());

/**
 * The job runner with its job starting only after 400 ticks: the load explores 150 states, so the walk leaves
 * them and plans its way on by decisions of 150 states each, several per walk.
 */
const farRunner = {
  ...jobRunner,
  id: 'far_runner',
  edges: jobRunner.edges.map((e) => (e.id === 'e_Start' ? { ...e, guard: 'steps >= 400' } : e)),
};
const PLAN_STATES = 150;
/** Every planning generator, and `random`, which plans its live states. */
const GENERATORS = ['shortest_all_paths(edge_coverage(100))', 'quick_random(edge_coverage(100))', 'random(edge_coverage(100))'];

/** The walks replayed: two counter models, and the clinic's four models linked by shared states. */
const FILES: ReadonlyArray<{ readonly name: string; readonly file: ModelFileJson; readonly planStates: number }> = [
  { name: farRunner.id, file: counterFile(farRunner), planStates: PLAN_STATES },
  { name: rateLimiter.id, file: counterFile(rateLimiter), planStates: PLAN_STATES },
  // Decisions of 40 states: several per walk across the clinic's models.
  { name: 'clinic', file: clinicFile(), planStates: 40 },
];

function pathOf(
  { file, planStates }: (typeof FILES)[number],
  generator: string,
  seed: number,
): { path: string[]; decisions: number | undefined; ended: boolean } {
  const machine = walker.walk(loadModelFile(file), { generator, seed, planStates });
  try {
    const path: string[] = [];
    for (let i = 0; i < 6000 && machine.hasNext(); i++) path.push(machine.next().id);
    return { path, decisions: machine.planningFigures()?.decisions, ended: !machine.hasNext() };
  } finally {
    machine.dispose();
  }
}

/** A thread that keeps a core busy until it is ended. */
function busyThread(): Worker {
  return new Worker('for (;;) {}', { eval: true });
}

describe('a seeded walk planned on the fly', () => {
  it('replays the same path under CPU load as on a quiet machine', async () => {
    const quiet = new Map<string, ReturnType<typeof pathOf>>();
    for (const walked of FILES) {
      for (const generator of GENERATORS) for (const seed of [1, 2]) quiet.set(`${walked.name} ${generator} ${seed}`, pathOf(walked, generator, seed));
    }
    const busy = [busyThread(), busyThread()];
    try {
      await new Promise((resolve) => setTimeout(resolve, 50));
      for (const walked of FILES) {
        const name = walked.name;
        for (const generator of GENERATORS) {
          for (const seed of [1, 2]) {
            const key = `${name} ${generator} ${seed}`;
            const replay = pathOf(walked, generator, seed);
            const first = quiet.get(key)!;
            // The walk did explore on the fly, and ended: decisions made there are what a clock would change.
            if (name === farRunner.id || name === 'clinic') expect({ key, explored: first.decisions! > (name === 'clinic' ? 0 : 2), ended: first.ended }).toEqual({ key, explored: true, ended: true });
            expect(replay.path.length, key).toBeGreaterThan(0);
            expect({ key, path: replay.path }).toEqual({ key, path: first.path });
          }
        }
      }
    } finally {
      await Promise.all(busy.map((w) => w.terminate()));
    }
  }, 120_000);
});
