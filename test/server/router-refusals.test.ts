import { readFileSync } from 'node:fs';
import type { AddressInfo } from 'node:net';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { FastifyInstance } from 'fastify';
import { buildApp } from '../../server/app.js';

/**
 * What Fastify's router refuses before any route or hook runs — a path it cannot percent-decode, a path
 * parameter over 100 characters — answered on a listening server in the format of the family of the URL:
 * `{code, message}` under /walker/sessions (below a session too), /walker/drafts and /walker/view, `nok`
 * under /walker and /graphwalker. Never Fastify's own `{statusCode, code: "FST_ERR_...", error, message}`.
 */

let app: FastifyInstance;
let base: string;

beforeAll(async () => {
  app = await buildApp();
  await app.listen({ port: 0, host: '127.0.0.1' });
  base = `http://127.0.0.1:${(app.server.address() as AddressInfo).port}`;
});

afterAll(async () => {
  await app?.close();
});

/** Sends the path as written (fetch leaves `%ff` as it is) and reads the JSON answer. */
async function send(method: string, path: string): Promise<{ status: number; type: string | null; body: Record<string, unknown> }> {
  const response = await fetch(`${base}${path}`, { method });
  return { status: response.status, type: response.headers.get('content-type'), body: (await response.json()) as Record<string, unknown> };
}

const LONG_ID = 'a'.repeat(5000);

/** The answer is exactly `{code, message}`, as JSON, with this status and code. */
function expectCodeMessage(answer: Awaited<ReturnType<typeof send>>, status: number, code: string): void {
  expect(answer.status).toBe(status);
  expect(answer.type).toBe('application/json; charset=utf-8');
  expect(Object.keys(answer.body).sort()).toEqual(['code', 'message']);
  expect(answer.body.code).toBe(code);
}

describe('under /walker/sessions', () => {
  it.each([
    ['GET', '/walker/sessions/%ff/getNext'],
    ['GET', '/walker/sessions/%ff'],
    ['DELETE', '/walker/sessions/%E0%A4%A'],
    ['PUT', '/walker/sessions/some-id/setData/x%zz'],
  ])('answers %s %s, which cannot be decoded, with 400 bad_url', async (method, path) => {
    const answer = await send(method, path);
    expectCodeMessage(answer, 400, 'bad_url');
    expect(answer.body.message).toBe(`The URL '${path}' cannot be decoded: percent-encode ids, scripts and reasons as UTF-8, and % itself as %25.`);
  });

  it.each([
    ['GET', `/walker/sessions/${LONG_ID}/getNext`],
    ['GET', `/walker/sessions/${LONG_ID}`],
    ['DELETE', `/walker/sessions/${LONG_ID}`],
    ['POST', `/walker/sessions/${LONG_ID}/load`],
  ])('answers %s of an id of 5,000 characters with 404 session_not_found', async (method, path) => {
    const answer = await send(method, path);
    expectCodeMessage(answer, 404, 'session_not_found');
    expect(answer.body.message).toBe('No session has an id of 5000 characters: use the id that POST /walker/sessions answered.');
  });

  it('counts the id as the router does, after percent-decoding', async () => {
    const answer = await send('GET', `/walker/sessions/${'%C3%A9'.repeat(101)}/hasNext`);
    expectCodeMessage(answer, 404, 'session_not_found');
    expect(answer.body.message).toContain('an id of 101 characters');
  });
});

describe('under /walker/drafts, as they were', () => {
  it('answers a URL that cannot be decoded with 400 invalid_query', async () => {
    expectCodeMessage(await send('GET', '/walker/drafts/%ff'), 400, 'invalid_query');
  });

  it('answers a draft id of 5,000 characters with 404 draft_not_found, an element id with element_not_found', async () => {
    const draft = await send('GET', `/walker/drafts/${LONG_ID}`);
    expectCodeMessage(draft, 404, 'draft_not_found');
    expect(draft.body.message).toBe('No draft has an id of 5000 characters: use the draft_id that POST /walker/drafts answered.');
    expectCodeMessage(await send('DELETE', `/walker/drafts/d1/elements/${LONG_ID}`), 404, 'element_not_found');
  });
});

describe('under /walker/view', () => {
  it('answers 400 bad_url and 404 not_found in {code, message}', async () => {
    expectCodeMessage(await send('GET', '/walker/view/sessions/%ff'), 400, 'bad_url');
    const long = await send('GET', `/walker/view/sessions/${LONG_ID}`);
    expectCodeMessage(long, 404, 'not_found');
    expect(long.body.message).toBe("No route takes a path segment of 5000 characters (after 'sessions'): check the id in the URL.");
  });
});

describe('under the execution dialects', () => {
  it.each(['/walker', '/graphwalker'])('answers a URL that cannot be decoded under %s with 400 and a nok body', async (prefix) => {
    const answer = await send('PUT', `${prefix}/setData/x%zz`);
    expect(answer.status).toBe(400);
    expect(answer.body).toEqual({
      result: 'nok',
      error: `The URL cannot be decoded ('${prefix}/setData/x%zz' is not a valid url component): percent-encode scripts and reasons, % as %25.`,
    });
  });
});

describe('the one error table', () => {
  it('lists every code these answer', () => {
    const table = readFileSync('docs/errors.md', 'utf8');
    for (const code of ['bad_url', 'not_found', 'session_not_found', 'draft_not_found', 'element_not_found', 'invalid_query']) {
      expect(table).toContain(`\`${code}\``);
    }
  });
});
