import { existsSync } from 'node:fs';
import { fileURLToPath } from 'node:url';
import { serverFile } from '../server-folder.js';

/**
 * The folder of the web view's built files (`npm run build` writes them with web/build.mjs): `dist/web`, which
 * is `../web` from tsc's `dist/server`, `../dist/web` from the TypeScript sources' `server` (the test runner's)
 * and `../../web` from the bundle's `dist/bundle/server`.
 */
export function webAssetsDirectory(): string {
  return fileURLToPath(new URL('./', serverFile('../web/app.js', '../dist/web/app.js', '../../web/app.js')));
}

/** The files `npm run build` writes for the view: its page, script and stylesheet, and ELK's layout worker. */
export const WEB_FILES = ['index.html', 'app.js', 'app.css', 'elk-worker.js'] as const;

/** Why the view cannot be shown from `directory`, or undefined when its files are there. */
export function missingAssets(directory: string): string | undefined {
  const missing = WEB_FILES.filter((file) => !existsSync(`${directory}${file}`));
  if (missing.length === 0) return undefined;
  return `The web view is not built (${missing.join(', ')} missing in ${directory}): run npm run build.`;
}
