import { Writable } from 'node:stream';
import { describe, expect, it } from 'vitest';
import type { WalkerPlugin } from '../../core/plugin.js';
import { call, load, nok, testApp } from './helpers.js';
import { deadEnd, loop, withoutGenerator } from './models.js';

const NOT_LOADED = 'No model(s) are loaded.';

/** Every execution endpoint but load, with a method it takes. */
const NEED_A_MODEL: Array<[string, string]> = [
  ['GET', '/walker/hasNext'],
  ['GET', '/walker/getNext'],
  ['GET', '/walker/getData'],
  ['PUT', '/walker/setData/x%3D1%3B'],
  ['PUT', '/walker/restart'],
  ['PUT', '/walker/fail/because'],
  ['GET', '/walker/getStatistics'],
  ['POST', '/walker/getStatistics'],
];

describe('execution endpoints: failures', () => {
  it.each(NEED_A_MODEL)('%s %s answers nok before any load', async (method, url) => {
    const app = await testApp();
    const res = await call(app, method as 'GET', url);
    expect(res.status).toBe(200);
    expect(res.type).toBe('application/json; charset=utf-8');
    expect(res.body).toEqual(nok(NOT_LOADED));
  });

  it('refuses a model without generator and changes nothing', async () => {
    const app = await testApp();
    expect((await load(app, withoutGenerator())).body).toEqual(nok('Model has no generator specified'));
    expect((await call(app, 'GET', '/walker/hasNext')).body).toEqual(nok(NOT_LOADED));
  });

  it('names the missing generator first, even in a model with other problems', async () => {
    const app = await testApp();
    const bare = { models: [{ id: 'bare', vertices: [], edges: [] }] };
    expect((await load(app, bare)).body).toEqual(nok('Model has no generator specified'));
  });

  it('keeps the loaded model, position and data when a load fails', async () => {
    const app = await testApp();
    await load(app, loop());
    await call(app, 'GET', '/walker/getNext');
    await call(app, 'PUT', '/walker/setData/count%3D7%3B');
    for (const bad of ['{ "models": ', '[]', '', JSON.stringify(withoutGenerator())]) {
      const res = await load(app, bad);
      expect(res.status).toBe(200);
      expect(res.body.result).toBe('nok');
      expect(res.body.error).toEqual(expect.any(String));
    }
    expect((await call(app, 'GET', '/walker/getData')).body).toEqual({ result: 'ok', data: 'count=7' });
    expect((await call(app, 'GET', '/walker/getNext')).body).toMatchObject({ currentElementID: 'v0' });
  });

  it('names the problem of a model that is not JSON', async () => {
    const app = await testApp();
    const res = await load(app, '{ "models": [ }');
    expect(res.body.result).toBe('nok');
    expect(res.body.error).toMatch(/line 1, column \d+/i);
  });

  it('refuses getNext once the stop condition is fulfilled, and changes nothing', async () => {
    const app = await testApp();
    await load(app, loop('random(length(2))'));
    await call(app, 'GET', '/walker/getNext');
    await call(app, 'GET', '/walker/getNext');
    const res = await call(app, 'GET', '/walker/getNext');
    expect(res).toMatchObject({ status: 200, body: nok('No more steps available: the stop condition is fulfilled.') });
    expect((await call(app, 'GET', '/walker/getStatistics')).body).toMatchObject({ totalNumberOfVisitedVertices: 1 });
  });

  it('reports a dead end, and hasNext is "false" afterwards', async () => {
    const app = await testApp();
    await load(app, deadEnd());
    for (let i = 0; i < 4; i++) await call(app, 'GET', '/walker/getNext');
    expect((await call(app, 'GET', '/walker/getNext')).body).toEqual(nok('Could not find a valid path from element: v_End (v1)'));
    expect((await call(app, 'GET', '/walker/hasNext')).body).toEqual({ result: 'ok', hasNext: 'false' });
  });

  it("answers a script error of setData with the script's message", async () => {
    const app = await testApp();
    await load(app, loop());
    const res = await call(app, 'PUT', '/walker/setData/x%20%3D%20y%3B');
    expect(res.status).toBe(200);
    // The engine's own text; QuickJS quotes the name (`'y' is not defined`), GraalJS does not.
    expect(res.body).toEqual(nok(expect.stringMatching(/^ReferenceError: '?y'? is not defined$/) as unknown as string));
  });

  it('names the model and getData when reading the variables runs a script past a limit', async () => {
    const app = await testApp({ scriptLimits: { timeoutMs: 50 } });
    const file = loop();
    const [start, ...edges] = file.models[0].edges ?? [];
    // getData formats an object as JSON, which calls its toJSON: a script that runs when nothing else does.
    const looping = { ...start, actions: ['count = 0; slow = { toJSON: function () { for (;;) {} } };'] };
    await load(app, { ...file, models: [{ ...file.models[0], id: 'shop', edges: [looping, ...edges] }] });
    await call(app, 'GET', '/walker/getNext');
    const res = await call(app, 'GET', '/walker/getData');
    expect(res.body).toEqual(nok("model 'shop', getData: Script exceeded the time limit of 50 ms"));
  });

  it('answers an unexpected error with a short message, never a stack trace', async () => {
    const broken: WalkerPlugin = {
      meta: { name: 'broken', version: '0' },
      setup(registries) {
        registries.generators.register({
          name: 'broken' as 'random',
          create: () => ({
            nextEdge() {
              throw new TypeError('something inside broke');
            },
          }),
        });
      },
    };
    const log: string[] = [];
    const stream = new Writable({ write: (chunk, _encoding, done) => (log.push(String(chunk)), done()) });
    const app = await testApp({ plugins: [broken], logger: { level: 'error', stream } });
    await load(app, loop('broken(length(5))'));
    await call(app, 'GET', '/walker/getNext');
    await call(app, 'GET', '/walker/getNext');
    const res = await call(app, 'GET', '/walker/getNext');
    expect(res.status).toBe(200);
    expect(res.body).toEqual(nok('Unexpected error: something inside broke'));
    expect(log).toHaveLength(1);
    expect(JSON.parse(log[0])).toMatchObject({ level: 50, err: { message: 'something inside broke', stack: expect.any(String) } });
  });
});

describe('execution endpoints: HTTP', () => {
  it('answers an unknown path under /walker with 404 and a nok body', async () => {
    const app = await testApp();
    const res = await call(app, 'GET', '/walker/getNxt');
    expect(res.status).toBe(404);
    expect(res.type).toBe('application/json; charset=utf-8');
    expect(res.body).toEqual(nok('No such endpoint: GET /walker/getNxt'));
    expect((await call(app, 'GET', '/walker')).status).toBe(404);
    expect((await call(app, 'PUT', '/walker/setData')).status).toBe(404);
  });

  it.each([
    ['GET', '/walker/load', 'POST'],
    ['POST', '/walker/hasNext', 'GET'],
    ['DELETE', '/walker/getNext', 'GET'],
    ['GET', '/walker/restart', 'PUT'],
    ['GET', '/walker/setData/x%3D1', 'PUT'],
    ['POST', '/walker/fail/reason', 'PUT'],
    ['PUT', '/walker/getStatistics', 'GET, POST'],
  ])('answers %s %s with 405, naming %s', async (method, url, allow) => {
    const app = await testApp();
    const res = await call(app, method as 'GET', url);
    expect(res.status).toBe(405);
    expect(res.raw.headers.allow).toBe(allow);
    expect(res.body).toEqual(nok(`Method ${method} is not allowed on ${url}; use ${allow}.`));
  });

  it('answers HEAD with 405 rather than take a step', async () => {
    const app = await testApp();
    await load(app, loop());
    const res = await app.inject({ method: 'HEAD', url: '/walker/getNext' });
    expect(res.statusCode).toBe(405);
    expect(res.headers.allow).toBe('GET');
    expect((await call(app, 'GET', '/walker/getNext')).body).toMatchObject({ currentElementID: 'e0' });
  });

  it('answers a URL with a bad percent-escape with 400 and a nok body', async () => {
    const app = await testApp();
    const res = await call(app, 'PUT', '/walker/setData/x%zz');
    expect(res.status).toBe(400);
    expect(res.body.result).toBe('nok');
    expect(res.body.error).toBe(
      "The URL cannot be decoded ('/walker/setData/x%zz' is not a valid url component): " +
        'percent-encode scripts and reasons, % as %25.',
    );
  });

  it.each([
    ['no Content-Type', {}],
    ['text/plain', { 'content-type': 'text/plain' }],
    ['text/plain with a charset', { 'content-type': 'text/plain; charset=UTF-8' }],
    ['application/json', { 'content-type': 'application/json' }],
    ['form encoding (curl -d)', { 'content-type': 'application/x-www-form-urlencoded' }],
    ['an empty Content-Type', { 'content-type': '' }],
    ['a malformed Content-Type', { 'content-type': 'json' }],
  ])('loads a body sent with %s', async (_label, headers) => {
    const app = await testApp();
    const res = await call(app, 'POST', '/walker/load', JSON.stringify(loop()), headers);
    expect(res.status).toBe(200);
    expect(res.body).toMatchObject({ result: 'ok' });
  });

  it('refuses a body over --max-model-bytes with 413 and changes nothing', async () => {
    const app = await testApp({ maxModelBytes: 2000 });
    await load(app, loop());
    const big = JSON.stringify({ ...loop(), padding: 'x'.repeat(3000) });
    const res = await load(app, big);
    expect(res.status).toBe(413);
    expect(res.body).toEqual(nok('The model is larger than the limit of 2000 bytes (--max-model-bytes).'));
    expect((await call(app, 'GET', '/walker/hasNext')).body).toEqual({ result: 'ok', hasNext: 'true' });
  });

  it('takes bodies over Fastify\'s default 1 MiB limit by default (32 MiB)', async () => {
    const app = await testApp();
    const big = JSON.stringify({ ...loop(), padding: 'x'.repeat(3 * 1024 * 1024) });
    expect((await load(app, big)).body).toMatchObject({ result: 'ok' });
  });

  it('accepts a body just under the limit', async () => {
    const text = JSON.stringify(loop());
    const app = await testApp({ maxModelBytes: Buffer.byteLength(text) });
    expect((await load(app, text)).body.result).toBe('ok');
  });

  it('leaves other paths to Fastify', async () => {
    const app = await testApp();
    const res = await call(app, 'GET', '/graphwalkers/hasNext');
    expect(res.status).toBe(404);
    expect(res.body.result).toBeUndefined();
  });
});
