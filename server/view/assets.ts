import { existsSync } from 'node:fs';
import { fileURLToPath } from 'node:url';

/**
 * The folder of the web view's built files (`npm run build` writes them with web/build.mjs): `dist/web`
 * beside the built server, which is `../../web` from this module in dist/ and `../../dist/web` from its
 * TypeScript source (the test runner's).
 */
export function webAssetsDirectory(): string {
  const beside = fileURLToPath(new URL('../../web/', import.meta.url));
  if (existsSync(`${beside}app.js`)) return beside;
  return fileURLToPath(new URL('../../dist/web/', import.meta.url));
}

/** The files `npm run build` writes for the view: its page, script and stylesheet, and ELK's layout worker. */
export const WEB_FILES = ['index.html', 'app.js', 'app.css', 'elk-worker.js'] as const;

/** Why the view cannot be shown from `directory`, or undefined when its files are there. */
export function missingAssets(directory: string): string | undefined {
  const missing = WEB_FILES.filter((file) => !existsSync(`${directory}${file}`));
  if (missing.length === 0) return undefined;
  return `The web view is not built (${missing.join(', ')} missing in ${directory}): run npm run build.`;
}
