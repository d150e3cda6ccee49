import { describe, expect, it } from 'vitest';
import type { ScriptSandbox } from '../../../core/scripting.js';
import { evaluateGuards, guardOrigins, holds, origin, scriptErrorOf, type SandboxPool } from './contract-helpers.js';

const MiB = 1024 * 1024;
/** Time enough to fill 2 MiB in a debug build of an engine, so that the memory limit is what stops it. */
const SLOW_BUILD_TIMEOUT = 20_000;

/** Errors of scripts and limits; after each one the sandbox must go on working. */
export function describeFailures(pool: SandboxPool): void {
  /** The sandbox still runs actions and guards after a failure. */
  const expectUsable = (sandbox: ScriptSandbox): void => {
    sandbox.run(0, 'afterFailure = 41; afterFailure++;', origin());
    expect(evaluateGuards(sandbox, 0, ['afterFailure === 42', 'afterFailure === 0'])).toEqual([1, 0]);
  };

  describe('script errors', () => {
    it('reports a thrown error as Name: message with the origin of the action', () => {
      const sandbox = pool.open();
      const error = scriptErrorOf(() => sandbox.run(0, 'x = y + 1;', origin('e7')));
      expect(error.message).toBe('ReferenceError: y is not defined');
      expect(error.origin).toEqual(origin('e7'));
      expectUsable(sandbox);
    });

    it('reports errors and values a script throws', () => {
      const sandbox = pool.open();
      expect(scriptErrorOf(() => sandbox.run(0, 'throw new Error("boom");', origin())).message).toBe('Error: boom');
      expect(scriptErrorOf(() => sandbox.run(0, 'throw new TypeError("bad");', origin())).message).toBe('TypeError: bad');
      expect(scriptErrorOf(() => sandbox.run(0, 'throw "plain";', origin())).message).toBe('plain');
      expect(scriptErrorOf(() => sandbox.run(0, 'null.x;', origin())).message).toMatch(/^TypeError: /);
      expectUsable(sandbox);
    });

    it('reports syntax errors, also of scripts that would close a wrapper', () => {
      const sandbox = pool.open();
      for (const source of ['x = ;', 'x = 1 }', '} x = 1; {', 'return 1;']) {
        expect(scriptErrorOf(() => sandbox.run(0, source, origin())).message).toMatch(/^SyntaxError: /);
      }
      expectUsable(sandbox);
    });

    it('reports a throwing guard with the origin of that guard', () => {
      const sandbox = pool.open();
      const set = sandbox.prepareGuards(0, ['true', 'missing > 1', 'true'], guardOrigins(3));
      const error = scriptErrorOf(() => set.evaluate(new Uint8Array(3)));
      expect(error.message).toBe('ReferenceError: missing is not defined');
      expect(error.origin).toEqual(guardOrigins(3)[1]);
      sandbox.run(0, 'missing = 2;', origin());
      const out = new Uint8Array(3);
      set.evaluate(out);
      expect([...out]).toEqual([1, 1, 1]);
    });

    it('reports a guard with a syntax error when it is evaluated, with its origin', () => {
      const sandbox = pool.open();
      const set = sandbox.prepareGuards(0, ['true', 'x >', 'true'], guardOrigins(3));
      const error = scriptErrorOf(() => set.evaluate(new Uint8Array(3)));
      expect(error.message).toMatch(/^SyntaxError: /);
      expect(error.origin).toEqual(guardOrigins(3)[1]);
      expectUsable(sandbox);
    });

    it.each([
      ['1', 'Guard returned 1 (a number); a guard must evaluate to true or false'],
      ['"yes"', 'Guard returned "yes" (a string); a guard must evaluate to true or false'],
      ['undefined', 'Guard returned undefined (an undefined); a guard must evaluate to true or false'],
      ['({ a: 1 })', 'Guard returned {"a":1} (an object); a guard must evaluate to true or false'],
    ])('rejects the non-boolean guard value %s', (source, message) => {
      const sandbox = pool.open();
      const set = sandbox.prepareGuards(0, ['true', source], guardOrigins(2));
      const error = scriptErrorOf(() => set.evaluate(new Uint8Array(2)));
      expect(error.message).toBe(message);
      expect(error.origin).toEqual(guardOrigins(2)[1]);
      expectUsable(sandbox);
    });

    it('names the failing guard in sets of more than 31 guards', () => {
      const sandbox = pool.open();
      const sources = Array.from({ length: 40 }, (_, i) => (i === 35 ? '35' : 'true'));
      const error = scriptErrorOf(() => sandbox.prepareGuards(0, sources, guardOrigins(40)).evaluate(new Uint8Array(40)));
      expect(error.message).toMatch(/^Guard returned 35 \(a number\)/);
      expect(error.origin).toEqual(guardOrigins(40)[35]);
    });

    it('cuts long messages to 500 characters', () => {
      const sandbox = pool.open();
      const error = scriptErrorOf(() => sandbox.run(0, 'throw new Error("x".repeat(100000));', origin()));
      expect(error.message.length).toBeLessThanOrEqual(500);
      expect(error.message.startsWith('Error: xxxx')).toBe(true);
    });
  });

  describe('limits', () => {
    it('stops an endless action at the time limit', () => {
      const sandbox = pool.open({ limits: { timeoutMs: 50 } });
      for (const source of ['for (;;) {}', 'try { while (true) {} } catch (e) {}']) {
        const error = scriptErrorOf(() => sandbox.run(0, source, origin('loop')));
        expect(error.message).toBe('Script exceeded the time limit of 50 ms');
        expect(error.origin).toEqual(origin('loop'));
      }
      expectUsable(sandbox);
    });

    it('stops an endless guard at the time limit and evaluates the next guard', () => {
      const sandbox = pool.open({ limits: { timeoutMs: 50 } });
      const set = sandbox.prepareGuards(0, ['true', '(function () { for (;;) {} })()'], guardOrigins(2));
      const error = scriptErrorOf(() => set.evaluate(new Uint8Array(2)));
      expect(error.message).toBe('Script exceeded the time limit of 50 ms');
      expect(error.origin).toEqual(guardOrigins(2)[1]);
      expect(holds(sandbox, 0, '1 + 1 === 2')).toBe(true);
    });

    it('gives every evaluation the whole time limit', () => {
      const sandbox = pool.open({ limits: { timeoutMs: 200 } });
      sandbox.run(0, 'spin = function (ms) { var end = Date.now() + ms; while (Date.now() < end) {} return true; };', origin());
      for (let i = 0; i < 4; i++) expect(holds(sandbox, 0, 'spin(80)')).toBe(true);
    });

    it('stops an action at the memory limit and runs the next one', () => {
      const sandbox = pool.open({ limits: { memoryBytes: 2 * MiB, timeoutMs: SLOW_BUILD_TIMEOUT } });
      const grow = '(function () { var a = []; for (;;) a.push("item " + a.length); })();';
      const error = scriptErrorOf(() => sandbox.run(0, grow, origin('hog')));
      expect(error.message).toBe('Script exceeded the memory limit of 2 MiB');
      expect(error.origin).toEqual(origin('hog'));
      expectUsable(sandbox);
    });

    it('recovers when a variable that filled the memory is cleared', () => {
      const sandbox = pool.open({ limits: { memoryBytes: 2 * MiB, timeoutMs: SLOW_BUILD_TIMEOUT } });
      const error = scriptErrorOf(() => sandbox.run(0, 'big = []; for (;;) big.push("item " + big.length);', origin()));
      expect(error.message).toBe('Script exceeded the memory limit of 2 MiB');
      sandbox.run(0, 'big = null;', origin());
      expectUsable(sandbox);
    });

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
  });
}
