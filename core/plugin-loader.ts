import { readFileSync, statSync, type Stats } from 'node:fs';
import { createRequire } from 'node:module';
import { basename, dirname, isAbsolute, join, resolve as absolute } from 'node:path';
import { pathToFileURL } from 'node:url';
import { moduleResolve } from 'import-meta-resolve';
import { ErrorCodes, WalkerError } from './errors.js';
import { isWalkerPlugin, type WalkerPlugin } from './plugin.js';

/**
 * Loads a plugin package by name (resolved from `fromDirectory`, as Node resolves an import of a project
 * there) or by path (a file or a package folder); see {@link resolvePlugin}. The module's default export, or
 * its export named `plugin`, must be a {@link WalkerPlugin} or a function that returns one (it is called
 * without arguments). Every failure is a WalkerError (code PLUGIN) that names the plugin and says what is wrong.
 */
export async function loadPlugin(specifier: string, fromDirectory: string): Promise<WalkerPlugin> {
  const url = resolvePlugin(specifier, fromDirectory);
  let module: Record<string, unknown>;
  try {
    module = (await import(url)) as Record<string, unknown>;
  } catch (error) {
    throw new WalkerError(ErrorCodes.PLUGIN, `Plugin '${specifier}' could not be loaded: ${firstLine(error)}`);
  }
  const candidate = module.default ?? module.plugin;
  let plugin: unknown = candidate;
  if (typeof candidate === 'function') {
    try {
      plugin = await (candidate as () => unknown)();
    } catch (error) {
      throw new WalkerError(ErrorCodes.PLUGIN, `Plugin '${specifier}' failed to create its plugin object: ${firstLine(error)}`);
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

/**
 * The URL of the module a `--plugin` names, as Node would import it from `fromDirectory`: a package name (or a
 * `#` import of the project there) through Node's own ESM resolution, with its `exports` patterns and the
 * `node`, `import` and `default` conditions; a path to a module file; or a path to a package folder. Every
 * failure is a WalkerError (code PLUGIN) that names the plugin, what is wrong and what to do.
 */
function resolvePlugin(specifier: string, fromDirectory: string): string {
  const from = absolute(fromDirectory);
  if (specifier.startsWith('.') || isAbsolute(specifier)) return resolvePath(absolute(from, specifier));
  try {
    return esmResolve(specifier, join(from, 'package.json'));
  } catch (error) {
    throw packageError(specifier, from, error);
  }
}

/** The first line of an error's message; the lines after it (where an import came from, stacks) would bury it. */
function firstLine(error: unknown): string {
  const text = error instanceof Error ? error.message : String(error);
  return text.split('\n')[0];
}

/**
 * Node's ESM resolution of `specifier` from a module at `parentFile` (which need not exist). This is the
 * algorithm behind import-meta-resolve's `resolve`, which, like `import.meta.resolve`, answers a URL even
 * when the file there is missing; this throws instead, so that the message names the missing file.
 */
function esmResolve(specifier: string, parentFile: string): string {
  return moduleResolve(specifier, pathToFileURL(parentFile)).href;
}

/** A plugin given by path: a module file, or a package folder. */
function resolvePath(path: string): string {
  const stats = statOf(path);
  if (stats?.isFile()) return pathToFileURL(path).href;
  if (stats?.isDirectory()) return resolveFolder(path);
  const withExtension = ['.js', '.mjs', '.cjs'].map((ext) => path + ext).find((file) => statOf(file)?.isFile());
  const hint = withExtension
    ? `did you mean '${basename(withExtension)}'? Give a module file with its extension`
    : 'give the path of a module file (with its extension) or of a package folder';
  throw new WalkerError(ErrorCodes.PLUGIN, `No plugin file or package folder at '${path}': ${hint}.`);
}

/**
 * The entry of a package folder given by path, which Node's ESM resolver refuses to import: its `exports`,
 * resolved as the package importing itself by name (so that Node's rules apply, conditions and all), else
 * what Node's CommonJS resolver makes of the folder (`main`, with its extension guesses, else `index.js`).
 */
function resolveFolder(folder: string): string {
  const manifest = readManifest(folder);
  if (manifest?.exports !== undefined && manifest.exports !== null) {
    if (typeof manifest.name !== 'string') {
      const why = 'Node resolves "exports" only through the package\'s name';
      throw new WalkerError(ErrorCodes.PLUGIN, `The package.json in '${folder}' has "exports" but no "name": ${why}; add one.`);
    }
    try {
      return esmResolve(manifest.name, join(folder, 'package.json'));
    } catch (error) {
      throw unexported(error, manifest.name, folder, '.') ?? couldNotResolve(`Package folder '${folder}'`, error);
    }
  }
  try {
    // The trailing separator keeps Node from taking a file `<folder>.js` beside the folder instead.
    return pathToFileURL(createRequire(join(folder, 'package.json')).resolve(join(folder, '/'))).href;
  } catch {
    const what = 'give its package.json an "exports" or "main", or add an index.js';
    throw new WalkerError(ErrorCodes.PLUGIN, `The package folder '${folder}' names no module to load: ${what}.`);
  }
}

/** The error for a package name that Node's resolution refused. */
function packageError(specifier: string, from: string, error: unknown): WalkerError {
  if (specifier.startsWith('#')) return couldNotResolve(`Plugin '${specifier}' (an import of the project at ${from})`, error);
  const name = packageName(specifier);
  const folder = installedFolder(name, from);
  const notExported = unexported(error, name, folder, `.${specifier.slice(name.length)}`);
  if (notExported) return notExported;
  if (folder === undefined) {
    const problem = `No package '${name}' is installed (looked from ${from}): install it, or give a path such as ./${specifier}`;
    return new WalkerError(ErrorCodes.PLUGIN, problem);
  }
  return couldNotResolve(`Package '${name}' at ${folder}`, error);
}

function unexported(error: unknown, name: string, folder: string | undefined, subpath: string): WalkerError | undefined {
  if ((error as NodeJS.ErrnoException).code !== 'ERR_PACKAGE_PATH_NOT_EXPORTED') return undefined;
  const where = folder === undefined ? '' : ` at ${folder}`;
  return new WalkerError(ErrorCodes.PLUGIN, `Package '${name}'${where} does not export '${subpath}' for import.`);
}

function couldNotResolve(what: string, error: unknown): WalkerError {
  return new WalkerError(ErrorCodes.PLUGIN, `${what} could not be resolved: ${firstLine(error)}`);
}

/** `@scope/name/sub` → `@scope/name`; `name/sub` → `name`. */
function packageName(specifier: string): string {
  const parts = specifier.split('/');
  return parts.slice(0, specifier.startsWith('@') ? 2 : 1).join('/');
}

/** Where Node's lookup (`node_modules` folders upwards) finds a package, for messages only. */
function installedFolder(name: string, from: string): string | undefined {
  for (let dir = from; ; dir = dirname(dir)) {
    const folder = join(dir, 'node_modules', name);
    if (statOf(folder)?.isDirectory()) return folder;
    if (dirname(dir) === dir) return undefined;
  }
}

interface Manifest {
  readonly name?: unknown;
  readonly exports?: unknown;
}

function readManifest(folder: string): Manifest | undefined {
  const file = join(folder, 'package.json');
  if (!statOf(file)?.isFile()) return undefined;
  try {
    return JSON.parse(readFileSync(file, 'utf8')) as Manifest;
  } catch (error) {
    throw new WalkerError(ErrorCodes.PLUGIN, `${file} is not valid JSON: ${firstLine(error)}`);
  }
}

function statOf(path: string): Stats | undefined {
  try {
    return statSync(path);
  } catch {
    return undefined;
  }
}
