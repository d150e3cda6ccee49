import { afterEach, describe, expect, it } from 'vitest';
import { DRAFT_OVERHEAD_BYTES, ELEMENT_OVERHEAD_BYTES } from '../../../server/drafts/footprint.js';
import { call, draftApp, newDraft, type DraftTestApp } from './helpers.js';

/** A vertex whose estimate is about `kib` KiB: its properties hold that much text. */
const vertexOf = (kib: number, id?: string) => ({ ...(id ? { id } : {}), properties: { t: 'x'.repeat(kib * 1024 - 16) } });

let t: DraftTestApp;
afterEach(async () => {
  await t.app.close();
});

/** The draft as a client sees it: export, revision and ETag. */
async function observed(id: string): Promise<{ body: unknown; etag: unknown }> {
  const res = await call(t.app, 'GET', `/walker/drafts/${id}`);
  return { body: res.body, etag: res.headers.etag };
}

describe('--max-draft-memory (DraftLimits.maxMemoryBytes)', () => {
  it('answers 429 memory_limit_reached for a change past it, and changes nothing', async () => {
    // Four 60 KiB vertices and the draft come to about 243.6 KiB, 4.4 short of the limit.
    t = await draftApp({ drafts: { maxMemoryBytes: 248 * 1024 } });
    const id = await newDraft(t.app);
    const base = `/walker/drafts/${id}`;
    for (let i = 0; i < 4; i++) expect((await call(t.app, 'POST', `${base}/vertices`, vertexOf(60))).status).toBe(201);
    const before = await observed(id);
    const used = t.store.usedBytes;

    const refused = await call(t.app, 'POST', `${base}/vertices`, vertexOf(10));
    expect(refused).toMatchObject({ status: 429, body: { code: 'memory_limit_reached' } });
    expect(refused.body.message).toMatch(/would hold about 25\d(\.\d)? KiB, more than the 248 KiB they may hold together/);
    expect(refused.body.message).toContain('(--max-draft-memory): delete drafts or elements you no longer need');
    expect((await call(t.app, 'PATCH', `${base}/vertices/v2`, vertexOf(62), { 'if-match': '"4"' })).status).toBe(200);
    expect((await call(t.app, 'PATCH', `${base}/vertices/v3`, vertexOf(64))).body.code).toBe('memory_limit_reached');
    expect((await call(t.app, 'POST', '/walker/drafts', { properties: vertexOf(20).properties })).status).toBe(429);
    expect(t.store.size).toBe(1);

    await call(t.app, 'PATCH', `${base}/vertices/v2`, vertexOf(60));
    expect(t.store.usedBytes).toBe(used);
    expect((await observed(id)).body).toEqual({ ...(before.body as object), revision: 6 });
  });

  it('leaves no trace of a refused change: the next generated id is the one it would have taken', async () => {
    t = await draftApp({ drafts: { maxMemoryBytes: 64 * 1024 } });
    const base = `/walker/drafts/${await newDraft(t.app)}`;
    expect((await call(t.app, 'POST', `${base}/vertices`, vertexOf(63))).body.code).toBe('memory_limit_reached');
    expect((await call(t.app, 'POST', `${base}/vertices`, {})).body.vertex.id).toBe('v1');
  });

  it('always accepts a change that shrinks a draft, and counts what deleting and discarding free', async () => {
    t = await draftApp({ drafts: { maxMemoryBytes: 200 * 1024 } });
    const a = await newDraft(t.app);
    const empty = t.store.usedBytes;
    const b = await newDraft(t.app);
    for (const [draft, id] of [[a, 'big'], [a, 'big2'], [b, 'big']] as const) {
      expect((await call(t.app, 'POST', `/walker/drafts/${draft}/vertices`, vertexOf(60, id))).status).toBe(201);
    }
    expect((await call(t.app, 'POST', `/walker/drafts/${a}/vertices`, vertexOf(40))).status).toBe(429);
    expect((await call(t.app, 'PATCH', `/walker/drafts/${a}/vertices/big`, vertexOf(10))).status).toBe(200);
    expect((await call(t.app, 'POST', `/walker/drafts/${a}/vertices`, vertexOf(40))).status).toBe(201);
    await call(t.app, 'DELETE', `/walker/drafts/${b}`);
    for (const id of ['big', 'big2', 'v1']) await call(t.app, 'DELETE', `/walker/drafts/${a}/elements/${id}`);
    expect(t.store.usedBytes).toBe(empty);
    await call(t.app, 'DELETE', `/walker/drafts/${a}`);
    expect(t.store.usedBytes).toBe(0);
  });

  it('gives an expired draft its memory back', async () => {
    t = await draftApp({ drafts: { ttlSeconds: 10 } });
    const id = await newDraft(t.app);
    await call(t.app, 'POST', `/walker/drafts/${id}/vertices`, vertexOf(8));
    expect(t.store.usedBytes).toBeGreaterThan(8 * 1024);
    t.clock.ms += 10_000;
    expect(t.store.sweep()).toBe(1);
    expect(t.store.usedBytes).toBe(0);
  });

  it('counts an element as its JSON in UTF-8 and a fixed overhead', async () => {
    t = await draftApp();
    const id = await newDraft(t.app);
    const draft = t.store.read(id);
    expect(draft.bytes).toBe(DRAFT_OVERHEAD_BYTES + JSON.stringify(draft.model.fields).length);
    const before = t.store.usedBytes;
    await call(t.app, 'POST', `/walker/drafts/${id}/vertices`, { id: 'é', properties: { x: 1 } });
    const json = '{"id":"é","name":"é","sharedState":null,"actions":[],"requirements":[],"properties":{"x":1}}';
    expect(t.store.usedBytes - before).toBe(ELEMENT_OVERHEAD_BYTES + Buffer.byteLength(json));
  });

  it('is 512 MiB by default', async () => {
    t = await draftApp();
    expect(t.app.services.options.drafts.maxMemoryBytes).toBe(512 * 1024 * 1024);
  });
});
