import type { WalkerPlugin } from '../core/plugin.js';
import { resolveAppOptions } from '../server/app.js';
import { compose, type Services } from '../server/composition.js';
import { loadPlugin } from '../core/plugin-loader.js';

/**
 * The services of a command that runs no server (`offline`, `check`): the same composition root as the app's,
 * with the default options and the `--plugin` packages, resolved from the current directory.
 */
export async function commandServices(pluginSpecifiers: readonly string[]): Promise<Services> {
  return compose(resolveAppOptions({}), await loadPluginArguments(pluginSpecifiers));
}

/** Loads the `--plugin` arguments, resolved from the current directory. */
export async function loadPluginArguments(specifiers: readonly string[]): Promise<WalkerPlugin[]> {
  const plugins: WalkerPlugin[] = [];
  for (const specifier of specifiers) plugins.push(await loadPlugin(specifier, process.cwd()));
  return plugins;
}
