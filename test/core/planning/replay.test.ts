import { Worker } from 'node:worker_threads';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { loadModelFile } from '../../../core/model/load.js';
import { Walker } from '../../../core/walker.js';
import { builtinPlugins } from '../../../plugins/index.js';
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

function pathOf(model: typeof jobRunner, generator: string, seed: number): { path: string[]; decisions: number | undefined; ended: boolean } {
  const machine = walker.walk(loadModelFile(counterFile(model)), { generator, seed, planStates: PLAN_STATES });
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
    for (const model of [farRunner, rateLimiter]) {
      for (const generator of GENERATORS) for (const seed of [1, 2]) quiet.set(`${model.id} ${generator} ${seed}`, pathOf(model, generator, seed));
    }
    const busy = [busyThread(), busyThread()];
    try {
      await new Promise((resolve) => setTimeout(resolve, 50));
      for (const model of [farRunner, rateLimiter]) {
        for (const generator of GENERATORS) {
          for (const seed of [1, 2]) {
            const key = `${model.id} ${generator} ${seed}`;
            const replay = pathOf(model, generator, seed);
            const first = quiet.get(key)!;
            // The walk did explore on the fly: decisions made there are what a clock would change.
            // The walk did explore on the fly: decisions made there are what a clock would change.
            // The walk did explore on the fly, and ended: decisions made there are what a clock would change.
            if (model === farRunner) expect({ key, explored: first.decisions! > 2, ended: first.ended }).toEqual({ key, explored: true, ended: true });
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
