import type { WalkerPlugin } from '../core/plugin.js';
import type { Services } from '../server/composition.js';
import type { AppOptionsInput } from '../server/resolve-options.js';

/**
 * The services of a command that runs no server (`offline`, `check`): the same composition root as the app's,
 * with the `--plugin` packages, resolved from the current directory, and the options the command takes (such
 * as script limits); the defaults for the rest.
 *
 * The composition root and the plugins are imported when a command asks for them, not when the command line
 * starts: `walker --version` and `walker --help` stay quick, as clients that probe the executable (AltWalker
 * gives `--version` one second) need.
 */
export async function commandServices(pluginSpecifiers: readonly string[], options: AppOptionsInput = {}): Promise<Services> {
  const [{ compose }, { resolveAppOptions }] = await Promise.all([
    import('../server/composition.js'),
    import('../server/resolve-options.js'),
  ]);
  return compose(resolveAppOptions(options), await loadPluginArguments(pluginSpecifiers));
}

/** Loads the `--plugin` arguments, resolved from the current directory. */
export async function loadPluginArguments(specifiers: readonly string[]): Promise<WalkerPlugin[]> {
  const { loadPlugin } = await import('../core/plugin-loader.js');
  const plugins: WalkerPlugin[] = [];
  for (const specifier of specifiers) plugins.push(await loadPlugin(specifier, process.cwd()));
  return plugins;
}
