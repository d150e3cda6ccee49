import { existsSync } from 'node:fs';
import { readdir } from 'node:fs/promises';
import { join } from 'node:path';
import { fileURLToPath, pathToFileURL } from 'node:url';
import type { RouteFamily } from './route-family.js';

/** The `routes/` folder beside this module: `server/routes` under the TS sources, `dist/server/routes` built. */
export const ROUTES_DIRECTORY = fileURLToPath(new URL('./routes/', import.meta.url));

/**
 * The entry module of a family folder. Built code has `index.js` (beside an `index.d.ts`, which is never an
 * entry); tests run the TypeScript sources, which have `index.ts`.
 */
const ENTRY_NAMES = ['index.js', 'index.ts'];

/** An error in the route families themselves: a programming mistake, reported at startup. */
export class RouteFamilyError extends Error {
  override readonly name = 'RouteFamilyError';
}

/** True when the value has the shape of a {@link RouteFamily}. */
export function isRouteFamily(value: unknown): value is RouteFamily {
  if (typeof value !== 'object' || value === null) return false;
  const f = value as Partial<Record<keyof RouteFamily, unknown>>;
  return (
    typeof f.name === 'string' &&
    typeof f.prefix === 'string' &&
    typeof f.plugin === 'function' &&
    (f.dependencies === undefined || (Array.isArray(f.dependencies) && f.dependencies.every((d) => typeof d === 'string')))
  );
}

/**
 * Imports the default export of `<directory>/<family>/index.(js|ts)` for every sub-folder that has one
 * (folders without an entry, e.g. shared helpers, are skipped) and returns the families in registration order.
 */
export async function discoverRouteFamilies(directory: string = ROUTES_DIRECTORY): Promise<RouteFamily[]> {
  const entries = await readdir(directory, { withFileTypes: true });
  const families: RouteFamily[] = [];
  for (const entry of entries.filter((e) => e.isDirectory()).sort((a, b) => a.name.localeCompare(b.name))) {
    const file = ENTRY_NAMES.map((name) => join(directory, entry.name, name)).find((path) => existsSync(path));
    if (file === undefined) continue;
    const module = (await import(pathToFileURL(file).href)) as { default?: unknown };
    if (!isRouteFamily(module.default)) {
      throw new RouteFamilyError(`${file} must export a RouteFamily ({ name, prefix, plugin, dependencies? }) as default.`);
    }
    families.push(module.default);
  }
  return orderByDependencies(families);
}

/**
 * Orders families so that each comes after the families it depends on; ties keep the given order. Throws on
 * a duplicate name, an unknown dependency or a cycle.
 */
export function orderByDependencies(families: readonly RouteFamily[]): RouteFamily[] {
  const byName = new Map<string, RouteFamily>();
  for (const family of families) {
    if (byName.has(family.name)) throw new RouteFamilyError(`Two route families are named '${family.name}'.`);
    byName.set(family.name, family);
  }
  const ordered: RouteFamily[] = [];
  const state = new Map<string, 'visiting' | 'done'>();
  const visit = (family: RouteFamily, path: readonly string[]): void => {
    if (state.get(family.name) === 'done') return;
    if (state.get(family.name) === 'visiting') {
      throw new RouteFamilyError(`Route families depend on each other in a cycle: ${[...path, family.name].join(' -> ')}.`);
    }
    state.set(family.name, 'visiting');
    for (const name of family.dependencies ?? []) {
      const dependency = byName.get(name);
      if (dependency === undefined) {
        throw new RouteFamilyError(`Route family '${family.name}' depends on '${name}', which does not exist.`);
      }
      visit(dependency, [...path, family.name]);
    }
    state.set(family.name, 'done');
    ordered.push(family);
  };
  for (const family of families) visit(family, []);
  return ordered;
}
