import { mkdirSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import Fastify from 'fastify';
import { afterAll, describe, expect, it } from 'vitest';
import { registerRouteFamilies } from '../../server/discovery.js';
import type { RouteFamily } from '../../server/route-family.js';
import { call, testApp } from './helpers.js';

const folders: string[] = [];
afterAll(() => {
  for (const folder of folders) rmSync(folder, { recursive: true, force: true });
});

/** The routes folder of an ES module package, with one family folder per entry: file name → module text. */
function routesFolder(families: Record<string, Record<string, string>>): string {
  const root = mkdtempSync(join(tmpdir(), 'walker-routes-'));
  folders.push(root);
  writeFileSync(join(root, 'package.json'), '{"type": "module"}\n');
  const dir = join(root, 'routes');
  mkdirSync(dir);
  for (const [name, files] of Object.entries(families)) {
    mkdirSync(join(dir, name));
    for (const [file, text] of Object.entries(files)) writeFileSync(join(dir, name, file), text);
  }
  return dir;
}

/** The module of the real `routeFamily`, which the family entries below import as a family of walker does. */
const ROUTE_FAMILY = new URL('../../server/route-family.ts', import.meta.url).href;

/** A family entry that serves `GET <prefix>/`. */
const familyModule = (name: string, prefix: string) => `
import { routeFamily } from '${ROUTE_FAMILY}';
export default routeFamily({ name: '${name}', prefix: '${prefix}', plugin: async (scope) => { scope.get('/', async () => ({ family: '${name}' })); } });
`;

/** A module that must never be registered: a plugin would fail the start. */
const notAFamily = 'export default async function () { throw new Error("registered a module that is no family entry"); }\n';

describe('route family discovery (@fastify/autoload)', () => {
  it('registers the index of each family folder under the prefix the family gives, and nothing else of the folder', async () => {
    const dir = routesFolder({
      alpha: { 'index.js': familyModule('alpha', '/api/alpha'), 'index.d.ts': 'export {};\n', 'helper.js': notAFamily },
      helpers: { 'shared.js': notAFamily },
    });
    const app = Fastify();
    const families: RouteFamily[] = [];
    await registerRouteFamilies(app, families, dir);
    await app.ready();
    expect(families.map((f) => f.name)).toEqual(['alpha']);
    expect((await app.inject({ method: 'GET', url: '/api/alpha/' })).json()).toEqual({ family: 'alpha' });
    expect((await app.inject({ method: 'GET', url: '/alpha/' })).statusCode).toBe(404);
    await app.close();
  });

  it('refuses two families of one name at startup', async () => {
    const dir = routesFolder({ one: { 'index.js': familyModule('same', '/one') }, two: { 'index.js': familyModule('same', '/two') } });
    const app = Fastify();
    await expect(registerRouteFamilies(app, [], dir)).rejects.toThrow("Two route families are named 'same'.");
    await app.close();
  });
});

describe('route families in one app', () => {
  it('finds every family of this package, each under its prefix', async () => {
    const app = await testApp();
    expect((await call(app, 'GET', '/walker/hasNext')).body).toEqual({ result: 'nok', error: expect.any(String) });
    expect((await call(app, 'GET', '/graphwalker/hasNext')).body).toEqual({ result: 'nok', error: expect.any(String) });
    expect((await call(app, 'GET', '/walker/sessions')).body).toEqual({ sessions: [] });
    expect((await call(app, 'POST', '/walker/drafts')).status).toBe(201);
    expect((await call(app, 'GET', '/walker/view/session')).status).toBe(200);
    expect((await call(app, 'GET', '/walker/login')).body).toEqual({ required: false, authorized: true });
    expect((await app.inject({ method: 'GET', url: '/' })).statusCode).toBe(200);
    const tags = ((await call(app, 'GET', '/openapi.json')).body.tags as Array<{ name: string }>).map((t) => t.name);
    expect(tags).toEqual([...tags].sort((a, b) => (a === 'service' ? 1 : b === 'service' ? -1 : a.localeCompare(b))));
    expect(tags).toEqual(expect.arrayContaining(['drafts', 'sessions', 'view', 'login', 'service']));
  });

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
