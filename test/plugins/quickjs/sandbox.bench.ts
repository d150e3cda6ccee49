/**
 * Cost of the QuickJS sandbox's hot operations, measured by hand (not part of `vitest run`):
 *
 *   npx vitest bench --run test/plugins/quickjs
 *
 * A walk step costs one guard-set evaluation (the out-edges of the vertex) plus one action; the "walk step"
 * case is that pair, so 1e6 / its mean in µs is the ceiling the sandbox puts on steps per second. The hot
 * cases run 100 times per iteration, as a walk does between two requests: the bench's runner starts every
 * iteration in a fresh turn of the event loop, and the sandbox opens a request budget once per turn
 * (budget.ts), which a walk pays once per request, not once per call. Divide their means by 100.
 */
import { bench, describe } from 'vitest';
import type { ScriptOrigin } from '../../../core/errors.js';
import { createRandom } from '../../../core/random.js';
import { DEFAULT_SCRIPT_LIMITS, type GuardSet, type ScriptSandbox } from '../../../core/scripting.js';
import { createQuickJsEngine } from '../../../plugins/quickjs/index.js';
import { newOwnModule } from '../../../plugins/quickjs/modules.js';

const action: ScriptOrigin = { modelId: 'm', elementId: 'e', field: 'actions' };
const guard: ScriptOrigin = { modelId: 'm', elementId: 'e', field: 'guard' };
const TIMES = 100;

async function sandboxWith(fastCalls: boolean): Promise<ScriptSandbox> {
  const engine = await createQuickJsEngine(undefined, { fastCalls });
  const sandbox = engine.createSandbox({ scopes: 1, random: createRandom(1), limits: DEFAULT_SCRIPT_LIMITS });
  sandbox.run(0, 'x = 0; y = 5; loggedIn = false; items = [];', action);
  return sandbox;
}

function guardSet(sandbox: ScriptSandbox, sources: string[]): { set: GuardSet; out: Uint8Array } {
  return { set: sandbox.prepareGuards(0, sources, sources.map(() => guard)), out: new Uint8Array(sources.length) };
}

/** `call` {@link TIMES} times. */
function repeated(call: () => void): () => void {
  return () => {
    for (let i = 0; i < TIMES; i++) call();
  };
}

const fast = await sandboxWith(true);
const slow = await sandboxWith(false);
const three = ['x >= 0', 'y < 3', '!loggedIn'];
const forty = Array.from({ length: 40 }, (_, i) => `x % ${i + 2} === 0`);

describe('guard sets (x100)', () => {
  const fastThree = guardSet(fast, three);
  const slowThree = guardSet(slow, three);
  const fastForty = guardSet(fast, forty);
  const random = guardSet(fast, ['Math.random() < 0.5', 'Math.random() >= 0.5']);
  bench('3 guards, fast calls', repeated(() => fastThree.set.evaluate(fastThree.out)));
  bench('3 guards, public API calls', repeated(() => slowThree.set.evaluate(slowThree.out)));
  bench('40 guards (string result)', repeated(() => fastForty.set.evaluate(fastForty.out)));
  bench('2 guards calling Math.random', repeated(() => random.set.evaluate(random.out)));
});

describe('actions (x100)', () => {
  bench('x++ compiled, fast calls', repeated(() => fast.run(0, 'x++;', action)));
  bench('x++ compiled, public API calls', repeated(() => slow.run(0, 'x++;', action)));
  bench('var declaration, evaluated each time', repeated(() => fast.run(0, 'var z = x + 1;', action)));
  bench('setData (never cached)', repeated(() => fast.run(0, 'x = x + 1;', { ...action, field: 'setData' })));
});

describe('walk step (x100)', () => {
  const fastThree = guardSet(fast, three);
  const slowThree = guardSet(slow, three);
  bench('3 guards + 1 action, fast calls', repeated(() => {
    fastThree.set.evaluate(fastThree.out);
    fast.stepped?.();
    fast.run(0, 'x++; loggedIn = !loggedIn;', action);
  }));
  bench('3 guards + 1 action, public API calls', repeated(() => {
    slowThree.set.evaluate(slowThree.out);
    slow.stepped?.();
    slow.run(0, 'x++; loggedIn = !loggedIn;', action);
  }));
});

const engine = await createQuickJsEngine();

describe('lifecycle', () => {
  bench('sandbox (a spare module) + one scope + dispose', () => {
    const sandbox = engine.createSandbox({ scopes: 1, random: createRandom(1), limits: DEFAULT_SCRIPT_LIMITS });
    sandbox.run(0, 'x = 1;', action);
    sandbox.dispose();
  });
  bench('a QuickJS module of its own (made in the background)', async () => {
    await newOwnModule();
  });
  bench('getData of 10 variables', () => void fast.variables(0), {
    setup: () => fast.run(0, 'a = 1; b = "two"; c = [3]; d = { e: 4 }; f = true; g = null; h = 1.5; i = "x"; j = 0;', action),
  });
});
