import { mkdirSync, mkdtempSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { discoverRouteFamilies, orderByDependencies, RouteFamilyError } from '../../server/discovery.js';
import type { RouteFamily } from '../../server/route-family.js';
import { call, testApp } from './helpers.js';

function family(name: string, dependencies?: string[]): RouteFamily {
  return { name, prefix: `/${name}`, dependencies, plugin: async () => {} };
}

/** A routes folder with one family folder per entry: file name → module text. */
function routesFolder(families: Record<string, Record<string, string>>): string {
  const dir = mkdtempSync(join(tmpdir(), 'walker-routes-'));
  for (const [name, files] of Object.entries(families)) {
    mkdirSync(join(dir, name));
    for (const [file, text] of Object.entries(files)) writeFileSync(join(dir, name, file), text);
  }
  return dir;
}

const moduleOf = (name: string, extra = '') =>
  `export default { name: '${name}', prefix: '/${name}', plugin: async () => {}${extra} };\n`;

describe('route family discovery', () => {
  it('finds the execution and draft families of this package', async () => {
    const names = (await discoverRouteFamilies()).map((f) => [f.name, f.prefix]);
    expect(names).toContainEqual(['execution', '/walker']);
    expect(names).toContainEqual(['drafts', '/walker/drafts']);
  });

  it('imports index.js, never index.d.ts, and skips folders without an entry', async () => {
    const dir = routesFolder({
      alpha: { 'index.js': moduleOf('alpha'), 'index.d.ts': 'export {};\n' },
      helpers: { 'shared.js': 'export const x = 1;\n' },
    });
    expect((await discoverRouteFamilies(dir)).map((f) => f.name)).toEqual(['alpha']);
  });

  it('orders families after the ones they depend on', async () => {
    const dir = routesFolder({
      alpha: { 'index.js': moduleOf('alpha', ", dependencies: ['zulu']") },
      zulu: { 'index.js': moduleOf('zulu') },
    });
    expect((await discoverRouteFamilies(dir)).map((f) => f.name)).toEqual(['zulu', 'alpha']);
  });

  it('refuses a module whose default export is not a route family', async () => {
    const dir = routesFolder({ bad: { 'index.js': 'export default { name: "bad" };\n' } });
    await expect(discoverRouteFamilies(dir)).rejects.toThrow(/bad.index\.js must export a RouteFamily/);
  });

  it('refuses duplicate names, unknown dependencies and cycles', () => {
    expect(() => orderByDependencies([family('a'), family('a')])).toThrow(RouteFamilyError);
    expect(() => orderByDependencies([family('a', ['nope'])])).toThrow("Route family 'a' depends on 'nope', which does not exist.");
    expect(() => orderByDependencies([family('a', ['b']), family('b', ['a'])])).toThrow('a -> b -> a');
  });

  it('keeps the given order where there are no dependencies', () => {
    const ordered = orderByDependencies([family('c'), family('a', ['b']), family('b')]);
    expect(ordered.map((f) => f.name)).toEqual(['c', 'b', 'a']);
  });
});

describe('route families in one app', () => {
  it('leaves unknown paths under /walker/drafts to the drafts family', async () => {
    const app = await testApp();
    const drafts = await call(app, 'GET', '/walker/drafts/some/unknown/path');
    expect(drafts.status).toBe(404);
    expect(drafts.body.result).toBeUndefined();
    expect(drafts.body.code).toEqual(expect.any(String));
    const execution = await call(app, 'GET', '/walker/unknown');
    expect(execution.status).toBe(404);
    expect(execution.body.result).toBe('nok');
  });

  it('keeps the content-type rules of each family apart', async () => {
    const app = await testApp();
    const draft = await call(app, 'POST', '/walker/drafts', 'not json', { 'content-type': 'text/plain' });
    expect(draft.status).toBe(415);
  });
});
