import { createRequire } from 'node:module';
import { isAbsolute, join, resolve } from 'node:path';
import { pathToFileURL } from 'node:url';
import { ErrorCodes, WalkerError } from './errors.js';
import { isFolder, packageEntry } from './package-entry.js';
import { isWalkerPlugin, type WalkerPlugin } from './plugin.js';

/**
 * Loads a plugin package by name (resolved from `fromDirectory`, as Node resolves a dependency of a project
 * there) or by path (a file or a package folder). The module's default export, or its export named
 * `plugin`, must be a {@link WalkerPlugin} or a function that returns one (it is called without arguments).
 * Every failure is a WalkerError (code PLUGIN) that names the plugin and says what is wrong.
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
  let plugin: unknown = candidate;
  if (typeof candidate === 'function') {
    try {
      plugin = await (candidate as () => unknown)();
    } catch (error) {
      throw new WalkerError(ErrorCodes.PLUGIN, `Plugin '${specifier}' failed to create its plugin object: ${messageOf(error)}`);
    }
  }
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
  const file = isPath ? resolvePath(resolve(fromDirectory, specifier), fromDirectory) : resolvePackage(specifier, fromDirectory);
  return pathToFileURL(file).href;
}

/** A plugin given by path: a module file, or a package folder whose package.json names its entry. */
function resolvePath(path: string, fromDirectory: string): string {
  const entry = isFolder(path) ? asPluginError(() => packageEntry(path)) : undefined;
  if (entry !== undefined) return entry;
  try {
    return createRequire(join(fromDirectory, 'package.json')).resolve(path);
  } catch (error) {
    const what = isFolder(path) ? `The folder '${path}' has no package.json entry or index.js` : `No plugin file or package folder at '${path}'`;
    throw new WalkerError(ErrorCodes.PLUGIN, `${what}: ${messageOf(error)}`);
  }
}

/**
 * A plugin given by package name, resolved as Node resolves an import from `fromDirectory`. ESM-only packages
 * (`exports` with only an `import` condition) are found by their folder, which CommonJS resolution skips.
 */
function resolvePackage(specifier: string, fromDirectory: string): string {
  const require = createRequire(join(fromDirectory, 'package.json'));
  try {
    return require.resolve(specifier);
  } catch {
    const { name, subpath } = splitSpecifier(specifier);
    for (const base of require.resolve.paths(name) ?? []) {
      const folder = join(base, name);
      if (!isFolder(folder)) continue;
      const entry = asPluginError(() => packageEntry(folder, subpath));
      if (entry !== undefined) return entry;
      throw new WalkerError(ErrorCodes.PLUGIN, `Package '${name}' at ${folder} does not export '${subpath}' for import.`);
    }
    throw new WalkerError(
      ErrorCodes.PLUGIN,
      `No package '${specifier}' is installed (looked from ${fromDirectory}): install it, or give a path such as ./${specifier}`,
    );
  }
}

/** `@scope/name/sub` → name `@scope/name`, subpath `sub`; `name` → subpath `.`. */
function splitSpecifier(specifier: string): { name: string; subpath: string } {
  const parts = specifier.split('/');
  const length = specifier.startsWith('@') ? 2 : 1;
  const subpath = parts.slice(length).join('/');
  return { name: parts.slice(0, length).join('/'), subpath: subpath === '' ? '.' : subpath };
}

function asPluginError<T>(find: () => T): T | undefined {
  try {
    return find();
  } catch (error) {
    throw new WalkerError(ErrorCodes.PLUGIN, messageOf(error));
  }
}

function messageOf(error: unknown): string {
  const text = error instanceof Error ? error.message : String(error);
  return text.split('\n')[0];
}
