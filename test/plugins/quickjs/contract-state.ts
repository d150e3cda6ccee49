import { describe, expect, it } from 'vitest';
import type { ContractHooks } from './contract.js';
import { evaluateGuards, guardOrigins, holds, origin, scriptErrorOf, type SandboxPool } from './contract-helpers.js';

/** variables() (docs/api-execution.md), reset() and dispose(). */
export function describeState(pool: SandboxPool, hooks: ContractHooks): void {
  describe('variables', () => {
    it('lists variables in the order of their first assignment, formatted as B.4 says', () => {
      const sandbox = pool.open();
      sandbox.run(0, 'b = 2; a = "some text"; c = true; d = null; e = undefined;', origin());
      sandbox.run(0, 'f = [1, "x"]; g = { k: 1 }; h = 1.5; i = 1 / 0; j = -0; b = 3;', origin());
      expect(sandbox.variables(0)).toEqual([
        ['b', '3'],
        ['a', 'some text'],
        ['c', 'true'],
        ['d', 'null'],
        ['e', 'undefined'],
        ['f', '[1,"x"]'],
        ['g', '{"k":1}'],
        ['h', '1.5'],
        ['i', 'Infinity'],
        ['j', '0'],
      ]);
    });

    it('shows functions as their source and unserialisable objects as strings', () => {
      const sandbox = pool.open();
      sandbox.run(0, 'fn = function () { return 1; }; loop = {}; loop.self = loop; big = 10n;', origin());
      expect(sandbox.variables(0)).toEqual([
        ['fn', 'function () { return 1; }'],
        ['loop', '[object Object]'],
        ['big', '10'],
      ]);
    });

    it('lists the shared variables after the scope own, as global.<name>', () => {
      const sandbox = pool.open({ scopes: 2 });
      sandbox.run(1, 'global.shared = 1;', origin());
      sandbox.run(0, 'own = "a";', origin());
      expect(sandbox.variables(0)).toEqual([
        ['own', 'a'],
        ['global.shared', '1'],
      ]);
      expect(sandbox.variables(1)).toEqual([['global.shared', '1']]);
    });

    it('lists neither built-ins nor the Math.random binding, but declared variables', () => {
      const sandbox = pool.open();
      expect(sandbox.variables(0)).toEqual([]);
      sandbox.run(0, 'r = Math.random() < 1; var v = 1;', origin());
      expect(sandbox.variables(0)).toEqual([
        ['v', '1'],
        ['r', 'true'],
      ]);
    });
  });

  describe('reset', () => {
    it('forgets every variable of every scope', () => {
      const sandbox = pool.open({ scopes: 2 });
      sandbox.run(0, 'x = 1; global.y = 2;', origin());
      sandbox.run(1, 'z = 3;', origin());
      sandbox.reset();
      expect(sandbox.variables(0)).toEqual([]);
      expect(sandbox.variables(1)).toEqual([]);
      expect(evaluateGuards(sandbox, 0, ['typeof x === "undefined"', 'typeof global.y === "undefined"'])).toEqual([1, 1]);
    });

    it('keeps guard sets prepared before the reset working', () => {
      const sandbox = pool.open();
      sandbox.run(0, 'x = 5;', origin());
      const set = sandbox.prepareGuards(0, ['x === 5', 'typeof global.x === "undefined"'], guardOrigins(2));
      const out = new Uint8Array(2);
      set.evaluate(out);
      expect([...out]).toEqual([1, 1]);
      sandbox.reset();
      expect(scriptErrorOf(() => set.evaluate(out)).scriptMessage).toBe('ReferenceError: x is not defined');
      sandbox.run(0, 'x = 5;', origin());
      set.evaluate(out);
      expect([...out]).toEqual([1, 1]);
    });

    it('runs the same actions again after a reset', () => {
      const sandbox = pool.open();
      const init = 'n = 0;';
      const step = 'n++;';
      sandbox.run(0, init, origin());
      sandbox.run(0, step, origin());
      sandbox.reset();
      sandbox.run(0, init, origin());
      sandbox.run(0, step, origin());
      sandbox.run(0, step, origin());
      expect(holds(sandbox, 0, 'n === 2')).toBe(true);
    });
  });

  describe('dispose', () => {
    // Only a build with a leak checker can tell; the suites without one do not declare this test at all.
    const assertNoLeaks = hooks.assertNoLeaks;
    if (assertNoLeaks) it('frees everything, failures and resets included', () => {
      const sandbox = pool.open({ scopes: 3, limits: { timeoutMs: 50 } });
      sandbox.run(0, 'x = 1; f = function () { return x; };', origin());
      sandbox.run(0, 'global.g = [1, 2];', origin());
      sandbox.run(1, 'y = { a: 1 };', origin());
      evaluateGuards(sandbox, 0, ['x === 1', 'global.g.length === 2', 'f() === 1']);
      evaluateGuards(sandbox, 1, Array.from({ length: 40 }, (_, i) => `y.a === ${i}`));
      scriptErrorOf(() => sandbox.run(0, 'nope();', origin()));
      scriptErrorOf(() => sandbox.run(0, 'for (;;) {}', origin()));
      scriptErrorOf(() => evaluateGuards(sandbox, 1, ['true', '42']));
      sandbox.variables(0);
      sandbox.reset();
      sandbox.run(2, 'z = 1;', origin());
      sandbox.dispose();
      assertNoLeaks();
    });

    it('may be called twice', () => {
      const sandbox = pool.open();
      sandbox.run(0, 'x = 1;', origin());
      sandbox.dispose();
      expect(() => sandbox.dispose()).not.toThrow();
    });

    it('makes later use throw, guard sets prepared before included', () => {
      const sandbox = pool.open();
      const set = sandbox.prepareGuards(0, ['true'], guardOrigins(1));
      set.evaluate(new Uint8Array(1));
      sandbox.dispose();
      expect(() => set.evaluate(new Uint8Array(1))).toThrow();
      expect(() => sandbox.run(0, 'x = 1;', origin())).toThrow();
      expect(() => sandbox.variables(0)).toThrow();
    });
  });
}
