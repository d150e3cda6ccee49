import { ErrorCodes, WalkerError } from './errors.js';
import { Registry } from './registry.js';
import type { PathGeneratorFactory } from './generator.js';
import type { StopConditionFactory } from './condition.js';
import type { ScriptEngine } from './scripting.js';
import type { ModelFormat } from './format.js';
import { jsonFormat } from './model/json-format.js';

/** The four extension points a plugin can fill. */
export interface Registries {
  readonly generators: Registry<PathGeneratorFactory>;
  readonly conditions: Registry<StopConditionFactory>;
  readonly scriptEngines: Registry<ScriptEngine>;
  readonly formats: Registry<ModelFormat>;
}

/** Fresh registries: empty but for core's own model format, JSON. */
export function createRegistries(): Registries {
  const formats = new Registry<ModelFormat>('model format');
  formats.register(jsonFormat, 'walker');
  return {
    generators: new Registry<PathGeneratorFactory>('path generator'),
    conditions: new Registry<StopConditionFactory>('stop condition'),
    scriptEngines: new Registry<ScriptEngine>('script engine'),
    formats,
  };
}

/**
 * The script engine a walk uses: the one named, or the first one registered. Throws UNKNOWN_NAME when there
 * is none.
 */
export function scriptEngineOf(registries: Registries, name?: string): ScriptEngine {
  if (name !== undefined) return registries.scriptEngines.get(name);
  const engine = registries.scriptEngines.values()[0];
  if (engine === undefined) {
    throw new WalkerError(ErrorCodes.UNKNOWN_NAME, 'No script engine is registered: add the QuickJS plugin.');
  }
  return engine;
}

/**
 * A walker plugin: a plain object, usually made by a factory function that takes options. Its `setup`
 * registers generators, stop conditions, script engines or model formats; names it registers must not be taken.
 */
export interface WalkerPlugin {
  readonly meta: { readonly name: string; readonly version: string };
  setup(registries: Registries): void | Promise<void>;
}

/** True when the value has the shape of a {@link WalkerPlugin}. */
export function isWalkerPlugin(value: unknown): value is WalkerPlugin {
  if (typeof value !== 'object' || value === null) return false;
  const p = value as { meta?: { name?: unknown; version?: unknown }; setup?: unknown };
  return typeof p.meta?.name === 'string' && typeof p.meta.version === 'string' && typeof p.setup === 'function';
}

/**
 * Runs the plugins' setups in order against the registries. Each plugin sees registries that record its name,
 * so that a name clash says which two plugins want the same name. A plugin given twice, or a setup that
 * throws, is a WalkerError naming the plugin.
 */
export async function installPlugins(registries: Registries, plugins: readonly WalkerPlugin[]): Promise<void> {
  const installed = new Set<string>();
  for (const plugin of plugins) {
    const owner = plugin.meta.name;
    if (installed.has(owner)) {
      throw new WalkerError(ErrorCodes.PLUGIN, `Two plugins are named '${owner}': each needs its own meta.name (or is one plugin given twice?).`);
    }
    installed.add(owner);
    try {
      await plugin.setup({
        generators: registries.generators.forOwner(owner),
        conditions: registries.conditions.forOwner(owner),
        scriptEngines: registries.scriptEngines.forOwner(owner),
        formats: registries.formats.forOwner(owner),
      });
    } catch (error) {
      if (error instanceof WalkerError) throw error;
      const message = error instanceof Error ? error.message : String(error);
      throw new WalkerError(ErrorCodes.PLUGIN, `The setup of plugin '${owner}' failed: ${message.split('\n')[0]}`);
    }
  }
}
