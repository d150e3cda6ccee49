/**
 * Cost of the QuickJS sandbox's hot operations, measured by hand (not part of `vitest run`):
 *
 *   npx vitest bench --run test/plugins/quickjs
 *
 * A walk step costs one guard-set evaluation (the out-edges of the vertex) plus one action; the "walk step"
 * case is that pair, so 1e6 / its mean in µs is the ceiling the sandbox puts on steps per second.
 */
import { bench, describe } from 'vitest';
import type { ScriptOrigin } from '../../../core/errors.js';
import { createRandom } from '../../../core/random.js';
import { DEFAULT_SCRIPT_LIMITS, type GuardSet, type ScriptSandbox } from '../../../core/scripting.js';
import { createQuickJsEngine } from '../../../plugins/quickjs/index.js';

const action: ScriptOrigin = { modelId: 'm', elementId: 'e', field: 'actions' };
const guard: ScriptOrigin = { modelId: 'm', elementId: 'e', field: 'guard' };

async function sandboxWith(fastCalls: boolean): Promise<ScriptSandbox> {
  const engine = await createQuickJsEngine(undefined, { fastCalls });
  const sandbox = engine.createSandbox({ scopes: 1, random: createRandom(1), limits: DEFAULT_SCRIPT_LIMITS });
  sandbox.run(0, 'x = 0; y = 5; loggedIn = false; items = [];', action);
  return sandbox;
}

function guardSet(sandbox: ScriptSandbox, sources: string[]): { set: GuardSet; out: Uint8Array } {
  return { set: sandbox.prepareGuards(0, sources, sources.map(() => guard)), out: new Uint8Array(sources.length) };
}

const fast = await sandboxWith(true);
const slow = await sandboxWith(false);
const three = ['x >= 0', 'y < 3', '!loggedIn'];
const forty = Array.from({ length: 40 }, (_, i) => `x % ${i + 2} === 0`);

describe('guard sets', () => {
  const fastThree = guardSet(fast, three);
  const slowThree = guardSet(slow, three);
  const fastForty = guardSet(fast, forty);
  const random = guardSet(fast, ['Math.random() < 0.5', 'Math.random() >= 0.5']);
  bench('3 guards, fast calls', () => fastThree.set.evaluate(fastThree.out));
  bench('3 guards, public API calls', () => slowThree.set.evaluate(slowThree.out));
  bench('40 guards (string result)', () => fastForty.set.evaluate(fastForty.out));
  bench('2 guards calling Math.random', () => random.set.evaluate(random.out));
});

describe('actions', () => {
  bench('x++ compiled, fast calls', () => fast.run(0, 'x++;', action));
  bench('x++ compiled, public API calls', () => slow.run(0, 'x++;', action));
  bench('var declaration, evaluated each time', () => fast.run(0, 'var z = x + 1;', action));
  bench('setData (never cached)', () => fast.run(0, 'x = x + 1;', { ...action, field: 'setData' }));
});

describe('walk step', () => {
  const fastThree = guardSet(fast, three);
  const slowThree = guardSet(slow, three);
  bench('3 guards + 1 action, fast calls', () => {
    fastThree.set.evaluate(fastThree.out);
    fast.run(0, 'x++; loggedIn = !loggedIn;', action);
  });
  bench('3 guards + 1 action, public API calls', () => {
    slowThree.set.evaluate(slowThree.out);
    slow.run(0, 'x++; loggedIn = !loggedIn;', action);
  });
});

const engine = await createQuickJsEngine();

describe('lifecycle', () => {
  bench('sandbox + one scope + dispose', () => {
    const sandbox = engine.createSandbox({ scopes: 1, random: createRandom(1), limits: DEFAULT_SCRIPT_LIMITS });
    sandbox.run(0, 'x = 1;', action);
    sandbox.dispose();
  });
  bench('getData of 10 variables', () => void fast.variables(0), {
    setup: () => fast.run(0, 'a = 1; b = "two"; c = [3]; d = { e: 4 }; f = true; g = null; h = 1.5; i = "x"; j = 0;', action),
  });
});
