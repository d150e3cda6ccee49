import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import semver from 'semver';
import { describe, expect, it } from 'vitest';
import { ROOT } from '../cli/online-helpers.js';

interface LockEntry {
  version?: string;
  dev?: boolean;
  engines?: { node?: string } | string[];
}

const lock = JSON.parse(readFileSync(join(ROOT, 'package-lock.json'), 'utf8')) as { packages: Record<string, LockEntry> };
const manifest = JSON.parse(readFileSync(join(ROOT, 'package.json'), 'utf8')) as { engines: { node: string } };

/** Each locked package with an `engines.node` range: its folder in node_modules and the range. */
const ranges = Object.entries(lock.packages).flatMap(([path, entry]) => {
  const node = Array.isArray(entry.engines) ? undefined : entry.engines?.node;
  return node === undefined ? [] : [{ path: path === '' ? '(walker-mbt)' : path, node, dev: entry.dev === true }];
});

/** npm warns EBADENGINE exactly when this fails (npm-install-checks tests prereleases too). */
const accepts = (range: string, version: string): boolean => semver.satisfies(version, range, { includePrerelease: true });

describe('engines of the installed packages', () => {
  it('reads the ranges from package-lock.json', () => {
    expect(ranges.length).toBeGreaterThan(10);
    expect(ranges.map((entry) => entry.path)).toEqual(expect.arrayContaining(['node_modules/cookie', 'node_modules/vitest']));
  });

  it(`all accept the running Node ${process.version}, so npm ci warns no EBADENGINE`, () => {
    const refusing = ranges.filter((entry) => !accepts(entry.node, process.version));
    expect(refusing.map((entry) => `${entry.path} wants node ${entry.node}`)).toEqual([]);
  });

  it(`those walker-mbt runs with accept every Node its engines allow (${manifest.engines.node})`, () => {
    const runtime = ranges.filter((entry) => !entry.dev);
    expect(runtime.length).toBeGreaterThan(5);
    const narrower = runtime.filter((entry) => !semver.subset(manifest.engines.node, entry.node, { includePrerelease: true }));
    expect(narrower.map((entry) => `${entry.path} wants node ${entry.node}`)).toEqual([]);
  });
});
