import { existsSync, readFileSync } from 'node:fs';

/** The package's name on npm; the command it installs is `walker`. */
export const PACKAGE_NAME = 'walker-mbt';

/**
 * walker's version, read once from the package.json above this module (`core/` in the sources, `dist/core`
 * built, `dist/bundle/chunks` in the command's bundle), so that `walker --version`, the OpenAPI document and the bundled plugins never disagree with it.
 */
export const VERSION: string = readVersion();

function readVersion(): string {
  for (const path of ['../package.json', '../../package.json', '../../../package.json']) {
    const file = new URL(path, import.meta.url);
    if (!existsSync(file)) continue;
    const manifest = JSON.parse(readFileSync(file, 'utf8')) as { name?: string; version?: string };
    if (manifest.name === PACKAGE_NAME && typeof manifest.version === 'string') return manifest.version;
  }
  // Bundled into someone else's build, the package.json is not beside the code: the version is then unknown,
  // which must not stop the engine from loading.
  return '0.0.0';
}
