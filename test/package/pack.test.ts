import { execFileSync } from 'node:child_process';
import { cpSync, mkdirSync, mkdtempSync, readFileSync, rmSync, symlinkSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { dirname, join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { ensureBuilt, ROOT } from '../cli/online-helpers.js';

interface Manifest {
  main: string;
  types: string;
  bin: Record<string, string>;
  exports: Record<string, string | Record<string, string>>;
}

const manifest = JSON.parse(readFileSync(join(ROOT, 'package.json'), 'utf8')) as Manifest;

/**
 * The files `npm pack` would put in the tarball. `--ignore-scripts` skips prepack (which empties dist/) and
 * prepare (which builds it): other test files use dist/ meanwhile, so ensureBuilt builds it under its lock.
 */
function packedFiles(cwd = ROOT, scripts = false): string[] {
  const json = execFileSync('npm', ['pack', '--dry-run', '--json', ...(scripts ? [] : ['--ignore-scripts'])], {
    cwd,
    encoding: 'utf8',
    stdio: ['ignore', 'pipe', 'pipe'],
  });
  const [pack] = JSON.parse(json) as [{ files: { path: string }[] }];
  return pack.files.map((file) => file.path).sort();
}

let checkout: string[] | undefined;

/** This checkout's packed files, listed once for the file: each `npm pack` costs a second or two of CPU. */
function checkoutFiles(): string[] {
  if (checkout === undefined) {
    ensureBuilt();
    checkout = packedFiles();
  }
  return checkout;
}

/** The distinct first `depth` segments of the paths, e.g. `dist/core` for depth 2. */
function entries(paths: readonly string[], depth: number, under = ''): string[] {
  const inside = paths.filter((path) => path.startsWith(under));
  return [...new Set(inside.map((path) => path.split('/').slice(0, depth).join('/')))].sort();
}

describe('npm pack', () => {
  let files: string[];

  beforeAll(() => {
    files = checkoutFiles();
  }, 120_000);

  it('packs exactly the command, the built library, the example models, the deployment examples and the documentation', () => {
    expect(entries(files, 1)).toEqual(['LICENSE', 'README.md', 'bin', 'dist', 'docs', 'examples', 'package.json']);
    expect(entries(files, 2, 'dist/')).toEqual(['dist/bundle', 'dist/core', 'dist/plugins', 'dist/runner', 'dist/server', 'dist/web']);
    // The web view's built page and ELK's layout worker: the server serves them, and offline --report inlines them.
    expect(entries(files, 3, 'dist/web/')).toEqual(['dist/web/app.css', 'dist/web/app.js', 'dist/web/elk-worker.js', 'dist/web/index.html']);
    // examples/deploy: docs/scaling.md links its configurations.
    expect(entries(files, 2, 'examples/')).toEqual(['examples/deploy', 'examples/models']);
    expect(entries(files, 2, 'bin/')).toEqual(['bin/walker.js']);
    expect(files).toContain('examples/models/login.json');
    expect(files).toContain('docs/library.md');
  });

  it('carries no tests, benchmarks, fixtures, sources, source maps or installed packages', () => {
    const unwanted = files.filter(
      (path) =>
        /(^|\/)(test|tests|bench|fixtures|node_modules|\.ci)(\/|$)/.test(path) ||
        /\.test\.[jt]s$/.test(path) ||
        (/\.[cm]?ts$/.test(path) && !/\.d\.[cm]?ts$/.test(path)) ||
        /\.map$/.test(path) ||
        /(^|\/)(tsconfig[^/]*\.json|vitest\.config\.[jt]s|package-lock\.json|\.gitignore|\.build-lock)$/.test(path),
    );
    expect(unwanted).toEqual([]);
  });

  it('has every file package.json names: the bin, main, types and each exports target', () => {
    const named = [
      ...Object.values(manifest.bin),
      manifest.main,
      manifest.types,
      ...Object.values(manifest.exports).flatMap((target) => (typeof target === 'string' ? [target] : Object.values(target))),
    ].map((path) => path.replace(/^\.\//, ''));
    expect(manifest.bin).toEqual({ walker: 'bin/walker.js' });
    expect(Object.keys(manifest.exports)).toEqual(['.', './plugins', './server', './runner', './package.json']);
    expect(named.filter((path) => !files.includes(path))).toEqual([]);
  });

  it("has tsc's declarations for TypeScript users, and tsc's modules only as declarations: what runs is the bundle", () => {
    const declarations = files.filter((path) => /^dist\/(core|plugins|server|runner)\//.test(path));
    expect(declarations.length).toBeGreaterThan(50);
    expect(declarations.filter((path) => !path.endsWith('.d.ts'))).toEqual([]);
  });

  it('has the built CLI entry the bin script imports', () => {
    const bin = readFileSync(join(ROOT, 'bin', 'walker.js'), 'utf8');
    const imported = /from '\.\.\/(dist\/[^']+)'/.exec(bin)?.[1];
    expect(imported).toBe('dist/bundle/cli/main.js');
    expect(files).toContain(imported);
  });
});

describe('npm pack with its scripts, as a publisher runs it', () => {
  let copy: string;

  beforeAll(() => {
    copy = mkdtempSync(join(tmpdir(), 'walker-pack-'));
    // The project's own files, in a folder of their own: prepack empties dist/ and prepare builds it again,
    // which must not happen under the other test files that use this checkout's dist/ meanwhile.
    const listed = execFileSync('git', ['ls-files', '--cached', '--others', '--exclude-standard', '-z'], { cwd: ROOT, encoding: 'utf8' });
    for (const path of listed.split('\0').filter(Boolean)) {
      mkdirSync(join(copy, dirname(path)), { recursive: true });
      cpSync(join(ROOT, path), join(copy, path));
    }
    symlinkSync(join(ROOT, 'node_modules'), join(copy, 'node_modules'), 'dir');
  }, 60_000);

  afterAll(() => {
    if (copy !== undefined) rmSync(copy, { recursive: true, force: true });
  });

  it('empties dist/, builds it again and packs the same files as the checks above', () => {
    // A module left over from an earlier build, where the package would ship it if dist/ were not emptied first.
    mkdirSync(join(copy, 'dist', 'core'), { recursive: true });
    writeFileSync(join(copy, 'dist', 'core', 'stale.js'), '');
    const files = packedFiles(copy, true);
    expect(files).not.toContain('dist/core/stale.js');
    expect(files).toEqual(checkoutFiles());
  }, 180_000);
});
