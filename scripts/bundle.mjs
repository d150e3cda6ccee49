/**
 * Bundles what the package runs into dist/bundle with esbuild, from the modules tsc has built in dist/. Node 20
 * spends about half of a command's start resolving and loading its 1,200 modules one file at a time
 * (docs/benchmarks.md, "Starting walker"); the bundle is a few dozen files. Every module that anything loads at
 * run time is an entry, so that all of them share one copy of each module through the common chunks, and a
 * class is the same class everywhere (a plugin's `ModelError` from `walker-mbt` is walker's own):
 *  - the CLI, which bin/walker.js runs;
 *  - the package's exports (`walker-mbt`, `walker-mbt/plugins`, `walker-mbt/server`, `walker-mbt/runner`);
 *  - each route family, which @fastify/autoload finds in dist/bundle/server/routes at startup;
 *  - the walk and conversion threads' entries (server/thread-plugins.ts).
 * tsc's own modules stay in dist/ for the declarations beside them, and for the tests and the bench.
 */
import { readdirSync, rmSync } from 'node:fs';
import { dirname, join, resolve } from 'node:path';
import { fileURLToPath } from 'node:url';
import { build } from 'esbuild';

const root = join(dirname(fileURLToPath(import.meta.url)), '..');
const dist = join(root, 'dist');
const out = join(dist, 'bundle');
const families = readdirSync(join(dist, 'server', 'routes'), { withFileTypes: true })
  .filter((entry) => entry.isDirectory())
  .map((entry) => join(dist, 'server', 'routes', entry.name, 'index.js'));

const { metafile } = await build({
  entryPoints: [
    join(dist, 'cli', 'main.js'),
    ...['core', 'plugins', 'server', 'runner'].map((entry) => join(dist, entry, 'index.js')),
    ...families,
    join(dist, 'server', 'sessions', 'walk-worker.js'),
    join(dist, 'server', 'conversion', 'conversion-worker.js'),
  ],
  // The metafile's paths are relative to it.
  absWorkingDir: root,
  // Module paths (in chunk names' hashes too) stay inside the checkout even where node_modules is a link.
  preserveSymlinks: true,
  outbase: dist,
  outdir: out,
  chunkNames: 'chunks/[name]-[hash]',
  bundle: true,
  // Shared modules go to common chunks, and a dynamic import stays a load on demand.
  splitting: true,
  format: 'esm',
  platform: 'node',
  target: 'node20',
  // Left to Node's loader, from node_modules:
  // - QuickJS's packages find their WebAssembly files beside their own modules;
  // - tsx and esbuild (`walker run`'s TypeScript loading) run a binary and workers from their package;
  // - pino starts its transports' workers from its package's files;
  // - jsonc-parser's UMD build requires its parts by relative paths that esbuild cannot follow.
  external: ['quickjs-emscripten', 'quickjs-emscripten-core', '@jitl/*', 'tsx', 'tsx/*', 'esbuild', 'pino', 'jsonc-parser'],
  // The CommonJS packages inside call `require` for Node's built-in modules, which an ES module lacks.
  banner: { js: "import { createRequire as __walkerRequire } from 'node:module'; const require = __walkerRequire(import.meta.url);" },
  logLevel: 'warning',
  metafile: true,
});
// Chunks are named by their content, so a rebuild leaves the last build's beside the new ones. They go after the
// build rather than before it, so that a `walker` started meanwhile (the test suite's) never misses a file.
const written = new Set(Object.keys(metafile.outputs).map((path) => resolve(root, path)));
for (const entry of readdirSync(out, { recursive: true, withFileTypes: true })) {
  // `parentPath` from Node 20.12 on; `path` before it.
  const path = join(entry.parentPath ?? entry.path, entry.name);
  if (entry.isFile() && !written.has(path)) rmSync(path);
}
