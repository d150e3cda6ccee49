import { describe, expect, it } from 'vitest';
import { guardOrigins, origin, scriptErrorOf, type SandboxPool } from './contract-helpers.js';

/** Scripts that attack the engine's own helpers: they may break their own scope, never what the engine reports. */
export function describeHostileScripts(pool: SandboxPool): void {
  describe('hostile scripts', () => {
    const vandalism = [
      'Array.prototype.push = null; Array.prototype.join = null; String.prototype.slice = null;',
      'Error.prototype.toString = function () { return "relabelled"; }; Function.prototype.call = null;',
      'RegExp.prototype.test = function () { return true; }; Reflect.apply = null;',
      'Object.defineProperty(Object.prototype, "vars", { get: function () { return function () { return "1:x1:y"; }; } });',
      'JSON = undefined; String = undefined; Object.keys = null; Object.getOwnPropertyNames = null;',
    ].join('\n');

    it('cannot change what getData lists by replacing or deleting built-ins', () => {
      const sandbox = pool.open();
      sandbox.run(0, 'count = 3; name = "walker"; items = [1, 2];', origin());
      sandbox.run(0, vandalism, origin());
      expect(sandbox.variables(0)).toEqual([
        ['count', '3'],
        ['name', 'walker'],
        ['items', '[1,2]'],
      ]);
    });

    it('cannot relabel the errors of later scripts or of guards', () => {
      const sandbox = pool.open();
      sandbox.run(0, vandalism, origin());
      expect(scriptErrorOf(() => sandbox.run(0, 'missing + 1;', origin('e2'))).scriptMessage).toBe('ReferenceError: missing is not defined');
      const set = sandbox.prepareGuards(0, ['true', '"yes"'], guardOrigins(2));
      const error = scriptErrorOf(() => set.evaluate(new Uint8Array(2)));
      expect(error.scriptMessage).toBe('Guard returned "yes" (a string); a guard must evaluate to true or false');
      expect(error.origin).toEqual(guardOrigins(2)[1]);
    });

    it('cannot pass its own error off as a limit', () => {
      const sandbox = pool.open();
      for (const text of ['Script exceeded the memory limit of 64 MiB', 'Script exceeded the time limit of 1000 ms']) {
        const error = scriptErrorOf(() => sandbox.run(0, `throw ${JSON.stringify(text)};`, origin()));
        expect(error.scriptMessage).toBe(text);
        expect(error.message).toBe(text);
      }
    });
  });
}
