import { mkdirSync, mkdtempSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { dirname, join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { ErrorCodes, WalkerError } from '../../core/errors.js';
import { createRegistries, installPlugins, type WalkerPlugin } from '../../core/plugin.js';
import { loadPlugin } from '../../core/plugin-loader.js';
import { generatorsPlugin } from '../../plugins/generators/index.js';
import { sendJson } from '../server/other-clients.js';
import { runCli, runWalker, serveInProcess } from './online-helpers.js';

/** A project folder with these files (path → text). */
function project(files: Record<string, string>): string {
  const dir = mkdtempSync(join(tmpdir(), 'walker-plugins-'));
  for (const [path, text] of Object.entries(files)) {
    mkdirSync(dirname(join(dir, path)), { recursive: true });
    writeFileSync(join(dir, path), text);
  }
  return dir;
}

const PLUGIN_MODULE = (name: string) =>
  `export default () => ({ meta: { name: '${name}', version: '1.0.0' }, setup(r) { r.generators.register({ name: '${name}', create: () => ({ nextEdge: () => -1 }) }); } });\n`;

async function failure(promise: Promise<unknown>): Promise<WalkerError> {
  const error = await promise.then(() => undefined, (e: unknown) => e);
  expect(error).toBeInstanceOf(WalkerError);
  return error as WalkerError;
}

describe('loading plugin packages', () => {
  it('loads an ESM-only package by name (exports with only an import condition)', async () => {
    const dir = project({
      'node_modules/esm-only/package.json': JSON.stringify({ name: 'esm-only', type: 'module', exports: { '.': { import: './lib/main.js' } } }),
      'node_modules/esm-only/lib/main.js': PLUGIN_MODULE('esm_only'),
    });
    expect((await loadPlugin('esm-only', dir)).meta.name).toBe('esm_only');
  });

  it('loads a scoped package with a plain object as default export', async () => {
    const dir = project({
      'node_modules/@acme/walker-plugin/package.json': JSON.stringify({ name: '@acme/walker-plugin', type: 'module', main: 'main.js' }),
      'node_modules/@acme/walker-plugin/main.js': `export default { meta: { name: 'acme', version: '1' }, setup() {} };\n`,
    });
    expect((await loadPlugin('@acme/walker-plugin', dir)).meta.name).toBe('acme');
  });

  it('loads a package folder by path through its exports, and a module file by path', async () => {
    const dir = project({
      'plugins/folder/package.json': JSON.stringify({ name: 'folder-plugin', type: 'module', exports: { '.': { types: './x.d.ts', default: './src/entry.js' } } }),
      'plugins/folder/src/entry.js': PLUGIN_MODULE('by_folder'),
      'plugins/file.mjs': PLUGIN_MODULE('by_file'),
    });
    expect((await loadPlugin('./plugins/folder', dir)).meta.name).toBe('by_folder');
    expect((await loadPlugin('./plugins/file.mjs', dir)).meta.name).toBe('by_file');
    expect((await loadPlugin(join(dir, 'plugins', 'file.mjs'), '/')).meta.name).toBe('by_file');
  });

  it('says that a package is not installed', async () => {
    const error = await failure(loadPlugin('walker-plugin-nowhere', project({})));
    expect(error.code).toBe(ErrorCodes.PLUGIN);
    expect(error.message).toMatch(/^No package 'walker-plugin-nowhere' is installed \(looked from .+\): install it/);
  });

  it('says that a path leads nowhere', async () => {
    const error = await failure(loadPlugin('./missing-plugin', project({})));
    expect(error.message).toMatch(/^No plugin file or package folder at '.+missing-plugin'/);
  });

  it.each([
    ['a number', 'export default 42;\n'],
    ['an object without setup', "export default { meta: { name: 'x', version: '1' } };\n"],
    ['nothing', 'export const other = 1;\n'],
  ])('says that a module exporting %s is not a plugin', async (_what, text) => {
    const error = await failure(loadPlugin('./p.mjs', project({ 'p.mjs': text })));
    expect(error.message).toBe(
      "'./p.mjs' is not a walker plugin: its default export must be an object with meta.name, meta.version and setup(registries), or a function returning one.",
    );
  });

  it('names the plugin whose module fails to load or whose factory throws', async () => {
    const dir = project({ 'syntax.mjs': 'export default {\n', 'throws.mjs': "export default () => { throw new Error('no config'); };\n" });
    expect((await failure(loadPlugin('./syntax.mjs', dir))).message).toMatch(/^Plugin '.\/syntax.mjs' could not be loaded: /);
    expect((await failure(loadPlugin('./throws.mjs', dir))).message).toBe(
      "Plugin './throws.mjs' failed to create its plugin object: no config",
    );
  });
});

describe('installing plugins', () => {
  const clashing: WalkerPlugin = {
    meta: { name: 'clashing', version: '1' },
    setup: (r) => r.generators.register({ name: 'RANDOM' as 'random', create: () => ({ nextEdge: () => -1 }) }),
  };

  it('names both plugins of a name clash', async () => {
    const error = await failure(installPlugins(createRegistries(), [generatorsPlugin(), clashing]));
    expect(error.code).toBe(ErrorCodes.DUPLICATE_NAME);
    expect(error.message).toBe("The path generator name 'random' of plugin 'clashing' is already registered by plugin 'walker-generators'.");
  });

  it('refuses two plugins of one name', async () => {
    const plugin: WalkerPlugin = { meta: { name: 'twice', version: '1' }, setup() {} };
    const error = await failure(installPlugins(createRegistries(), [plugin, plugin]));
    expect(error.message).toMatch(/^Two plugins are named 'twice'/);
  });

  it('names the plugin whose setup throws', async () => {
    const plugin: WalkerPlugin = {
      meta: { name: 'fragile', version: '1' },
      setup() {
        throw new TypeError('cannot read the config');
      },
    };
    const error = await failure(installPlugins(createRegistries(), [plugin]));
    expect(error.message).toBe("The setup of plugin 'fragile' failed: cannot read the config");
  });
});

describe('walker online --plugin mistakes', () => {
  it.each([
    ['a missing package', 'walker-plugin-nowhere', /^No package 'walker-plugin-nowhere' is installed/],
    ['a missing path', './no/such/plugin', /^No plugin file or package folder at/],
    ['a module that is not a plugin', './package.json', /is not a walker plugin|could not be loaded/],
  ])('reports %s in one line', async (_what, specifier, message) => {
    const argv = ['online', '-s', 'RESTFUL', '-p', '0', '--plugin', specifier];
    const res = await runCli(argv);
    expect(res.code).toBe(2);
    const [graphWalkerLine, reason, ...more] = res.stderr.trimEnd().split('\n');
    expect(graphWalkerLine).toBe(`An error occurred when running command: '${argv.join(' ')}'.`);
    expect(reason).toMatch(message);
    expect(more).toEqual([]);
  });

  it('reports a name clash with a built-in plugin in one line', async () => {
    const dir = project({ 'clash.mjs': PLUGIN_MODULE('random') });
    const argv = ['online', '-s', 'RESTFUL', '-p', '0', '--plugin', join(dir, 'clash.mjs')];
    const res = await runCli(argv);
    expect(res.code).toBe(2);
    expect(res.stderr).toBe(
      `An error occurred when running command: '${argv.join(' ')}'.\n` +
        "The path generator name 'random' of plugin 'random' is already registered by plugin 'walker-generators'.\n",
    );
  });
});

describe("a plugin's format that refuses a model with a plain Error", () => {
  const plugin = ['--plugin', './test/fixtures/plugins/loose-format.mjs'];

  it('is a model error of that file, named with the format, for check', async () => {
    const model = join(project({ 'shop.loose': 'not a model\n' }), 'shop.loose');
    const res = await runCli(['check', '-m', model, 'random(edge_coverage(100))', ...plugin]);
    expect(res.stdout).toBe(`${model}: error: the loose format could not read it: line 1: "not a model" is not a loose model\n`);
    expect(res.stderr).toBe('');
    expect(res.code).toBe(1);
  });

  it('is a 422 of the conversion, named with the format and the file, for the service', async () => {
    const service = await serveInProcess(['-s', 'RESTFUL', '-p', '0', ...plugin]);
    try {
      const converted = await sendJson(service.url, 'POST', '/walker/drafts/convert', { text: 'not a model', file_name: 'shop.loose' });
      expect(converted.status).toBe(422);
      expect(converted.body).toMatchObject({ message: expect.stringContaining('shop.loose: the loose format could not read it: line 1: "not a model" is not a loose model') });
    } finally {
      expect(await service.stop()).toBe(0);
    }
  });
});

describe('a plugin that imports walker-mbt, in the real executable', () => {
  it("throws walker's own ModelError: its refusal reads like any model error, not as a crash", async () => {
    // The plugin's `walker-mbt` resolves to the package's exports, which must be the very modules walker runs
    // (scripts/bundle.mjs): a second copy of core would make its ModelError a stranger to walker.
    const model = join(project({ 'shop.strict': 'not a model\n' }), 'shop.strict');
    const res = await runWalker(['check', '-m', model, 'random(edge_coverage(100))', '--plugin', './test/fixtures/plugins/strict-format.mjs']);
    expect(res.stdout).toBe(`${model}: error: line 1: "not a model" is not a strict model\n`);
    expect(res.stderr).toBe('');
    expect(res.code).toBe(1);
  });
});
