import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { PROPERTIES_MAX_BYTES, PROPERTIES_MAX_DEPTH } from '../../../server/drafts/free-json.js';
import { call, draftApp, smallDraft, type Answer, type DraftTestApp } from './helpers.js';

/** `{"a": {"a": ... 1 ...}}` with `levels` objects, as JSON text: too deep for JSON.stringify to build it. */
function nested(levels: number): string {
  return `${'{"a":'.repeat(levels - 1)}{"a":1}${'}'.repeat(levels - 1)}`;
}

/** The draft as a client sees it: export, revision and ETag. */
async function observed(t: DraftTestApp, id: string): Promise<{ body: unknown; etag: unknown }> {
  const res = await call(t.app, 'GET', `/walker/drafts/${id}`);
  return { body: res.body, etag: res.headers.etag };
}

let t: DraftTestApp;
let id: string;
let base: string;
beforeEach(async () => {
  t = await draftApp();
  id = await smallDraft(t.app);
  base = `/walker/drafts/${id}`;
});
afterEach(async () => {
  await t.app.close();
});

/** Sends a JSON text body as it is. */
function send(method: 'POST' | 'PATCH', url: string, json: string): Promise<Answer> {
  return call(t.app, method, url, json);
}

describe('properties nested too deeply', () => {
  it('answer 422 naming the path, and change nothing: revision, ETag and export stay as they were', async () => {
    const before = await observed(t, id);
    const deep = nested(100_000);
    const requests: Array<[Promise<Answer>, string, string]> = [
      [send('POST', `${base}/vertices`, `{"id":"v9","properties":${deep}}`), 'invalid_element', 'vertices[v9].properties.a.a'],
      [send('PATCH', `${base}/vertices/v1`, `{"name":"x","properties":${deep}}`), 'invalid_element', 'vertices[v1].properties.a'],
      [send('POST', `${base}/edges`, `{"target_vertex_id":"v1","properties":${deep}}`), 'invalid_element', 'edges[e3].properties.a'],
      [send('PATCH', `${base}/edges/e1`, `{"guard":"g","properties":${deep}}`), 'invalid_element', 'edges[e1].properties.a'],
      [send('PATCH', base, `{"name":"x","properties":${deep}}`), 'invalid_model', 'properties.a.a'],
    ];
    for (const [request, code, path] of requests) {
      const res = await request;
      expect(res.status, path).toBe(422);
      expect(res.body.code).toBe(code);
      expect(res.body.message).toMatch(new RegExp(`^${path.replace(/[[\].]/g, '\\$&')}.*…: nested deeper than 32 levels`));
    }
    expect(await observed(t, id)).toEqual(before);
    expect(before.etag).toBe('"6"');
    expect((await call(t.app, 'POST', `${base}/vertices`, {})).body.vertex.id).toBe('v3');
  });

  it('are refused from level 33 on; 32 levels are kept and exported as they are', async () => {
    const limit = await send('POST', `${base}/vertices`, `{"id":"deep","properties":${nested(PROPERTIES_MAX_DEPTH)}}`);
    expect(limit.status).toBe(201);
    const over = await send('POST', `${base}/vertices`, `{"id":"deeper","properties":${nested(PROPERTIES_MAX_DEPTH + 1)}}`);
    expect(over.status).toBe(422);
    const exported = (await call(t.app, 'GET', base)).body.model.models[0].vertices[2];
    expect(JSON.stringify(exported.properties)).toBe(nested(PROPERTIES_MAX_DEPTH));
  });

  it('are named by the way to them: odd keys quoted, list items by index', async () => {
    let value: unknown = 1;
    for (let i = 0; i < PROPERTIES_MAX_DEPTH; i++) value = i % 2 === 0 ? [value] : { 'a b': value };
    const res = await call(t.app, 'POST', '/walker/drafts', { properties: { layout: value } });
    expect(res.status).toBe(422);
    expect(res.body.code).toBe('invalid_model');
    expect(res.body.message).toMatch(/^properties\.layout\["a b"\]\[0\]\["a b"\]\[0\]\["a b"\]…: nested deeper than 32/);
    expect(t.store.size).toBe(1);
  });
});

describe('properties larger than 64 KiB as JSON', () => {
  it('answer 422 with the size, and change nothing; 64 KiB exactly is kept', async () => {
    const before = await observed(t, id);
    // {"t":"..."} is 8 bytes beside the string.
    const blob = (bytes: number) => ({ t: 'x'.repeat(bytes - 8) });
    const over = await call(t.app, 'PATCH', `${base}/edges/e1`, { properties: blob(PROPERTIES_MAX_BYTES + 1) });
    expect(over).toMatchObject({ status: 422, body: { code: 'invalid_element' } });
    expect(over.body.message).toBe(
      'edges[e1].properties is 65537 bytes as JSON, more than the 65536 that properties may hold: keep layout and ' +
        'short metadata there, and large data outside the model.',
    );
    expect(await observed(t, id)).toEqual(before);
    const fits = await call(t.app, 'PATCH', `${base}/edges/e1`, { properties: blob(PROPERTIES_MAX_BYTES) });
    expect(fits.status).toBe(200);
  });

  it('count bytes of UTF-8, as the body limit does', async () => {
    // 'é' is one character and two bytes.
    const res = await call(t.app, 'PATCH', base, { properties: { t: 'é'.repeat(PROPERTIES_MAX_BYTES / 2) } });
    expect(res).toMatchObject({ status: 422, body: { code: 'invalid_model' } });
  });
});
