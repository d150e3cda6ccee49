import { describe, expect, it } from 'vitest';
import type { RandomSource } from '../../../core/random.js';
import { evaluateGuards, guardOrigins, holds, origin, variableMap, type SandboxPool } from './contract-helpers.js';

/** Actions, guards, scopes, `global.`, Math.random, host access, guard batching. */
export function describeSemantics(pool: SandboxPool): void {
  describe('actions and guards', () => {
    it('runs actions and evaluates guards against their variables', () => {
      const sandbox = pool.open();
      sandbox.run(0, 'x = 1; loggedIn = true;', origin());
      sandbox.run(0, 'x++;', origin());
      expect(evaluateGuards(sandbox, 0, ['x == 2', 'x > 2', 'loggedIn', '!loggedIn && x == 2'])).toEqual([1, 0, 1, 0]);
    });

    it('treats empty and blank guards as open and empty actions as no-ops', () => {
      const sandbox = pool.open();
      sandbox.run(0, '', origin());
      sandbox.run(0, '  \n ', origin());
      expect(evaluateGuards(sandbox, 0, ['', '  ', 'false'])).toEqual([1, 1, 0]);
    });

    it('keeps declarations global, as a script would (var, function, let, const)', () => {
      const sandbox = pool.open();
      sandbox.run(0, 'var y = 1; function inc() { y++; } let z = 3; const w = 4;', origin());
      sandbox.run(0, 'inc();', origin());
      expect(evaluateGuards(sandbox, 0, ['y === 2', 'z === 3', 'w === 4'])).toEqual([1, 1, 1]);
    });

    it('supports functions assigned to variables, with locals of their own', () => {
      const sandbox = pool.open();
      sandbox.run(0, 'count = 0; bump = function (n) { var step = n || 1; count += step; return count; };', origin());
      sandbox.run(0, 'bump(); bump(2);', origin());
      expect(evaluateGuards(sandbox, 0, ['count === 3', 'typeof step === "undefined"', 'bump(0) === 4'])).toEqual([1, 1, 1]);
    });

    it('runs the same action source many times with the same effect', () => {
      const sandbox = pool.open();
      sandbox.run(0, 'n = 0;', origin());
      for (let i = 0; i < 100; i++) sandbox.run(0, 'n = n + 1;', origin());
      expect(holds(sandbox, 0, 'n === 100')).toBe(true);
    });

    it('accepts guards written as statements or with a trailing semicolon', () => {
      const sandbox = pool.open();
      sandbox.run(0, 'x = 5;', origin());
      expect(evaluateGuards(sandbox, 0, ['x > 1;', 'var t = x * 2; t === 10', '{ x === 5 }', 'if (x) true; else false'])).toEqual([1, 1, 1, 1]);
    });

    it('runs setData scripts in the scope like actions', () => {
      const sandbox = pool.open();
      sandbox.run(1, 'x = 123;', origin(undefined, 'setData', 'm1'));
      expect(holds(sandbox, 1, 'x === 123')).toBe(true);
    });
  });

  describe('scopes', () => {
    it('isolates the variables of each model scope', () => {
      const sandbox = pool.open({ scopes: 3 });
      sandbox.run(0, 'x = 1;', origin());
      sandbox.run(1, 'x = 2;', origin());
      expect(evaluateGuards(sandbox, 0, ['x === 1'])).toEqual([1]);
      expect(evaluateGuards(sandbox, 1, ['x === 2'])).toEqual([1]);
      expect(evaluateGuards(sandbox, 2, ['typeof x === "undefined"'])).toEqual([1]);
    });

    it('shares variables written through global. across scopes', () => {
      const sandbox = pool.open({ scopes: 2 });
      sandbox.run(0, 'global.x = 1;', origin());
      expect(holds(sandbox, 1, 'global.x > 0')).toBe(true);
      sandbox.run(1, 'global.x++;', origin());
      expect(holds(sandbox, 0, 'global.x === 2')).toBe(true);
      expect(holds(sandbox, 1, 'typeof x === "undefined"')).toBe(true);
    });

    it('runs a whole script that mentions global. in the shared scope', () => {
      const sandbox = pool.open({ scopes: 2 });
      sandbox.run(0, 'global.a = 1; b = 2;', origin());
      expect(holds(sandbox, 0, 'typeof b === "undefined"')).toBe(true);
      expect(holds(sandbox, 1, 'global.b === 2')).toBe(true);
    });

    it('evaluates mixed local and global guards in one set, in order', () => {
      const sandbox = pool.open({ scopes: 2 });
      sandbox.run(0, 'x = 1; global.y = 2;', origin());
      sandbox.run(0, 'x = 1;', origin());
      expect(evaluateGuards(sandbox, 0, ['x === 1', 'global.y === 2', 'global.y === 3', 'x === 2', ''])).toEqual([1, 1, 0, 0, 1]);
    });
  });

  describe('Math.random', () => {
    const draws = (seed: number): string[] => {
      const sandbox = pool.open({ seed });
      sandbox.run(0, 'a = Math.random(); b = Math.random();', origin());
      sandbox.run(1, 'c = Math.random();', origin());
      return [...Object.values(variableMap(sandbox, 0)), ...Object.values(variableMap(sandbox, 1))];
    };

    it('draws from the sandbox random source in every scope', () => {
      const values = [0.25, 0.5, 0.75];
      const random: RandomSource = { seed: 1, next: () => values.shift() ?? 0, int: () => 0 };
      const sandbox = pool.open({ random });
      expect(holds(sandbox, 0, 'Math.random() === 0.25')).toBe(true);
      expect(holds(sandbox, 1, 'Math.random() === 0.5')).toBe(true);
      expect(holds(sandbox, 0, 'global.Math.random() === 0.75')).toBe(true);
    });

    it('repeats for the same seed and differs for another', () => {
      expect(draws(7)).toEqual(draws(7));
      expect(draws(7)).not.toEqual(draws(8));
    });
  });

  describe('no host access', () => {
    it('offers only the ECMAScript built-ins', () => {
      const sandbox = pool.open();
      const names = ['process', 'require', 'module', 'fetch', 'setTimeout', 'setInterval', 'std', 'os', 'Deno', 'Bun'];
      expect(evaluateGuards(sandbox, 0, names.map((n) => `typeof ${n} === "undefined"`))).toEqual(names.map(() => 1));
      expect(holds(sandbox, 0, 'typeof JSON.parse === "function" && typeof Math.max === "function"')).toBe(true);
    });
  });

  describe('guard batching', () => {
    const sources = (count: number): string[] => Array.from({ length: count }, (_, i) => `k % ${i + 2} === 0`);
    const expected = (count: number, k: number): number[] => Array.from({ length: count }, (_, i) => (k % (i + 2) === 0 ? 1 : 0));

    it.each([31, 32, 40, 100])('evaluates %i guards in one set, repeatedly', (count) => {
      const sandbox = pool.open();
      const set = sandbox.prepareGuards(0, sources(count), guardOrigins(count));
      const out = new Uint8Array(count);
      for (const k of [12, 35, 720720]) {
        sandbox.run(0, `k = ${k};`, origin());
        set.evaluate(out);
        expect([...out]).toEqual(expected(count, k));
      }
    });

    it('overwrites whatever the output array held', () => {
      const sandbox = pool.open();
      const out = new Uint8Array(3).fill(7);
      sandbox.prepareGuards(0, ['true', 'false', 'true'], guardOrigins(3)).evaluate(out);
      expect([...out]).toEqual([1, 0, 1]);
    });
  });
}
