import { getQuickJS } from 'quickjs-emscripten';
import type { ScriptEngine, ScriptLimits, SandboxOptions, ScriptSandbox } from '../../core/scripting.js';
import { DEFAULT_MAX_STACK_BYTES, type QuickJsModule } from './runtime.js';
import { QuickJsSandbox } from './sandbox.js';

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
}

let releaseModule: Promise<QuickJsModule> | undefined;

/**
 * Loads the QuickJS WebAssembly module once per process: the module is immutable code shared by every
 * sandbox, while each sandbox has its own runtime (heap, limits, variables). A failed load is forgotten,
 * so that a later call can retry.
 */
export function loadQuickJs(): Promise<QuickJsModule> {
  releaseModule ??= getQuickJS();
  releaseModule.catch(() => {
    releaseModule = undefined;
  });
  return releaseModule;
}

/**
 * The QuickJS script engine. `module` defaults to the shared release build; tests pass a debug build to
 * check for leaks. Limits given here replace those of the sandbox options, field by field.
 */
export async function createQuickJsEngine(module?: QuickJsModule, options: QuickJsEngineOptions = {}): Promise<QuickJsEngine> {
  const loaded = module ?? (await loadQuickJs());
  const settings = {
    module: loaded,
    maxStackBytes: checkPositive('maxStackBytes', options.maxStackBytes ?? DEFAULT_MAX_STACK_BYTES),
    fastCalls: options.fastCalls ?? true,
  };
  const overrides = limitOverrides(options);
  return {
    name: QUICKJS_ENGINE_NAME,
    aliases: QUICKJS_ENGINE_ALIASES,
    createSandbox(sandboxOptions: SandboxOptions): ScriptSandbox {
      const limits = { ...sandboxOptions.limits, ...overrides };
      return new QuickJsSandbox({ ...sandboxOptions, limits }, settings);
    },
  };
}

function limitOverrides(options: QuickJsEngineOptions): Partial<ScriptLimits> {
  const overrides: { timeoutMs?: number; memoryBytes?: number } = {};
  if (options.timeoutMs !== undefined) overrides.timeoutMs = checkPositive('timeoutMs', options.timeoutMs);
  if (options.memoryBytes !== undefined) overrides.memoryBytes = checkPositive('memoryBytes', options.memoryBytes);
  return overrides;
}

function checkPositive(name: string, value: number): number {
  if (!Number.isFinite(value) || value <= 0) throw new RangeError(`QuickJS option ${name} must be a positive number, got ${value}`);
  return value;
}
