import type { WalkerPlugin } from '../../core/plugin.js';
import { createQuickJsEngine, type QuickJsEngineOptions } from './engine.js';

export {
  createQuickJsEngine,
  QUICKJS_ENGINE_ALIASES,
  QUICKJS_ENGINE_NAME,
  type QuickJsEngine,
  type QuickJsEngineOptions,
} from './engine.js';
export { DEFAULT_MAX_STACK_BYTES, type QuickJsModule } from './runtime.js';
export { INITIAL_MEMORY_BYTES } from './memory.js';

/** The plugin's name in registries and clash messages. */
export const QUICKJS_PLUGIN_NAME = 'walker-quickjs';
/** The plugin's version; it moves with the engine's behaviour, not with walker's. */
export const QUICKJS_PLUGIN_VERSION = '0.2.0';

/**
 * The QuickJS script engine as a walker plugin: `setup` compiles the WebAssembly code (once per process),
 * makes the engine's first modules and registers the engine as `quickjs`, alias `javascript` and `js`.
 *
 * @param options limits that replace the machine's (`timeoutMs`, `memoryBytes`, `budgetMs`, `realClock`), and
 *   engine tuning (`maxStackBytes`, `fastCalls`)
 */
export function quickJsPlugin(options: QuickJsEngineOptions = {}): WalkerPlugin {
  return {
    meta: { name: QUICKJS_PLUGIN_NAME, version: QUICKJS_PLUGIN_VERSION },
    async setup(registries) {
      registries.scriptEngines.register(await createQuickJsEngine(undefined, options), QUICKJS_PLUGIN_NAME);
    },
  };
}
