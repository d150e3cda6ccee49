import { existsSync, readFileSync, statSync } from 'node:fs';
import { join } from 'node:path';

/** Conditions of an ESM `import` under Node, in the order Node matches them. */
const IMPORT_CONDITIONS = ['import', 'node', 'default'];

/**
 * The file an ESM `import` of a package folder loads: its `exports` for `.` (or the given subpath) under the
 * import conditions, else its `main`, else `index.js`. Node's CommonJS resolver, which `require.resolve`
 * uses, ignores `exports` for a folder given by path and skips `import`-only exports, so plugin packages that
 * are ESM (as the documented example is) need this. Returns undefined when the package names no such file.
 */
export function packageEntry(folder: string, subpath = '.'): string | undefined {
  const manifest = readManifest(folder);
  if (manifest?.exports !== undefined) {
    const target = exportTarget(manifest.exports, subpath);
    return target === undefined ? undefined : existing(join(folder, target));
  }
  if (subpath !== '.') return existing(join(folder, subpath));
  if (typeof manifest?.main === 'string') return existing(join(folder, manifest.main)) ?? existing(join(folder, manifest.main, 'index.js'));
  return existing(join(folder, 'index.js'));
}

/** True when the path is a folder. */
export function isFolder(path: string): boolean {
  try {
    return statSync(path).isDirectory();
  } catch {
    return false;
  }
}

interface Manifest {
  readonly main?: unknown;
  readonly exports?: unknown;
}

function readManifest(folder: string): Manifest | undefined {
  const file = join(folder, 'package.json');
  if (!existsSync(file)) return undefined;
  try {
    return JSON.parse(readFileSync(file, 'utf8')) as Manifest;
  } catch (error) {
    throw new Error(`${file} is not valid JSON: ${(error as Error).message}`);
  }
}

/** The target of `subpath` in an `exports` field: a string, a subpath map, or nested condition objects. */
function exportTarget(exports: unknown, subpath: string): string | undefined {
  if (typeof exports === 'string' || Array.isArray(exports)) return subpath === '.' ? conditional(exports) : undefined;
  if (typeof exports !== 'object' || exports === null) return undefined;
  const keys = Object.keys(exports);
  const isSubpathMap = keys.some((k) => k.startsWith('.'));
  if (!isSubpathMap) return subpath === '.' ? conditional(exports) : undefined;
  const key = subpath === '.' ? '.' : `./${subpath.replace(/^\.\//, '')}`;
  return conditional((exports as Record<string, unknown>)[key]);
}

function conditional(value: unknown): string | undefined {
  if (typeof value === 'string') return value;
  if (Array.isArray(value)) return value.map(conditional).find((v) => v !== undefined);
  if (typeof value !== 'object' || value === null) return undefined;
  const map = value as Record<string, unknown>;
  for (const [condition, target] of Object.entries(map)) {
    if (!IMPORT_CONDITIONS.includes(condition)) continue;
    const found = conditional(target);
    if (found !== undefined) return found;
  }
  return undefined;
}

function existing(path: string): string | undefined {
  return existsSync(path) && !isFolder(path) ? path : undefined;
}
