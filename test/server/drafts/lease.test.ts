import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { call, draftApp, smallDraft, type DraftTestApp } from './helpers.js';

const TTL_S = 60;

let t: DraftTestApp;
let base: string;
beforeEach(async () => {
  t = await draftApp({ drafts: { ttlSeconds: TTL_S } });
  base = `/walker/drafts/${await smallDraft(t.app)}`;
});
afterEach(async () => {
  await t.app.close();
});

/** Moves the fake clock on by whole seconds. */
function wait(seconds: number): void {
  t.clock.ms += seconds * 1000;
}

describe('a draft lease', () => {
  it('is not renewed by reads: GET, HEAD, a 304, validation', async () => {
    wait(TTL_S - 1);
    expect((await call(t.app, 'GET', base)).status).toBe(200);
    expect((await call(t.app, 'HEAD', base)).status).toBe(200);
    expect((await call(t.app, 'GET', base, undefined, { 'if-none-match': '"6"' })).status).toBe(304);
    expect((await call(t.app, 'HEAD', `${base}/validation`)).status).toBe(200);
    expect((await call(t.app, 'GET', `${base}/validation`)).status).toBe(200);
    wait(1);
    expect((await call(t.app, 'HEAD', base)).status).toBe(410);
    expect((await call(t.app, 'GET', base)).body.code).toBe('draft_expired');
  });

  it('is not renewed by changes that fail', async () => {
    wait(TTL_S - 1);
    const failures = [
      await call(t.app, 'PATCH', base, { name: 'x', expected_revision: 0 }),
      await call(t.app, 'PATCH', base, { name: 'x' }, { 'if-match': '"0"' }),
      await call(t.app, 'POST', `${base}/vertices`, { id: 'v1' }),
      await call(t.app, 'POST', `${base}/edges`, { target_vertex_id: 'nope' }),
      await call(t.app, 'DELETE', `${base}/elements/v1`),
    ];
    expect(failures.map((f) => f.status)).toEqual([409, 412, 409, 422, 409]);
    wait(1);
    expect((await call(t.app, 'GET', base)).status).toBe(410);
  });

  it('is renewed by every successful change, for another full TTL', async () => {
    const changes: Array<[string, string, object | undefined]> = [
      ['PATCH', base, { name: 'Renamed' }],
      ['POST', `${base}/vertices`, { id: 'v3' }],
      ['PATCH', `${base}/vertices/v3`, { name: 'v_Three' }],
      ['POST', `${base}/edges`, { id: 'e3', source_vertex_id: 'v3', target_vertex_id: 'v1' }],
      ['PATCH', `${base}/edges/e3`, { weight: 0.5 }],
      ['DELETE', `${base}/elements/e3`, undefined],
    ];
    for (const [method, url, body] of changes) {
      wait(TTL_S - 1);
      const res = await call(t.app, method as 'POST', url, body);
      expect(res.status, `${method} ${url}`).toBeLessThan(300);
    }
    wait(TTL_S - 1);
    expect((await call(t.app, 'GET', base)).body.revision).toBe(12);
    wait(1);
    expect((await call(t.app, 'GET', base)).status).toBe(410);
  });
});
