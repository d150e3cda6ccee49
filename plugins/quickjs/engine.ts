import {
  DEFAULT_SCRIPT_LIMITS,
  type SandboxOptions,
  type ScriptEngine,
  type ScriptLimits,
  type ScriptSandbox,
  type ScriptSyntaxError,
} from '../../core/scripting.js';
import type { Graph } from '../../core/model/graph.js';
import type { HostStepper } from '../../core/planning/state-space.js';
import { fastCaller } from './calls.js';
import { checkLimits, checkPositive, limitOverrides } from './limits.js';
import { ModulePool, sharedModule, type ModuleSource } from './modules.js';
import { DEFAULT_MAX_STACK_BYTES, type QuickJsModule } from './runtime.js';
import { PlainStepper } from './plain-stepper.js';
import { QuickJsSandbox } from './sandbox.js';
import { actionScripts } from './shared-scope.js';
import { SyntaxChecker } from './syntax.js';

/** Options of the QuickJS engine; all optional. */
export interface QuickJsEngineOptions extends Partial<ScriptLimits> {
  /**
   * QuickJS's stack limit in bytes (default {@link DEFAULT_MAX_STACK_BYTES}; see there why it is small).
   * Raising it lets scripts recurse deeper at the risk of overflowing the host's stack.
   */
  readonly maxStackBytes?: number;
  /**
   * Call compiled guards and actions through QuickJS's FFI directly (default true; about three times
   * cheaper per call). Set false to use only quickjs-emscripten's public API.
   */
  readonly fastCalls?: boolean;
}

/** The engine's name and the aliases a model or the CLI may use for it. */
export const QUICKJS_ENGINE_NAME = 'quickjs';
export const QUICKJS_ENGINE_ALIASES: readonly string[] = Object.freeze(['javascript', 'js']);

/** A {@link ScriptEngine} that the registry can also find by its aliases. */
export interface QuickJsEngine extends ScriptEngine {
  readonly aliases: readonly string[];
  /**
   * True when compiled guards and actions are called through QuickJS's FFI directly. False when `fastCalls`
   * was turned off, or when the installed quickjs-emscripten failed the self-test of that path (calls.ts):
   * the engine then works through the public API, about three times slower per call.
   */
  readonly fastCalls: boolean;
}

/**
 * The QuickJS script engine. By default every walk gets a QuickJS module (a WebAssembly memory) of its own
 * from a pool (modules.ts), for certain when it was reserved (`reserve`); tests pass one `module`, a debug
 * build, which every sandbox then shares, and the engine then has no `reserve`. Limits given here replace
 * those of the sandbox options, field by field.
 */
export async function createQuickJsEngine(module?: QuickJsModule, options: QuickJsEngineOptions = {}): Promise<QuickJsEngine> {
  const overrides = limitOverrides(options);
  checkLimits({ ...DEFAULT_SCRIPT_LIMITS, ...overrides });
  const maxStackBytes = checkPositive('maxStackBytes', options.maxStackBytes ?? DEFAULT_MAX_STACK_BYTES, 'QuickJS option');
  const modules = module === undefined ? await ModulePool.create() : sharedModule(module);
  const fastCalls = (options.fastCalls ?? true) && passesSelfTest(modules);
  const settings = { modules, maxStackBytes, fastCalls };
  const memoryBytes = overrides.memoryBytes ?? DEFAULT_SCRIPT_LIMITS.memoryBytes;
  const syntax = new SyntaxChecker(modules, maxStackBytes, memoryBytes);
  const engine: QuickJsEngine = {
    name: QUICKJS_ENGINE_NAME,
    aliases: QUICKJS_ENGINE_ALIASES,
    fastCalls,
    createSandbox(sandboxOptions: SandboxOptions): ScriptSandbox {
      const limits = checkLimits({ ...sandboxOptions.limits, ...overrides });
      return new QuickJsSandbox({ ...sandboxOptions, limits }, settings);
    },
    checkSyntax: (source: string): ScriptSyntaxError | undefined => syntax.check(source),
    actionScripts,
    // Plain scripts (plain-scripts.ts) computed in the host as QuickJS computes them: planning explores
    // their states without a sandbox.
    hostStepper: (graph: Graph): HostStepper | undefined => PlainStepper.of(graph),
    // A module given to the engine is its giver's to drop; a pool is the engine's own.
    dispose: () => modules.dispose?.(),
  };
  // Only a pool has modules to set aside; sandboxes of a module given to the engine all share it.
  return modules.reserve === undefined ? engine : { ...engine, reserve: () => modules.reserve!() };
}

/** Whether the FFI fast path works with the installed quickjs-emscripten, tried once per engine. */
function passesSelfTest(modules: ModuleSource): boolean {
  const module = modules.sample;
  const runtime = module.newRuntime();
  const context = runtime.newContext();
  const probe = context.unwrapResult(context.evalCode('(function () { return 42; })'));
  try {
    return fastCaller(module, context, runtime, probe) !== undefined;
  } finally {
    probe.dispose();
    context.dispose();
    runtime.dispose();
  }
}
