import { DEBUG_SYNC, newQuickJSWASMModule, RELEASE_SYNC, type QuickJSRuntime } from 'quickjs-emscripten';
import { describe, expect, it } from 'vitest';
import { createRegistries, isWalkerPlugin } from '../../../core/plugin.js';
import { createRandom } from '../../../core/random.js';
import { DEFAULT_SCRIPT_LIMITS } from '../../../core/scripting.js';
import {
  createQuickJsEngine,
  loadQuickJs,
  QUICKJS_PLUGIN_VERSION,
  quickJsPlugin,
  type QuickJsModule,
} from '../../../plugins/quickjs/index.js';
import { fastCaller } from '../../../plugins/quickjs/calls.js';
import { describeScriptEngineContract } from './contract.js';
import { origin, scriptErrorOf } from './contract-helpers.js';

/**
 * A debug build of QuickJS (assertions, leak sanitizer) that remembers its runtimes, so that a test can
 * assert that every runtime was disposed and nothing inside the WebAssembly heap is still allocated.
 */
async function leakCheckedModule(): Promise<{ module: QuickJsModule; assertNoLeaks: () => void }> {
  const debug = await newQuickJSWASMModule(DEBUG_SYNC);
  const runtimes: QuickJSRuntime[] = [];
  const module: QuickJsModule = {
    newRuntime: (options) => {
      const runtime = debug.newRuntime(options);
      runtimes.push(runtime);
      return runtime;
    },
    getFFI: () => debug.getFFI(),
  };
  const assertNoLeaks = (): void => {
    const alive = runtimes.filter((r) => r.alive).length;
    if (alive > 0) throw new Error(`${alive} QuickJS runtime(s) not disposed`);
    if (debug.getFFI().QTS_RecoverableLeakCheck() !== 0) throw new Error('the leak sanitizer found unfreed memory');
  };
  return { module, assertNoLeaks };
}

describeScriptEngineContract('quickjs (release build)', () => createQuickJsEngine());

describeScriptEngineContract('quickjs (release build, public API calls only)', () =>
  createQuickJsEngine(undefined, { fastCalls: false }),
);

const checked = await leakCheckedModule();
describeScriptEngineContract('quickjs (debug build, leak-checked)', () => createQuickJsEngine(checked.module), {
  assertNoLeaks: checked.assertNoLeaks,
});

describe('quickJsPlugin', () => {
  it('is a walker plugin that registers the engine under its name and aliases', async () => {
    const plugin = quickJsPlugin();
    expect(isWalkerPlugin(plugin)).toBe(true);
    expect(plugin.meta).toEqual({ name: 'walker-quickjs', version: QUICKJS_PLUGIN_VERSION });
    const registries = createRegistries();
    await plugin.setup(registries);
    const engine = registries.scriptEngines.get('quickjs');
    expect(engine.name).toBe('quickjs');
    expect(registries.scriptEngines.get('JavaScript')).toBe(engine);
    expect(registries.scriptEngines.get('js')).toBe(engine);
  });

  it('loads the WebAssembly module once', async () => {
    expect(loadQuickJs()).toBe(loadQuickJs());
    expect(await loadQuickJs()).toBe(await loadQuickJs());
  });

  it.each([
    [{ timeoutMs: 30 }, 'for (;;) {}', 'Script exceeded the time limit of 30 ms'],
    [{ memoryBytes: 3 * 1024 * 1024 }, 'a = []; for (;;) a.push({ n: a.length });', 'Script exceeded the memory limit of 3 MiB'],
  ])('applies its limits %o over those the machine passes', async (limits, source, message) => {
    const registries = createRegistries();
    await quickJsPlugin(limits).setup(registries);
    const sandbox = registries.scriptEngines.get('js').createSandbox({
      scopes: 1,
      random: createRandom(1),
      limits: DEFAULT_SCRIPT_LIMITS,
    });
    try {
      expect(scriptErrorOf(() => sandbox.run(0, source, origin())).message).toBe(message);
    } finally {
      sandbox.dispose();
    }
  });

  it('rejects limits that are not positive', async () => {
    await expect(createQuickJsEngine(undefined, { timeoutMs: 0 })).rejects.toThrow(/timeoutMs must be a positive number/);
  });
});

describe('QuickJS engine internals', () => {
  it('can call compiled functions through the FFI of the installed quickjs-emscripten', async () => {
    const module = await loadQuickJs();
    const runtime = module.newRuntime();
    const context = runtime.newContext();
    const probe = context.unwrapResult(context.evalCode('(function () { return 42; })'));
    try {
      expect(fastCaller(module, context, runtime, probe)).toBeDefined();
    } finally {
      probe.dispose();
      context.dispose();
      runtime.dispose();
    }
  });

  it('abandons a runtime whose host stack overflowed, and starts a fresh one on reset', async () => {
    // A stack limit far above the safe default lets QuickJS's parser overflow Node's stack first; a module
    // of its own keeps the abandoned runtime away from the other tests.
    const module = await newQuickJSWASMModule(RELEASE_SYNC);
    const engine = await createQuickJsEngine(module, { maxStackBytes: 1024 * 1024 });
    const sandbox = engine.createSandbox({ scopes: 1, random: createRandom(1), limits: DEFAULT_SCRIPT_LIMITS });
    const deep = 'eval("[".repeat(1000000) + "]".repeat(1000000));';
    expect(scriptErrorOf(() => sandbox.run(0, deep, origin())).message).toBe('Script exceeded the stack limit of the host');
    expect(scriptErrorOf(() => sandbox.run(0, 'x = 1;', origin())).message).toMatch(/discarded/);
    sandbox.reset();
    sandbox.run(0, 'x = 1;', origin());
    expect(sandbox.variables(0)).toEqual([['x', '1']]);
    sandbox.dispose();
  });
});
