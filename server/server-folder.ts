import { existsSync } from 'node:fs';
import { fileURLToPath } from 'node:url';

/**
 * The `server/` folder of the build that is running, where its route families, thread entries and the web view's
 * files are found. walker runs in three forms:
 *  - from the TypeScript sources (the test runner): this module is `server/server-folder.ts`;
 *  - from tsc's build (the bench): `dist/server/server-folder.js`;
 *  - from the package's bundle (scripts/bundle.mjs), which the command and the package's exports run: this code
 *    sits in a chunk, `dist/bundle/chunks/`, and the bundle's own entries are in `dist/bundle/server/`.
 * The right one is the first that holds the route families.
 */
export const SERVER_FOLDER: URL = [new URL('./', import.meta.url), new URL('../server/', import.meta.url)].find((folder) =>
  existsSync(fileURLToPath(new URL('routes/', folder))),
) ?? new URL('./', import.meta.url);

/**
 * The first of `paths` (relative to the server folder, one per form that places the file elsewhere) that exists;
 * else the first, so that an error names where a built file should be.
 */
export function serverFile(...paths: readonly string[]): URL {
  const urls = paths.map((path) => new URL(path, SERVER_FOLDER));
  return urls.find((url) => existsSync(fileURLToPath(url))) ?? urls[0];
}
