/**
 * Builds the web view (docs/view.md) into dist/web: the page's TypeScript bundled by esbuild into one script,
 * beside its stylesheet, its HTML and ELK's layout worker. `npm run build` runs it after tsc; the server serves
 * dist/web, and `walker offline --report` inlines the same files into a report (the worker only when a model
 * needs a layout).
 */
import { copyFileSync, mkdirSync, readFileSync, writeFileSync } from 'node:fs';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { build } from 'esbuild';

const root = join(dirname(fileURLToPath(import.meta.url)), '..');
const out = join(root, 'dist', 'web');
mkdirSync(out, { recursive: true });
/** The notice a bundled library's licence asks to travel with its copies: the minifier drops the one it carries. */
function notice(name, licence) {
  const { version, repository } = JSON.parse(readFileSync(join(root, 'node_modules', name, 'package.json'), 'utf8'));
  const source = (typeof repository === 'string' ? repository : repository.url).replace(/^git\+/, '');
  return `${name} ${version}, ${licence}; source: ${source}`;
}

await build({
  entryPoints: [join(root, 'web', 'main.ts')],
  bundle: true,
  minify: true,
  format: 'iife',
  target: 'es2022',
  // A report carries the script inside its page: no source map, no second file.
  sourcemap: false,
  outfile: join(out, 'app.js'),
  banner: { js: `/*! ${notice('@panzoom/panzoom', 'MIT License, Copyright Timmy Willison and other contributors')}; elkjs's API, ${notice('elkjs', 'EPL-2.0')} */` },
  logLevel: 'warning',
});
for (const file of ['index.html', 'app.css']) copyFileSync(join(root, 'web', file), join(out, file));
// ELK's layout runs in a worker of its own, so that laying out a large model never freezes the page: its script
// is ELK's own build for workers, already minified.
const worker = readFileSync(join(root, 'node_modules', 'elkjs', 'lib', 'elk-worker.min.js'), 'utf8');
writeFileSync(join(out, 'elk-worker.js'), `/*! ${notice('elkjs', 'EPL-2.0 (Eclipse Public License 2.0)')} */\n${worker}`);
