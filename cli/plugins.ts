import { loadPlugin } from '../core/plugin-loader.js';
import type { WalkerPlugin } from '../core/plugin.js';

/** Loads the `--plugin` arguments, resolved from the current directory. */
export async function loadPluginArguments(specifiers: readonly string[]): Promise<WalkerPlugin[]> {
  const plugins: WalkerPlugin[] = [];
  for (const specifier of specifiers) plugins.push(await loadPlugin(specifier, process.cwd()));
  return plugins;
}
