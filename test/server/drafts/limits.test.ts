import { afterEach, describe, expect, it } from 'vitest';
import { EXPIRED_IDS_REMEMBERED } from '../../../server/drafts/store.js';
import { call, draftApp, newDraft, type DraftTestApp } from './helpers.js';

let t: DraftTestApp;
afterEach(async () => {
  await t.app.close();
});

describe('request bodies', () => {
  it('take application/json and application/*+json with any charset', async () => {
    t = await draftApp();
    const id = await newDraft(t.app);
    for (const type of [
      'application/json',
      'application/json; charset=utf-8',
      'Application/JSON;charset=UTF-8',
      'application/merge-patch+json',
      'application/vnd.walker.draft+json; charset=utf-8',
    ]) {
      const res = await call(t.app, 'POST', `/walker/drafts/${id}/vertices`, '{}', { 'content-type': type });
      expect(res.status, type).toBe(201);
    }
  });

  it('answer 415 unsupported_media_type for other content types, or a body without one', async () => {
    t = await draftApp();
    const id = await newDraft(t.app);
    for (const type of ['text/plain', 'application/xml', 'application/jsonx', 'multipart/form-data; boundary=x', 'json']) {
      const res = await call(t.app, 'POST', `/walker/drafts/${id}/vertices`, '{}', { 'content-type': type });
      expect(res.status, type).toBe(415);
      expect(res.body.code).toBe('unsupported_media_type');
      expect(res.body.message).toContain('application/json');
    }
    const bare = await t.app.inject({ method: 'POST', url: '/walker/drafts', payload: '{"name":"x"}', headers: { 'content-type': '' } });
    expect(bare.statusCode).toBe(415);
    expect(bare.json()).toMatchObject({ code: 'unsupported_media_type' });
  });

  it('may be absent whatever the content type says', async () => {
    t = await draftApp();
    const created = await t.app.inject({ method: 'POST', url: '/walker/drafts', headers: { 'content-type': 'text/plain' } });
    expect(created.statusCode).toBe(201);
    const id = created.json().draft_id;
    const del = await t.app.inject({ method: 'DELETE', url: `/walker/drafts/${id}`, headers: { 'content-type': 'application/x-www-form-urlencoded', 'content-length': '0' } });
    expect(del.json()).toEqual({ discarded: true });
  });

  it('answer 400 invalid_json for malformed JSON, saying where', async () => {
    t = await draftApp();
    const res = await call(t.app, 'POST', '/walker/drafts', '{"name": "x",}');
    expect(res.status).toBe(400);
    expect(res.body.code).toBe('invalid_json');
    expect(res.body.message).toMatch(/^The body is not valid JSON: .*position/);
    const proto = await call(t.app, 'POST', '/walker/drafts', '{"__proto__": {"polluted": true}}');
    expect(proto).toMatchObject({ status: 400, body: { code: 'invalid_json' } });
  });

  it('answer 413 payload_too_large above 1 MiB', async () => {
    t = await draftApp();
    const id = await newDraft(t.app);
    const fits = JSON.stringify({ actions: ['x'.repeat(1024 * 1024 - 40)] });
    expect((await call(t.app, 'POST', `/walker/drafts/${id}/vertices`, fits)).status).toBe(201);
    const big = JSON.stringify({ actions: ['x'.repeat(1024 * 1024)] });
    const res = await call(t.app, 'POST', `/walker/drafts/${id}/vertices`, big);
    expect(res.status).toBe(413);
    expect(res.body.code).toBe('payload_too_large');
    expect(res.body.message).toContain('1 MiB');
  });
});

describe('unknown routes under /walker/drafts', () => {
  it('answer 404 not_found with {code, message}', async () => {
    t = await draftApp();
    const id = await newDraft(t.app);
    for (const [method, url] of [
      ['GET', `/walker/drafts/${id}/nothing`],
      ['PUT', `/walker/drafts/${id}`],
      ['GET', `/walker/drafts/${id}/vertices/v1`],
      ['POST', `/walker/drafts/${id}/elements`],
      ['GET', '/walker/drafts'],
      ['DELETE', '/walker/drafts'],
    ] as const) {
      const res = await call(t.app, method, url);
      expect(res.status, `${method} ${url}`).toBe(404);
      expect(res.body.code).toBe('not_found');
      expect(res.body.message).toContain('docs/api-drafts.md');
    }
  });
});

describe('a URL that cannot be decoded', () => {
  it('answers 400 invalid_query in the draft format, not the legacy one', async () => {
    t = await draftApp();
    const res = await call(t.app, 'GET', '/walker/drafts/%E0%A4%A');
    expect(res.status).toBe(400);
    expect(res.body).toEqual({ code: 'invalid_query', message: expect.stringContaining('cannot be decoded') });
  });
});

describe('expiry after --draft-ttl seconds without a change', () => {
  it('answers 410 draft_expired from then on and frees the draft', async () => {
    t = await draftApp({ drafts: { ttlSeconds: 60 } });
    const id = await newDraft(t.app);
    t.clock.ms += 59_000;
    expect((await call(t.app, 'POST', `/walker/drafts/${id}/vertices`, {})).status).toBe(201);
    t.clock.ms += 59_000;
    expect((await call(t.app, 'GET', `/walker/drafts/${id}`)).status).toBe(200);
    t.clock.ms += 1_000;
    const res = await call(t.app, 'GET', `/walker/drafts/${id}`);
    expect(res).toMatchObject({ status: 410, body: { code: 'draft_expired' } });
    expect(res.body.message).toContain('--draft-ttl');
    expect(t.store.size).toBe(0);
    expect((await call(t.app, 'PATCH', `/walker/drafts/${id}`, {})).status).toBe(410);
    expect((await call(t.app, 'DELETE', `/walker/drafts/${id}`)).status).toBe(410);
  });

  it('frees expired drafts when any request comes, and on the sweep timer', async () => {
    t = await draftApp({ drafts: { ttlSeconds: 10 } });
    await newDraft(t.app);
    await newDraft(t.app);
    t.clock.ms += 5_000;
    const kept = await newDraft(t.app);
    t.clock.ms += 6_000;
    expect((await call(t.app, 'GET', `/walker/drafts/${kept}`)).status).toBe(200);
    expect(t.store.size).toBe(1);
    t.clock.ms += 10_000;
    expect(t.store.sweep()).toBe(1);
    expect(t.store.size).toBe(0);
  });

  it('remembers a bounded number of expired ids; older ones answer 404', async () => {
    t = await draftApp({ drafts: { ttlSeconds: 1, maxDrafts: 100_000 } });
    const first = await newDraft(t.app);
    t.clock.ms += 2_000;
    for (let i = 0; i < EXPIRED_IDS_REMEMBERED; i++) t.store.create(undefined);
    t.clock.ms += 2_000;
    expect(t.store.sweep()).toBe(EXPIRED_IDS_REMEMBERED);
    expect((await call(t.app, 'GET', `/walker/drafts/${first}`)).body.code).toBe('draft_not_found');
  });
});

describe('--max-drafts', () => {
  it('answers 429 draft_limit_reached while that many drafts live', async () => {
    t = await draftApp({ drafts: { maxDrafts: 2, ttlSeconds: 100 } });
    const a = await newDraft(t.app);
    await newDraft(t.app);
    const res = await call(t.app, 'POST', '/walker/drafts');
    expect(res).toMatchObject({ status: 429, body: { code: 'draft_limit_reached' } });
    expect(res.body.message).toContain('--max-drafts');
    await call(t.app, 'DELETE', `/walker/drafts/${a}`);
    expect((await call(t.app, 'POST', '/walker/drafts')).status).toBe(201);
    t.clock.ms += 100_000;
    expect((await call(t.app, 'POST', '/walker/drafts')).status).toBe(201);
    expect(t.store.size).toBe(1);
  });
});
