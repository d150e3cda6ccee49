import type { FastifyInstance, InjectOptions, LightMyRequestResponse } from 'fastify';
import { afterEach } from 'vitest';
import { buildApp, type BuildAppOptions } from '../../server/app.js';

const open: FastifyInstance[] = [];

/** An app closed after the test (its QuickJS sandbox freed). */
export async function testApp(options: BuildAppOptions = {}): Promise<FastifyInstance> {
  const app = await buildApp(options);
  open.push(app);
  return app;
}

afterEach(async () => {
  await Promise.all(open.splice(0).map((app) => app.close()));
});

/** A response with its JSON body. */
export interface JsonResponse {
  readonly status: number;
  readonly type: string | undefined;
  readonly body: Record<string, unknown>;
  readonly raw: LightMyRequestResponse;
}

/** Sends a request and parses the body (every execution response is JSON). */
export async function call(
  app: FastifyInstance,
  method: InjectOptions['method'],
  url: string,
  payload?: string | object,
  headers: Record<string, string> = {},
): Promise<JsonResponse> {
  const raw = await app.inject({ method, url, payload, headers });
  const type = raw.headers['content-type'];
  const body = raw.body === '' ? {} : (raw.json() as Record<string, unknown>);
  return { status: raw.statusCode, type: typeof type === 'string' ? type : undefined, body, raw };
}

/** POST /walker/load with the model as JSON text and no Content-Type (as AltWalker sends it). */
export function load(app: FastifyInstance, model: object | string): Promise<JsonResponse> {
  return call(app, 'POST', '/walker/load', typeof model === 'string' ? model : JSON.stringify(model));
}

/** The `nok` body with this message. */
export function nok(error: string): { result: 'nok'; error: string } {
  return { result: 'nok', error };
}

/** Walks to the end over the API: getNext while hasNext is "true"; answers the element ids. */
export async function walkToEnd(app: FastifyInstance, limit = 10_000): Promise<string[]> {
  const ids: string[] = [];
  for (let i = 0; i < limit; i++) {
    const has = await call(app, 'GET', '/walker/hasNext');
    if (has.body.hasNext !== 'true') return ids;
    const next = await call(app, 'GET', '/walker/getNext');
    ids.push(String(next.body.currentElementID));
  }
  throw new Error(`the walk did not end within ${limit} steps`);
}
