import { mkdirSync, mkdtempSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { dirname, join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { ErrorCodes, WalkerError } from '../../core/errors.js';
import { loadPlugin } from '../../core/plugin-loader.js';

/** A project folder with these files (path → text, or an object written as package.json-style JSON). */
function project(files: Record<string, string | object>): string {
  const dir = mkdtempSync(join(tmpdir(), 'walker-plugin-loader-'));
  for (const [path, content] of Object.entries(files)) {
    mkdirSync(dirname(join(dir, path)), { recursive: true });
    writeFileSync(join(dir, path), typeof content === 'string' ? content : JSON.stringify(content));
  }
  return dir;
}

/** An ESM module whose default export makes a plugin named `name`. */
const plugin = (name: string) => `export default () => ({ meta: { name: '${name}', version: '1.0.0' }, setup() {} });\n`;

async function nameOf(specifier: string, from: string): Promise<string> {
  return (await loadPlugin(specifier, from)).meta.name;
}

async function failure(promise: Promise<unknown>): Promise<WalkerError> {
  const error = await promise.then(
    () => undefined,
    (e: unknown) => e,
  );
  expect(error).toBeInstanceOf(WalkerError);
  expect((error as WalkerError).code).toBe(ErrorCodes.PLUGIN);
  return error as WalkerError;
}

describe('loadPlugin by package name', () => {
  it('follows an exports pattern "./*" to a subpath', async () => {
    const dir = project({
      'node_modules/patterned/package.json': { name: 'patterned', type: 'module', exports: { './*': './lib/*.js' } },
      'node_modules/patterned/lib/round.js': plugin('round'),
    });
    expect(await nameOf('patterned/round', dir)).toBe('round');
  });

  it('picks the import condition over default, and default when no other matches', async () => {
    const dir = project({
      'node_modules/both/package.json': {
        name: 'both',
        exports: { '.': { require: './cjs.cjs', import: './esm.mjs', default: './fallback.mjs' } },
      },
      'node_modules/both/esm.mjs': plugin('from_import'),
      'node_modules/browserish/package.json': { name: 'browserish', exports: { browser: './web.mjs', default: './node.mjs' } },
      'node_modules/browserish/node.mjs': plugin('from_default'),
    });
    expect(await nameOf('both', dir)).toBe('from_import');
    expect(await nameOf('browserish', dir)).toBe('from_default');
  });

  it('loads an ESM-only package, from a folder below the project too', async () => {
    const dir = project({
      'node_modules/esm-only/package.json': { name: 'esm-only', type: 'module', exports: { import: './main.js' } },
      'node_modules/esm-only/main.js': plugin('esm_only'),
      'src/deep/.keep': '',
    });
    expect(await nameOf('esm-only', join(dir, 'src', 'deep'))).toBe('esm_only');
  });

  it('loads a CommonJS package that has only a main', async () => {
    const dir = project({
      'node_modules/@acme/old-style/package.json': { name: '@acme/old-style', main: 'lib/plugin.js' },
      'node_modules/@acme/old-style/lib/plugin.js': "module.exports = { meta: { name: 'old_style', version: '1' }, setup() {} };\n",
    });
    expect(await nameOf('@acme/old-style', dir)).toBe('old_style');
  });

  it('follows the project\'s own "imports"', async () => {
    const dir = project({
      'package.json': { name: 'my-tests', imports: { '#walker-plugin': './tools/plugin.mjs' } },
      'tools/plugin.mjs': plugin('imported'),
    });
    expect(await nameOf('#walker-plugin', dir)).toBe('imported');
  });

  it('says which subpath a package does not export', async () => {
    const dir = project({
      'node_modules/narrow/package.json': { name: 'narrow', exports: { '.': './index.js' } },
      'node_modules/narrow/index.js': plugin('narrow'),
      'node_modules/narrow/sub.js': plugin('sub'),
      'node_modules/require-only/package.json': { name: 'require-only', exports: { require: './index.cjs' } },
    });
    const folder = join(dir, 'node_modules', 'narrow');
    expect((await failure(loadPlugin('narrow/sub', dir))).message).toBe(`Package 'narrow' at ${folder} does not export './sub' for import.`);
    expect((await failure(loadPlugin('require-only', dir))).message).toBe(
      `Package 'require-only' at ${join(dir, 'node_modules', 'require-only')} does not export '.' for import.`,
    );
  });

  it('says that a package is not installed, and what to do', async () => {
    const dir = project({});
    expect((await failure(loadPlugin('walker-plugin-nowhere', dir))).message).toBe(
      `No package 'walker-plugin-nowhere' is installed (looked from ${dir}): install it, or give a path such as ./walker-plugin-nowhere`,
    );
  });

  it('names the file an export points to when it is missing', async () => {
    const dir = project({ 'node_modules/hollow/package.json': { name: 'hollow', exports: './gone.js' } });
    const error = await failure(loadPlugin('hollow', dir));
    expect(error.message).toMatch(/^Package 'hollow' at .+hollow could not be resolved: Cannot find module '.+gone\.js'/);
  });
});

describe('loadPlugin by path', () => {
  it('loads a package folder through its own exports, as the package importing itself', async () => {
    const dir = project({
      'plugins/named/package.json': { name: 'named', exports: { '.': { types: './x.d.ts', import: './src/entry.mjs' } } },
      'plugins/named/src/entry.mjs': plugin('by_exports'),
    });
    expect(await nameOf('./plugins/named', dir)).toBe('by_exports');
  });

  it('loads a package folder through its main, else its index.js', async () => {
    const dir = project({
      'with-main/package.json': { type: 'module', main: 'entry.js' },
      'with-main/entry.js': plugin('by_main'),
      'bare/index.js': plugin('by_index').replace('export default', 'module.exports ='),
    });
    expect(await nameOf('./with-main', dir)).toBe('by_main');
    expect(await nameOf(join(dir, 'bare'), '/')).toBe('by_index');
  });

  it('says what a folder lacks', async () => {
    const dir = project({
      'nameless/package.json': { exports: './index.js' },
      'empty/package.json': { name: 'empty' },
    });
    expect((await failure(loadPlugin('./nameless', dir))).message).toBe(
      `The package.json in '${join(dir, 'nameless')}' has "exports" but no "name": ` +
        'Node resolves "exports" only through the package\'s name; add one.',
    );
    expect((await failure(loadPlugin('./empty', dir))).message).toBe(
      `The package folder '${join(dir, 'empty')}' names no module to load: ` +
        'give its package.json an "exports" or "main", or add an index.js.',
    );
  });

  it('suggests the extension of a module file given without one', async () => {
    const dir = project({ 'p.mjs': plugin('p') });
    expect((await failure(loadPlugin('./p', dir))).message).toBe(
      `No plugin file or package folder at '${join(dir, 'p')}': did you mean 'p.mjs'? Give a module file with its extension.`,
    );
    expect((await failure(loadPlugin('./q', dir))).message).toBe(
      `No plugin file or package folder at '${join(dir, 'q')}': ` +
        'give the path of a module file (with its extension) or of a package folder.',
    );
  });
});
