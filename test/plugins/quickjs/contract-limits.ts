import { describe, expect, it } from 'vitest';
import { ScriptError } from '../../../core/errors.js';
import type { ContractHooks } from './contract.js';
import { expectUsable, guardOrigins, holds, origin, scriptErrorOf, type SandboxPool } from './contract-helpers.js';

/** The smallest memory limit an engine must accept: QuickJS starts with 16 MiB. */
const LIMIT = 16 * 1024 * 1024;
/**
 * A limit at which QuickJS, stopped by it inside a promise job, lost track of objects, so that freeing the
 * runtime afterwards aborted the whole module (measured: at 32, 64 and 128 MiB, not at 16).
 */
const JOB_LIMIT = 32 * 1024 * 1024;
/** Time enough to fill the memory in a debug build of an engine, so that the memory limit is what stops it. */
const SLOW_BUILD_TIMEOUT = 20_000;
/** Fills the memory in 1 MiB strings, quick even in a debug build. */
const FILL = 'for (;;) hog.push("x".repeat(1 << 20) + hog.length);';
/** Busy for `ms` milliseconds of the host's clock (the limits count wall-clock time). */
const SPIN = 'spin = function (ms) { var end = Date.now() + ms; while (Date.now() < end) {} return true; };';

/** Time, memory and the request budget, for scripts and their promise jobs; after each, the sandbox goes on working. */
export function describeLimits(pool: SandboxPool, hooks: ContractHooks): void {
  describe('time limit', () => {
    it('stops an endless action at the time limit', () => {
      const sandbox = pool.open({ limits: { timeoutMs: 50 } });
      for (const source of ['for (;;) {}', 'try { while (true) {} } catch (e) {}']) {
        const error = scriptErrorOf(() => sandbox.run(0, source, origin('loop')));
        expect(error.scriptMessage).toBe('Script exceeded the time limit of 50 ms');
        expect(error.origin).toEqual(origin('loop'));
      }
      expectUsable(sandbox);
    });

    it('stops an endless guard at the time limit and evaluates the next guard', () => {
      const sandbox = pool.open({ limits: { timeoutMs: 50 } });
      const set = sandbox.prepareGuards(0, ['true', '(function () { for (;;) {} })()'], guardOrigins(2));
      const error = scriptErrorOf(() => set.evaluate(new Uint8Array(2)));
      expect(error.scriptMessage).toBe('Script exceeded the time limit of 50 ms');
      expect(error.origin).toEqual(guardOrigins(2)[1]);
      expect(holds(sandbox, 0, '1 + 1 === 2')).toBe(true);
    });

    it('gives every evaluation the whole time limit', () => {
      // Four of 300 ms pass a limit of 1 s only if each gets the whole of it; each leaves 700 ms for a machine
      // that keeps the thread off its cores (the real clock counts that time too): 200 and 80 ms left 120, and
      // a paired run of the suite took more.
      const sandbox = pool.open({ limits: { timeoutMs: 1000, realClock: true } });
      sandbox.run(0, SPIN, origin());
      for (let i = 0; i < 4; i++) expect(holds(sandbox, 0, 'spin(300)')).toBe(true);
    });

    it.each([
      ['a then callback', 'Promise.resolve().then(function () { for (;;) {} });'],
      ['an async function after its await', '(async function () { await null; for (;;) {} })();'],
      ['an endless chain of jobs', 'again = function () { Promise.resolve().then(again); }; again();'],
    ])('counts %s against the time limit of the script that queued it', (_what, source) => {
      const sandbox = pool.open({ limits: { timeoutMs: 50 } });
      const error = scriptErrorOf(() => sandbox.run(0, source, origin('async')));
      expect(error.scriptMessage).toBe('Script exceeded the time limit of 50 ms');
      expect(error.origin).toEqual(origin('async'));
      expectUsable(sandbox);
    });

    it('runs the promise jobs of a script before the next script', () => {
      const sandbox = pool.open();
      sandbox.run(0, 'order = []; (async function () { await null; order.push("after await"); })(); order.push("sync");', origin());
      sandbox.run(0, 'Promise.resolve().then(function () { order.push("then"); });', origin());
      expect(holds(sandbox, 0, 'order.join() === "sync,after await,then"')).toBe(true);
    });
  });

  describe('request budget', () => {
    it('stops a request whose scripts together pass the budget, each under the time limit', () => {
      // Scripts of 100 ms against a budget of 1 s in one request. A busy machine may stretch a script (it
      // runs longer when preempted, never shorter): at a tenth of the budget each, the two that must pass
      // first still fit unless the machine stalls for most of a second. A call is charged from its first
      // interrupt check on (runtime.ts), which comes within tens of milliseconds even in a debug build on a
      // busy machine, so 10 s of such scripts charge several times the budget: it must stop one. It counts
      // only time that passed, so not before a second went by.
      const sandbox = pool.open({ limits: { timeoutMs: 10_000, budgetMs: 1000, realClock: true } });
      sandbox.run(0, SPIN, origin());
      const started = Date.now();
      let stopped = -1;
      let error: unknown;
      for (let i = 0; stopped < 0 && Date.now() - started < 10_000; i++) {
        try {
          sandbox.run(0, 'spin(100);', origin(`script${i}`));
        } catch (thrown) {
          [stopped, error] = [i, thrown];
        }
      }
      const elapsed = Date.now() - started;
      expect(error).toBeInstanceOf(ScriptError);
      expect((error as ScriptError).scriptMessage).toBe('Scripts of one request exceeded the time budget of 1000 ms');
      expect((error as ScriptError).origin).toEqual(origin(`script${stopped}`));
      expect(stopped).toBeGreaterThanOrEqual(2);
      expect(elapsed).toBeGreaterThanOrEqual(1000);
    });

    it('gives the next request a budget of its own', async () => {
      // 750 ms in all, over the budget of 700 ms, but in five requests of 150 ms each. A call is charged up to
      // its return, so a machine that stalls the process as a spin ends adds the stall: 550 ms of room each
      // (400 ms was not enough for the debug build beside a second suite).
      const sandbox = pool.open({ limits: { timeoutMs: 2000, budgetMs: 700, realClock: true } });
      sandbox.run(0, SPIN, origin());
      for (let request = 0; request < 5; request++) {
        expect(() => sandbox.run(0, 'spin(150);', origin()), `request ${request}`).not.toThrow();
        await Promise.resolve();
      }
    });

    it('gives every step of a walk driven in one go a budget of its own, guards that chose it included', () => {
      // A step's guard and action spend 200 ms of a budget of 600 ms, room for a busy machine's stalls; the
      // four steps together spend 800 ms, which one budget for the whole loop would stop.
      const sandbox = pool.open({ limits: { timeoutMs: 1000, budgetMs: 600, realClock: true } });
      sandbox.run(0, SPIN, origin());
      for (let step = 0; step < 4; step++) {
        expect(holds(sandbox, 0, 'spin(100)')).toBe(true);
        sandbox.stepped?.();
        sandbox.run(0, 'spin(100);', origin());
      }
    });

    it('counts guards and promise jobs against the budget', () => {
      // A job of 200 ms stays within the budget of 600 ms unless the machine stalls it for 400 ms (a busy-wait
      // on the clock runs longer when preempted, never shorter); with the guard's 650 ms the request spends at
      // least 850 ms. Only the stretch of each call before its first poll goes uncharged, tens of milliseconds
      // in a debug build on a busy machine, so the guard is where the budget must stop it.
      const sandbox = pool.open({ limits: { timeoutMs: 2000, budgetMs: 600, realClock: true } });
      sandbox.run(0, SPIN, origin());
      sandbox.run(0, 'Promise.resolve().then(function () { spin(200); });', origin());
      const error = scriptErrorOf(() => holds(sandbox, 0, 'spin(650)'));
      expect(error.scriptMessage).toBe('Scripts of one request exceeded the time budget of 600 ms');
      expect(error.origin.field).toBe('guard');
    });
  });

  // A build whose allocator aborts when an allocation fails (a sanitizer build) cannot survive a memory limit;
  // the release builds run these.
  if (hooks.survivesMemoryLimit !== false) describeMemoryLimit(pool);

  it('turns runaway recursion and deep nesting into script errors', () => {
    const sandbox = pool.open();
    for (const source of [
      'f = function (n) { return f(n + 1) + 1; }; f(0);',
      'eval("[".repeat(100000) + "]".repeat(100000));',
      'JSON.parse("[".repeat(100000) + "]".repeat(100000));',
    ]) {
      scriptErrorOf(() => sandbox.run(0, source, origin()));
    }
    expectUsable(sandbox);
  });
}

function describeMemoryLimit(pool: SandboxPool): void {
  describe('memory limit', () => {
    const limits = { memoryBytes: LIMIT, timeoutMs: SLOW_BUILD_TIMEOUT };
    const message = 'Script exceeded the memory limit of 16 MiB';

    it('stops an action at the memory limit and runs the next one', () => {
      const sandbox = pool.open({ limits });
      const error = scriptErrorOf(() => sandbox.run(0, `(function () { var hog = []; ${FILL} })();`, origin('hog')));
      expect(error.scriptMessage).toBe(message);
      expect(error.origin).toEqual(origin('hog'));
      expectUsable(sandbox);
    });

    it('recovers when a variable that filled the memory is cleared', () => {
      const sandbox = pool.open({ limits });
      expect(scriptErrorOf(() => sandbox.run(0, `hog = []; ${FILL}`, origin())).scriptMessage).toBe(message);
      sandbox.run(0, 'hog = null;', origin());
      expectUsable(sandbox);
    });

    it('stops a script that catches the error', () => {
      const sandbox = pool.open({ limits });
      const source = `try { hog = []; ${FILL} } catch (e) { caught = true; }`;
      expect(scriptErrorOf(() => sandbox.run(0, source, origin())).scriptMessage).toBe(message);
      sandbox.run(0, 'hog = null;', origin());
      expectUsable(sandbox);
    });

    it.each([
      ['a then callback', `Promise.resolve().then(function () { hog = []; ${FILL} });`],
      ['an async function after its await', `(async function () { await null; hog = []; ${FILL} })();`],
      ['a then callback that catches the error', `Promise.resolve().then(function () { try { hog = []; ${FILL} } catch (e) {} });`],
    ])('stops %s at the memory limit, and the walk can be restarted, freed and followed by another', async (_what, source) => {
      // Reserved, as a host opens walks: each of the three walks has its memory, and its limit, to itself.
      const jobLimits = { memoryBytes: JOB_LIMIT, timeoutMs: SLOW_BUILD_TIMEOUT };
      const sandbox = pool.open({ limits: jobLimits, reservation: await pool.reserve() });
      const error = scriptErrorOf(() => sandbox.run(0, source, origin('job')));
      expect(error.scriptMessage).toBe('Script exceeded the memory limit of 32 MiB');
      expect(error.origin).toEqual(origin('job'));
      // Until a restart the sandbox may refuse further scripts (the engine may have had to give up its state).
      sandbox.reset(await pool.reserve());
      expectUsable(sandbox);
      sandbox.dispose();
      expectUsable(pool.open({ limits: jobLimits, reservation: await pool.reserve() }));
    });

    it('stops a guard at the memory limit, naming that guard', () => {
      const sandbox = pool.open({ limits });
      const set = sandbox.prepareGuards(0, ['true', `(function () { var hog = []; ${FILL} })()`], guardOrigins(2));
      const error = scriptErrorOf(() => set.evaluate(new Uint8Array(2)));
      expect(error.scriptMessage).toBe(message);
      expect(error.origin).toEqual(guardOrigins(2)[1]);
      expectUsable(sandbox);
    });
  });
}
