import { afterEach, describe, expect, it } from 'vitest';
import { createQuickJsEngine } from '../../../plugins/quickjs/index.js';
import { evaluateGuards, guardOrigins, origin, SandboxPool, scriptErrorOf } from './contract-helpers.js';

/**
 * Attacks on what the QuickJS engine itself puts into a context: the kit and the names of its compiled
 * wrappers (plugins/quickjs/compile.ts), which model code inside a wrapper could otherwise name.
 */
const pool = new SandboxPool();
pool.engine = await createQuickJsEngine();
afterEach(() => pool.disposeAll());

const WRAPPER_NAMES = ['__w$K', '__w$ev', '__w$i', '__w$r', '__w$run'];

describe('the QuickJS engine against hostile scripts', () => {
  it('hides the kit and the wrapper variables from actions and guards', () => {
    const sandbox = pool.open();
    const seen = WRAPPER_NAMES.map((name) => `typeof ${name} === "undefined"`);
    sandbox.run(0, `hidden = ${seen.join(' && ')};`, origin());
    expect(evaluateGuards(sandbox, 0, ['hidden', ...seen])).toEqual([1, 1, 1, 1, 1, 1]);
  });

  it('hides them also from code that spells their names with escapes, or asks its caller', () => {
    const sandbox = pool.open();
    sandbox.run(0, 'x = 1;', origin());
    expect(scriptErrorOf(() => sandbox.run(0, '\\u005f_w$K.vars = null;', origin())).scriptMessage).toMatch(/^TypeError: /);
    const set = sandbox.prepareGuards(0, ['(\\u005f_w$i = 1, 42)', 'true'], guardOrigins(2));
    expect(scriptErrorOf(() => set.evaluate(new Uint8Array(2))).origin).toEqual(guardOrigins(2)[0]);
    const caller = '(function probe() { try { return typeof probe.caller !== "function"; } catch (e) { return true; } })()';
    expect(evaluateGuards(sandbox, 0, [caller])).toEqual([1]);
    sandbox.run(0, `callerHidden = ${caller};`, origin());
    expect(sandbox.variables(0)).toEqual([
      ['x', '1'],
      ['callerHidden', 'true'],
    ]);
  });

  it('cannot fake getData through the kit', () => {
    const sandbox = pool.open();
    sandbox.run(0, 'x = 1;', origin());
    const fake = 'function () { return "1:y1:2"; }';
    expect(scriptErrorOf(() => sandbox.run(0, `__w$K.vars = ${fake};`, origin())).scriptMessage).toMatch(/^TypeError: /);
    sandbox.run(0, `__w$K = { vars: ${fake} }; (function () { __w$K = { vars: ${fake} }; })();`, origin());
    sandbox.run(0, `var k = 2; __w$K = { vars: ${fake} };`, origin());
    expect(sandbox.variables(0)).toEqual([
      ['x', '1'],
      ['k', '2'],
      ['__w$K', '{}'],
    ]);
  });

  it('cannot blame another guard, or open another guard, through the wrapper variables', () => {
    const sandbox = pool.open();
    const set = sandbox.prepareGuards(0, ['(__w$i = 2, __w$r = 7, 42)', 'false', 'false'], guardOrigins(3));
    const error = scriptErrorOf(() => set.evaluate(new Uint8Array(3)));
    expect(error.origin).toEqual(guardOrigins(3)[0]);
    expect(evaluateGuards(sandbox, 0, ['(__w$r = 7, false)', 'false', 'false'])).toEqual([0, 0, 0]);
    expect(evaluateGuards(sandbox, 0, ['(__w$ev = function () { return true; }, false)', 'var t = false; t'])).toEqual([0, 0]);
  });

  it('does not take an error the script throws for a limit', () => {
    const sandbox = pool.open();
    const error = scriptErrorOf(() => sandbox.run(0, 'throw new InternalError("out of memory");', origin()));
    expect(error.message).toBe('InternalError: out of memory');
  });

  it('names model, element and field in the message of its own verdicts, not in the script errors', () => {
    const sandbox = pool.open({ limits: { timeoutMs: 20 } });
    expect(scriptErrorOf(() => sandbox.run(0, 'for (;;) {}', origin('e7'))).message).toBe(
      "model 'm0', element 'e7', actions: Script exceeded the time limit of 20 ms",
    );
    const set = sandbox.prepareGuards(0, ['1'], guardOrigins(1));
    expect(scriptErrorOf(() => set.evaluate(new Uint8Array(1))).message).toBe(
      "model 'm0', element 'g0', guard: Guard returned 1 (a number); a guard must evaluate to true or false",
    );
    expect(scriptErrorOf(() => sandbox.run(0, 'nope();', origin('e8'))).message).toBe('ReferenceError: nope is not defined');
  });
});
