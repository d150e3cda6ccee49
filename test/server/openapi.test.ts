import { readFileSync } from 'node:fs';
import { Validator } from '@seriousme/openapi-schema-validator';
import { Ajv2020 } from 'ajv/dist/2020.js';
import type { FastifyInstance, RouteOptions } from 'fastify';
import { afterAll, beforeAll, describe, expect, it, vi } from 'vitest';
import { buildApp } from '../../server/app.js';
import { loop } from './models.js';

/** Every route the app registers, as Fastify announces it (copied: Fastify reuses the options object). */
const registered = vi.hoisted(() => [] as Array<{ method: string | string[]; url: string; hidden: boolean }>);

// buildApp makes its own Fastify instance; wrap the factory so that an onRoute hook sees every route from the first.
vi.mock('fastify', async (importOriginal) => {
  const fastify = await importOriginal<typeof import('fastify')>();
  const make = fastify.default as unknown as (...args: unknown[]) => FastifyInstance;
  const wrapped = (...args: unknown[]) => {
    const app = make(...args);
    app.addHook('onRoute', (route: RouteOptions) => {
      const hidden = route.schema?.hide === true;
      registered.push({ method: route.method as string | string[], url: route.url, hidden });
    });
    return app;
  };
  return { ...fastify, default: wrapped };
});

type Operation = {
  operationId?: string;
  summary?: string;
  tags?: string[];
  requestBody?: { content: Record<string, unknown> };
  responses: Record<string, { content?: Record<string, { schema: Schema }> }>;
};
type Schema = Record<string, any>;
type Document = { openapi: string; paths: Record<string, Record<string, Operation>> };

let app: FastifyInstance;
let doc: Document;
beforeAll(async () => {
  app = await buildApp();
  const res = await app.inject({ method: 'GET', url: '/openapi.json' });
  expect(res.statusCode).toBe(200);
  expect(res.headers['content-type']).toBe('application/json; charset=utf-8');
  doc = res.json();
});
afterAll(async () => {
  await app.close();
});

/** The documented path of a Fastify URL: `:name` and a trailing `*` are `{name}` in OpenAPI. */
function documentedPath(url: string): string | undefined {
  const pattern = new RegExp(`^${url.replace(/:(\w+)/g, '{$1}').replace(/\*$/, '{\\w+}')}$`);
  return Object.keys(doc.paths).find((path) => pattern.test(path));
}

function operation(method: string, path: string): Operation {
  const found = doc.paths[path]?.[method];
  if (found === undefined) throw new Error(`${method.toUpperCase()} ${path} is not documented`);
  return found;
}

function responseSchema(method: string, path: string, status: number): Schema {
  return operation(method, path).responses[status].content!['application/json'].schema;
}

describe('GET /openapi.json', () => {
  it('is a valid OpenAPI 3.1 document', async () => {
    const validator = new Validator();
    const result = await validator.validate(doc);
    expect(result.errors ?? []).toEqual([]);
    expect(result.valid).toBe(true);
    expect(validator.version).toBe('3.1');
  });

  it("names walker and the version in the project's package.json", () => {
    const manifest = JSON.parse(readFileSync(new URL('../../package.json', import.meta.url), 'utf8'));
    expect((doc as unknown as { info: unknown }).info).toMatchObject({ title: 'walker', version: manifest.version });
  });

  it('documents every route the app registered, with its method, but the hidden catch-alls', () => {
    // HEAD routes are the ones Fastify adds beside each GET: @fastify/swagger leaves them out.
    const routes = registered.filter((r) => !r.hidden && r.method !== 'HEAD');
    expect(routes.length).toBeGreaterThanOrEqual(20);
    for (const route of routes) {
      const path = documentedPath(route.url);
      expect(path, route.url).toBeDefined();
      for (const method of [route.method].flat()) operation(method.toLowerCase(), path!);
    }
    const documented = Object.values(doc.paths).reduce((n, ops) => n + Object.keys(ops).length, 0);
    expect(documented).toBe(routes.reduce((n, r) => n + [r.method].flat().length, 0));
  });

  it('covers every execution and draft route, and hides the 405 catch-alls', () => {
    expect(Object.keys(doc.paths).sort()).toEqual([
      '/graphwalker/fail/{reason}',
      '/graphwalker/getData',
      '/graphwalker/getNext',
      '/graphwalker/getStatistics',
      '/graphwalker/hasNext',
      '/graphwalker/load',
      '/graphwalker/restart',
      '/graphwalker/setData/{script}',
      '/openapi.json',
      '/walker/drafts',
      '/walker/drafts/convert',
      '/walker/drafts/joint-validation',
      '/walker/drafts/script-check',
      '/walker/drafts/{draft_id}',
      '/walker/drafts/{draft_id}/edges',
      '/walker/drafts/{draft_id}/edges/{edge_id}',
      '/walker/drafts/{draft_id}/elements/{element_id}',
      '/walker/drafts/{draft_id}/validation',
      '/walker/drafts/{draft_id}/vertices',
      '/walker/drafts/{draft_id}/vertices/{vertex_id}',
      '/walker/fail/{reason}',
      '/walker/getData',
      '/walker/getModel',
      '/walker/getNext',
      '/walker/getStatistics',
      '/walker/hasNext',
      '/walker/load',
      '/walker/login',
      '/walker/restart',
      '/walker/sessions',
      '/walker/sessions/{session_id}',
      '/walker/sessions/{session_id}/fail/{reason}',
      '/walker/sessions/{session_id}/getData',
      '/walker/sessions/{session_id}/getModel',
      '/walker/sessions/{session_id}/getNext',
      '/walker/sessions/{session_id}/getStatistics',
      '/walker/sessions/{session_id}/hasNext',
      '/walker/sessions/{session_id}/load',
      '/walker/sessions/{session_id}/restart',
      '/walker/sessions/{session_id}/setData/{script}',
      '/walker/setData/{script}',
      '/walker/view/drafts/{draft_id}',
      '/walker/view/drafts/{draft_id}/events',
      '/walker/view/session',
      '/walker/view/session/events',
      '/walker/view/sessions/{session_id}',
      '/walker/view/sessions/{session_id}/events',
    ]);
    expect(Object.keys(doc.paths['/walker/getStatistics']).sort()).toEqual(['get', 'post']);
    expect(Object.keys(doc.paths['/walker/restart'])).toEqual(['put']);
    expect(registered.some((r) => r.hidden && r.url === '/walker/restart')).toBe(true);
  });

  it('gives every operation a unique id, a summary and a tag', () => {
    const operations = Object.values(doc.paths).flatMap((ops) => Object.values(ops));
    const ids = operations.map((op) => op.operationId);
    expect(new Set(ids).size).toBe(operations.length);
    for (const op of operations) {
      expect(op.summary, op.operationId).toEqual(expect.any(String));
      expect(['execution', 'graphwalker', 'sessions', 'drafts', 'view', 'login', 'service']).toContain(op.tags?.[0]);
    }
  });
});

describe('the shapes it documents', () => {
  it('getNext: ok with the element, or nok with an error, both under 200', () => {
    const [ok, nok] = responseSchema('get', '/walker/getNext', 200).oneOf;
    expect(Object.keys(ok.properties)).toEqual([
      'result',
      'currentElementName',
      'currentElementID',
      'modelId',
      'modelName',
      'data',
      'properties',
      'actions',
      'numberOfElements',
      'numberOfUnvisitedElements',
      'unvisitedElements',
    ]);
    expect(ok.required).toEqual(['result', 'currentElementName', 'currentElementID', 'modelId']);
    expect(ok.properties.result.enum).toEqual(['ok']);
    expect(nok.properties.result.enum).toEqual(['nok']);
    expect(nok.required).toEqual(['result', 'error']);
  });

  it('view: each event stream is text/event-stream; the page and its assets are not operations', () => {
    const events = operation('get', '/walker/view/session/events');
    expect(Object.keys((events.responses[200] as { content: object }).content)).toEqual(['text/event-stream']);
    expect(doc.paths['/']).toBeUndefined();
  });

  it('load: a model file in any content type, 413 nok over the limit; setData names its script', () => {
    const load = operation('post', '/walker/load');
    expect(Object.keys(load.requestBody!.content)).toContain('*/*');
    expect(responseSchema('post', '/walker/load', 413).properties.result.enum).toEqual(['nok']);
    const setData = operation('put', '/walker/setData/{script}') as Operation & { parameters: unknown[] };
    expect(setData.parameters).toEqual([expect.objectContaining({ name: 'script', in: 'path' })]);
  });

  it('drafts: a 422 is {code, message} with the codes of that status', () => {
    const failure = responseSchema('post', '/walker/drafts/{draft_id}/vertices', 422);
    expect(failure.required).toEqual(['code', 'message']);
    expect(failure.properties.code.enum).toContain('invalid_element');
    expect(failure.properties.code.enum).not.toContain('draft_not_found');
    expect(Object.keys(operation('post', '/walker/drafts/{draft_id}/vertices').responses)).toEqual(
      expect.arrayContaining(['201', '404', '409', '422', '500']),
    );
  });

  it('matches what the service answers', async () => {
    const ajv = new Ajv2020({ strict: false });
    const check = async (method: 'GET' | 'POST', url: string, path: string, status: number, payload?: object) => {
      const headers = payload ? { 'content-type': 'application/json' } : {};
      const res = await app.inject({ method, url, payload, headers });
      expect(res.statusCode, url).toBe(status);
      const validate = ajv.compile(responseSchema(method.toLowerCase(), path, status));
      expect(validate(res.json()) ? [] : validate.errors, url).toEqual([]);
      return res.json();
    };
    await check('GET', '/walker/getNext', '/walker/getNext', 200);
    await check('POST', '/walker/load', '/walker/load', 200, loop());
    await check('GET', '/walker/getNext', '/walker/getNext', 200);
    await check('GET', '/walker/getStatistics', '/walker/getStatistics', 200);
    const { draft_id: id } = await check('POST', '/walker/drafts', '/walker/drafts', 201, { name: 'D' });
    await check('POST', `/walker/drafts/${id}/vertices`, '/walker/drafts/{draft_id}/vertices', 422, { colour: 1 });
    await check('GET', `/walker/drafts/${id}`, '/walker/drafts/{draft_id}', 200);
  });
});
