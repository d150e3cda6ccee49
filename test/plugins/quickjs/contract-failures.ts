import { describe, expect, it } from 'vitest';
import { expectUsable, guardOrigins, origin, scriptErrorOf, type SandboxPool } from './contract-helpers.js';

/** Errors of scripts; after each one the sandbox must go on working. */
export function describeFailures(pool: SandboxPool): void {

  describe('script errors', () => {
    it('reports a thrown error as Name: message with the origin of the action', () => {
      const sandbox = pool.open();
      const error = scriptErrorOf(() => sandbox.run(0, 'x = y + 1;', origin('e7')));
      expect(error.scriptMessage).toBe('ReferenceError: y is not defined');
      expect(error.origin).toEqual(origin('e7'));
      expectUsable(sandbox);
    });

    it('reports errors and values a script throws', () => {
      const sandbox = pool.open();
      expect(scriptErrorOf(() => sandbox.run(0, 'throw new Error("boom");', origin())).scriptMessage).toBe('Error: boom');
      expect(scriptErrorOf(() => sandbox.run(0, 'throw new TypeError("bad");', origin())).scriptMessage).toBe('TypeError: bad');
      expect(scriptErrorOf(() => sandbox.run(0, 'throw "plain";', origin())).scriptMessage).toBe('plain');
      expect(scriptErrorOf(() => sandbox.run(0, 'null.x;', origin())).scriptMessage).toMatch(/^TypeError: /);
      expectUsable(sandbox);
    });

    it('reports syntax errors, also of scripts that would close a wrapper', () => {
      const sandbox = pool.open();
      for (const source of ['x = ;', 'x = 1 }', '} x = 1; {', 'return 1;']) {
        expect(scriptErrorOf(() => sandbox.run(0, source, origin())).scriptMessage).toMatch(/^SyntaxError: /);
      }
      expectUsable(sandbox);
    });

    it('reports a throwing guard with the origin of that guard', () => {
      const sandbox = pool.open();
      const set = sandbox.prepareGuards(0, ['true', 'missing > 1', 'true'], guardOrigins(3));
      const error = scriptErrorOf(() => set.evaluate(new Uint8Array(3)));
      expect(error.scriptMessage).toBe('ReferenceError: missing is not defined');
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
      expect(error.scriptMessage).toMatch(/^SyntaxError: /);
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
      expect(error.scriptMessage).toBe(message);
      expect(error.origin).toEqual(guardOrigins(2)[1]);
      expectUsable(sandbox);
    });

    it.each([['(async () => true)()'], ['Promise.resolve(true)'], ['({ then: function (resolve) { resolve(true); } })']])(
      'refuses a guard that returns a promise or a thenable: %s',
      (source) => {
        const sandbox = pool.open();
        const set = sandbox.prepareGuards(0, ['true', source], guardOrigins(2));
        const error = scriptErrorOf(() => set.evaluate(new Uint8Array(2)));
        expect(error.scriptMessage).toBe('Guard returned a promise; guards must be synchronous and evaluate to true or false');
        expect(error.origin).toEqual(guardOrigins(2)[1]);
        expectUsable(sandbox);
      },
    );

    it('names the failing guard in sets of more than 31 guards', () => {
      const sandbox = pool.open();
      const sources = Array.from({ length: 40 }, (_, i) => (i === 35 ? '35' : 'true'));
      const error = scriptErrorOf(() => sandbox.prepareGuards(0, sources, guardOrigins(40)).evaluate(new Uint8Array(40)));
      expect(error.scriptMessage).toMatch(/^Guard returned 35 \(a number\)/);
      expect(error.origin).toEqual(guardOrigins(40)[35]);
    });

    it('cuts long messages to 500 characters', () => {
      const sandbox = pool.open();
      const error = scriptErrorOf(() => sandbox.run(0, 'throw new Error("x".repeat(100000));', origin()));
      expect(error.message.length).toBeLessThanOrEqual(500);
      expect(error.message.startsWith('Error: xxxx')).toBe(true);
    });
  });
}
