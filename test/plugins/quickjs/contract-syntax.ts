import { describe, expect, it } from 'vitest';
import { evaluateGuards, holds, origin, type SandboxPool } from './contract-helpers.js';

/** checkSyntax: parses without running, positions in the script as written, `global.` rule, independence. */
export function describeSyntax(pool: SandboxPool): void {
  describe('syntax check', () => {
    const check = (source: string, kind: 'guard' | 'action' = 'action') => pool.engine!.checkSyntax(source, kind);

    it('accepts what the sandbox runs: statements, declarations, guards with or without a semicolon, blank scripts', () => {
      for (const action of ['x = 1;', 'var y = 2; function f() { return y; }', 'if (a) { b++ } else { c-- }', '', '  \n']) {
        expect(check(action)).toBeUndefined();
      }
      for (const guard of ['x > 1', 'x > 1;', '!loggedIn && tries < 3', 'y = 2; y > 1', '']) expect(check(guard, 'guard')).toBeUndefined();
    });

    it('gives line and column of the first error, 1-based, in the script as written', () => {
      // `;` is the 5th character of `x = ;`; on the third line the 7th is the `{` where `)` belongs.
      expect(check('x = ;')).toMatchObject({ line: 1, column: 5 });
      expect(check('a = 1;\nb = 2;\nif (a {')).toMatchObject({ line: 3, column: 7 });
      expect(check('x = ;')!.message).toMatch(/^SyntaxError: /);
      expect(check('return true', 'guard')).toMatchObject({ line: 1, column: 1 });
      expect(check('x >', 'guard')).toMatchObject({ line: 1, column: 4 });
    });

    it("counts a script's `global.` prefixes, which the sandbox removes before it parses, in the column", () => {
      // `global.x = ;`: the engine sees `x = ;` (column 5); in the source the `;` is the 12th character.
      expect(check('global.x = ;')).toMatchObject({ line: 1, column: 12 });
      expect(check('global.a = 1;\ny = global.b +;')).toMatchObject({ line: 2, column: 15 });
      expect(check('global.loggedIn && global.tries < 3', 'guard')).toBeUndefined();
    });

    it('runs nothing: neither an endless loop nor a throw nor a declaration has an effect', () => {
      expect(check('for (;;) {}')).toBeUndefined();
      expect(check("throw new Error('ran')")).toBeUndefined();
      expect(check('checked = 1; var declared = 2;')).toBeUndefined();
      const sandbox = pool.open();
      expect(evaluateGuards(sandbox, 0, ['typeof checked === "undefined"', 'typeof declared === "undefined"'])).toEqual([1, 1]);
    });

    it('answers a script nested past the stack limit as not parsing, and goes on working', () => {
      const found = check(`x = ${'('.repeat(100_000)}1${')'.repeat(100_000)};`);
      expect(found).toBeDefined();
      expect(found!.message).not.toBe('');
      expect(check('x = 1;')).toBeUndefined();
      expect(check('x = ;')).toMatchObject({ line: 1, column: 5 });
    });

    it('leaves an open sandbox alone', () => {
      const sandbox = pool.open();
      sandbox.run(0, 'n = 1;', origin());
      expect(check('n = 2;')).toBeUndefined();
      expect(check('n = ;')).toBeDefined();
      sandbox.run(0, 'n++;', origin());
      expect(holds(sandbox, 0, 'n === 2')).toBe(true);
    });
  });
}
