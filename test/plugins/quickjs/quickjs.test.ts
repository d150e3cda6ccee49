import { DEBUG_SYNC, newQuickJSWASMModule, RELEASE_SYNC, type QuickJSRuntime } from 'quickjs-emscripten';
import { describe, expect, it } from 'vitest';
import { createRegistries, isWalkerPlugin } from '../../../core/plugin.js';
import { createRandom } from '../../../core/random.js';
import { DEFAULT_SCRIPT_LIMITS } from '../../../core/scripting.js';
import {
  createQuickJsEngine,
  QUICKJS_PLUGIN_VERSION,
  quickJsPlugin,
  type QuickJsModule,
} from '../../../plugins/quickjs/index.js';
import { fastCaller } from '../../../plugins/quickjs/calls.js';
import { newOwnModule } from '../../../plugins/quickjs/modules.js';
import { describeScriptEngineContract } from './contract.js';
import { origin, scriptErrorOf } from './contract-helpers.js';

const MiB = 1024 * 1024;

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
    getWasmMemory: () => debug.getWasmMemory(),
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

// The debug build checks, after every test, that nothing is left allocated, and asserts on a misused value
// inside QuickJS; a sandbox costs it tens of times what it costs a release build. It runs the groups whose
// paths can leave something behind that the release builds would not show: errors thrown and unwound, limits
// interrupting a script, promise jobs, syntax checks, hostile scripts, reset and dispose. The semantics and the
// run clock evaluate scripts that succeed, through the same calls those groups make, and the two release builds
// prove their results.
const checked = await leakCheckedModule();
describeScriptEngineContract('quickjs (debug build, leak-checked)', () => createQuickJsEngine(checked.module), {
  assertNoLeaks: checked.assertNoLeaks,
  survivesMemoryLimit: false,
  groups: ['failures', 'limits', 'hostile', 'state', 'syntax'],
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

  // Each script runs until a limit stops it, so that which limit does is no race with the machine's pace. A
  // call is charged between QuickJS's interrupt checks (runtime.ts): a 60 ms busy wait under a 40 ms budget
  // ended unstopped in 4 of 40 runs on a loaded machine, 26 of 40 beside three spinning threads, whose thread
  // waited for a core before its first check or after its last. The machine's time limit is far away; a limit
  // the plugin did not replace would stop the script later, with another message.
  const REAL_CLOCK = `if (Date.now() < ${Date.now() - 60_000}) throw new Error("the run's clock"); for (;;) {}`;
  it.each([
    [{ timeoutMs: 30 }, 'for (;;) {}', 'Script exceeded the time limit of 30 ms'],
    [{ memoryBytes: 16 * MiB }, 'a = []; for (;;) a.push("x".repeat(1 << 20) + a.length);', 'Script exceeded the memory limit of 16 MiB'],
    [{ budgetMs: 40, realClock: true }, REAL_CLOCK, 'Scripts of one request exceeded the time budget of 40 ms'],
  ])('applies its limits %o over those the machine passes', async (limits, source, message) => {
    const registries = createRegistries();
    await quickJsPlugin(limits).setup(registries);
    const sandbox = registries.scriptEngines.get('js').createSandbox({
      scopes: 1,
      random: createRandom(1),
      limits: { ...DEFAULT_SCRIPT_LIMITS, timeoutMs: 60_000 },
    });
    try {
      expect(scriptErrorOf(() => sandbox.run(0, source, origin())).scriptMessage).toBe(message);
    } finally {
      sandbox.dispose();
    }
  });

  it.each([
    [{ timeoutMs: 0 }, 'Script limit timeoutMs must be a positive number, got 0'],
    [{ budgetMs: Number.NaN }, 'Script limit budgetMs must be a positive number, got NaN'],
    [{ memoryBytes: 8 * MiB }, 'Script limit memoryBytes must be at least 16 MiB, the memory QuickJS starts with; got 8 MiB'],
    [{ memoryBytes: 4096 * MiB }, 'Script limit memoryBytes must be at most 2048 MiB, all QuickJS can address; got 4096 MiB'],
    [{ maxStackBytes: -1 }, 'QuickJS option maxStackBytes must be a positive number, got -1'],
  ])('rejects the option %o', async (options, message) => {
    await expect(createQuickJsEngine(undefined, options)).rejects.toThrow(message);
  });

  it('rejects limits the machine passes that it cannot enforce, naming the field', async () => {
    const engine = await createQuickJsEngine();
    const limits = { ...DEFAULT_SCRIPT_LIMITS, memoryBytes: 2 * MiB };
    expect(() => engine.createSandbox({ scopes: 1, random: createRandom(1), limits })).toThrow(/memoryBytes must be at least 16 MiB/);
  });
});

describe('QuickJS engine internals', () => {
  // The fast path reads a protected field of quickjs-emscripten (calls.ts), which is why package.json pins
  // its exact version: an upgrade that moves the field must fail here, not only run three times slower.
  it('calls compiled guards and actions through the FFI of the installed quickjs-emscripten', async () => {
    expect((await createQuickJsEngine()).fastCalls).toBe(true);
    expect((await createQuickJsEngine(undefined, { fastCalls: false })).fastCalls).toBe(false);
    const module = await newOwnModule();
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
    expect(scriptErrorOf(() => sandbox.run(0, deep, origin())).scriptMessage).toBe('Script exceeded the stack limit of the host');
    expect(scriptErrorOf(() => sandbox.run(0, 'x = 1;', origin())).scriptMessage).toMatch(/discarded/);
    sandbox.reset();
    sandbox.run(0, 'x = 1;', origin());
    expect(sandbox.variables(0)).toEqual([['x', '1']]);
    sandbox.dispose();
  });
});
