import { createRequire } from 'node:module';
import { isAbsolute, join, resolve } from 'node:path';
import { pathToFileURL } from 'node:url';
import { ErrorCodes, WalkerError } from './errors.js';
import { isWalkerPlugin, type WalkerPlugin } from './plugin.js';

/**
 * Loads a plugin package by name (resolved from `fromDirectory`, as Node resolves a dependency of a project
 * there) or by path (a file or a package folder). The module's default export, or its export named
 * `plugin`, must be a {@link WalkerPlugin} or a function that returns one.
 */
export async function loadPlugin(specifier: string, fromDirectory: string): Promise<WalkerPlugin> {
  const url = resolvePlugin(specifier, fromDirectory);
  let module: Record<string, unknown>;
  try {
    module = (await import(url)) as Record<string, unknown>;
  } catch (error) {
    throw new WalkerError(ErrorCodes.PLUGIN, `Plugin '${specifier}' could not be loaded: ${messageOf(error)}`);
  }
  const candidate = module.default ?? module.plugin;
  const plugin: unknown = typeof candidate === 'function' ? await (candidate as () => unknown)() : candidate;
  if (!isWalkerPlugin(plugin)) {
    throw new WalkerError(
      ErrorCodes.PLUGIN,
      `'${specifier}' is not a walker plugin: its default export must be an object with meta.name, meta.version ` +
        'and setup(registries), or a function returning one.',
    );
  }
  return plugin;
}

function resolvePlugin(specifier: string, fromDirectory: string): string {
  const isPath = specifier.startsWith('.') || isAbsolute(specifier);
  const base = isPath ? resolve(fromDirectory, specifier) : specifier;
  try {
    const require = createRequire(join(fromDirectory, 'package.json'));
    return pathToFileURL(require.resolve(base)).href;
  } catch (error) {
    const what = isPath ? `No plugin file or package folder at '${base}'` : `No package '${specifier}' is installed`;
    throw new WalkerError(ErrorCodes.PLUGIN, `${what} (looked from ${fromDirectory}): ${messageOf(error)}`);
  }
}

function messageOf(error: unknown): string {
  const text = error instanceof Error ? error.message : String(error);
  return text.split('\n')[0];
}
