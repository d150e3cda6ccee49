import { readFileSync } from 'node:fs';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { ApiErrors } from '../../../server/api-error.js';
import { DRAFT_ERROR_CODES } from '../../../server/drafts/errors.js';
import { draftApp, type DraftTestApp } from './helpers.js';

const DOC = readFileSync(new URL('../../../docs/api-drafts.md', import.meta.url), 'utf8');
/** The draft id the examples show; the test puts the id the server really assigned in its place. */
const DOC_DRAFT_ID = '0b6f3c1e-5d4a-4f8e-9a2b-7c1d3e5f7a9b';

interface Message {
  /** `POST /walker/drafts` or `HTTP/1.1 201 Created`. */
  readonly start: string;
  readonly headers: Record<string, string>;
  readonly body: string;
}

/** Every ```http block of the page, in order: request, response, request, response, ... */
function httpBlocks(markdown: string): Message[] {
  return [...markdown.matchAll(/```http\n([\s\S]*?)```/g)].map(([, block]) => {
    const [head, ...rest] = block.split('\n\n');
    const [start, ...headerLines] = head.split('\n').filter((line) => line.trim() !== '');
    const headers = Object.fromEntries(headerLines.map((l) => l.split(/:\s*/, 2).map((p, i) => (i === 0 ? p.toLowerCase() : p))));
    return { start: start.trim(), headers, body: rest.join('\n\n').trim() };
  });
}

const blocks = httpBlocks(DOC);
const pairs = Array.from({ length: blocks.length / 2 }, (_, i) => [blocks[2 * i], blocks[2 * i + 1]] as const);

describe('docs/api-drafts.md', () => {
  let t: DraftTestApp;
  let draftId = DOC_DRAFT_ID;
  beforeAll(async () => {
    t = await draftApp();
  });
  afterAll(async () => {
    await t.app.close();
  });

  it('pairs every request example with a response example', () => {
    expect(blocks.length % 2).toBe(0);
    for (const [request, response] of pairs) {
      expect(request.start).toMatch(/^(GET|POST|PATCH|DELETE) \/walker\/drafts/);
      expect(response.start).toMatch(/^HTTP\/1\.1 \d{3} /);
    }
  });

  it('shows every endpoint of the draft API', () => {
    const shown = new Set(pairs.map(([request]) => request.start.replace(DOC_DRAFT_ID, '{draft_id}').replace(/\?.*$/, '').replace(/\/(vertices|edges|elements)\/[^/]+$/, '/$1/{id}')));
    expect([...shown].sort()).toEqual(
      [
        'POST /walker/drafts',
        'GET /walker/drafts/{draft_id}',
        'PATCH /walker/drafts/{draft_id}',
        'DELETE /walker/drafts/{draft_id}',
        'POST /walker/drafts/{draft_id}/vertices',
        'PATCH /walker/drafts/{draft_id}/vertices/{id}',
        'POST /walker/drafts/{draft_id}/edges',
        'PATCH /walker/drafts/{draft_id}/edges/{id}',
        'DELETE /walker/drafts/{draft_id}/elements/{id}',
        'GET /walker/drafts/{draft_id}/validation',
      ].sort(),
    );
  });

  it.each(pairs.map(([request, response], i) => [i + 1, request.start, request, response] as const))(
    'example %i (%s) answers as shown',
    async (_n, _title, request, response) => {
      const [method, url] = request.start.split(' ');
      const res = await t.app.inject({
        method: method as 'GET',
        url: url.replaceAll(DOC_DRAFT_ID, draftId),
        headers: request.headers,
        payload: request.body === '' ? undefined : request.body,
      });
      const body = res.body === '' ? undefined : res.json();
      if (method === 'POST' && url === '/walker/drafts') draftId = body.draft_id;
      expect(`${res.statusCode}`).toBe(response.start.split(' ')[1]);
      // Every header the example shows, and a Content-Type exactly when it shows one.
      expect(res.headers['content-type']).toBe(response.headers['content-type']);
      for (const [name, value] of Object.entries(response.headers)) expect(res.headers[name], name).toBe(value);
      const shown = response.body === '' ? undefined : JSON.stringify(JSON.parse(response.body));
      expect(body === undefined ? undefined : JSON.stringify(body).replaceAll(draftId, DOC_DRAFT_ID)).toBe(shown);
    },
  );

  it('lists every error code with its status', () => {
    for (const code of DRAFT_ERROR_CODES) {
      expect(DOC, code).toContain(`| ${ApiErrors[code].status} | \`${code}\` |`);
    }
  });
});
