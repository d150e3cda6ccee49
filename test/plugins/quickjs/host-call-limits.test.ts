import { Worker } from 'node:worker_threads';
import { setImmediate as turn } from 'node:timers/promises';
import { describe, expect, it } from 'vitest';
import type { ScriptOrigin } from '../../../core/errors.js';
import { createRandom, type RandomSource } from '../../../core/random.js';
import { DEFAULT_SCRIPT_LIMITS } from '../../../core/scripting.js';
import { createQuickJsEngine } from '../../../plugins/quickjs/index.js';
import { HOST_CALLS_PER_READING } from '../../../plugins/quickjs/runtime.js';
import { scriptErrorOf } from './contract-helpers.js';

/** The script of issue 20, sent as setData to one walk three times in a row. */
const ALLOCATING = 'var a = []; while (true) { a.push(Math.random()); }';
const LIMIT_MS = 100;
const SET_DATA: ScriptOrigin = { modelId: 'm', field: 'setData' };

/** The walk's random source, noting the host's clock at each draw (read after the sandbox's own reading). */
function timedRandom(): { source: RandomSource; times: number[] } {
  const inner = createRandom(7);
  const times: number[] = [];
  const source: RandomSource = {
    seed: inner.seed,
    next: () => {
      times.push(Date.now());
      return inner.next();
    },
    int: (bound) => inner.int(bound),
  };
  return { source, times };
}

/** Threads that keep the machine's cores busy until terminated. */
function spinning(count: number): Worker[] {
  return Array.from({ length: count }, () => new Worker('for (;;) {}', { eval: true }));
}

describe.each([
  ['a quiet machine', 0],
  ['a machine whose two cores two spinning threads keep busy', 2],
])('a script that calls the host in its loop, on %s', (_machine, spinners) => {
  it('is stopped within a few host calls of its time limit, every time', async () => {
    // What the sandbox controls is how much a script still runs once its limit passed; how long that takes
    // by the wall clock is up to the machine. So the test counts the draws after the deadline rather than
    // milliseconds. The call's clock starts by the 16th host call at the latest, so its deadline is at most
    // LIMIT_MS after that draw; past it, at most one reading's worth of draws may follow. Before host calls
    // read the clock, the call's clock started at QuickJS's first poll and the stop came at a later one,
    // each up to 3,300 draws (30–60 ms) away.
    const threads = spinning(spinners);
    const engine = await createQuickJsEngine();
    const drawn = timedRandom();
    const limits = { ...DEFAULT_SCRIPT_LIMITS, timeoutMs: LIMIT_MS };
    const sandbox = engine.createSandbox({ scopes: 1, random: drawn.source, limits, onUnpredictable: () => {} });
    try {
      for (let run = 0; run < 3; run++) {
        drawn.times.length = 0;
        const error = scriptErrorOf(() => sandbox.run(0, ALLOCATING, SET_DATA));
        expect(error.scriptMessage).toBe(`Script exceeded the time limit of ${LIMIT_MS} ms`);
        expect(drawn.times.length).toBeGreaterThan(HOST_CALLS_PER_READING);
        const deadline = drawn.times[HOST_CALLS_PER_READING - 1] + LIMIT_MS;
        expect(drawn.times.filter((time) => time > deadline).length).toBeLessThanOrEqual(HOST_CALLS_PER_READING);
        // One request a turn of the event loop, as the service sends them: each has a budget of its own.
        await turn();
      }
    } finally {
      sandbox.dispose();
      await Promise.all(threads.map((thread) => thread.terminate()));
    }
  });
});
