import { connect } from 'node:net';
import type { AddressInfo } from 'node:net';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { ID_MAX_LENGTH } from '../../../server/drafts/ids.js';
import { call, draftApp, newDraft, type DraftTestApp } from './helpers.js';

/**
 * Ids of exactly the longest length, with what a URL must percent-encode (space, slash, question mark, hash,
 * percent, non-ASCII) and an emoji, which JavaScript counts as two.
 */
const MAX_IDS = {
  vertex: `v /?#%é😀${'x'.repeat(ID_MAX_LENGTH - 9)}`,
  target: `${'w'.repeat(ID_MAX_LENGTH - 1)}.`,
  edge: '😀'.repeat(ID_MAX_LENGTH / 2),
};

let t: DraftTestApp;
let base: string;
beforeEach(async () => {
  t = await draftApp();
  base = `/walker/drafts/${await newDraft(t.app)}`;
});
afterEach(async () => {
  await t.app.close();
});

const at = (kind: string, id: string) => `${base}/${kind}/${encodeURIComponent(id)}`;

describe(`ids of ${ID_MAX_LENGTH} characters`, () => {
  it('are created, addressed, changed, exported and deleted', async () => {
    for (const id of Object.values(MAX_IDS)) expect(id.length).toBe(ID_MAX_LENGTH);
    expect((await call(t.app, 'POST', `${base}/vertices`, { id: MAX_IDS.vertex })).status).toBe(201);
    expect((await call(t.app, 'POST', `${base}/vertices`, { id: MAX_IDS.target })).status).toBe(201);
    const edge = { id: MAX_IDS.edge, source_vertex_id: MAX_IDS.vertex, target_vertex_id: MAX_IDS.target };
    expect((await call(t.app, 'POST', `${base}/edges`, edge)).status).toBe(201);

    const vertex = await call(t.app, 'PATCH', at('vertices', MAX_IDS.vertex), { name: 'v_Long' });
    expect(vertex).toMatchObject({ status: 200, body: { vertex: { id: MAX_IDS.vertex, name: 'v_Long' } } });
    const patched = await call(t.app, 'PATCH', at('edges', MAX_IDS.edge), { name: 'e_Long' });
    expect(patched).toMatchObject({ status: 200, body: { edge: { id: MAX_IDS.edge, name: 'e_Long' } } });
    const model = (await call(t.app, 'GET', base)).body.model.models[0];
    expect(model.edges[0]).toMatchObject({ id: MAX_IDS.edge, sourceVertexId: MAX_IDS.vertex });

    const removed = await call(t.app, 'DELETE', `${at('elements', MAX_IDS.vertex)}?cascade=true`);
    expect(removed).toMatchObject({ status: 200, body: { removed_ids: [MAX_IDS.vertex, MAX_IDS.edge] } });
    expect((await call(t.app, 'DELETE', at('elements', MAX_IDS.target))).status).toBe(200);
  });

  it('are model ids too', async () => {
    const modelId = 'm'.repeat(ID_MAX_LENGTH);
    const res = await call(t.app, 'POST', '/walker/drafts', { model_id: modelId });
    expect(res).toMatchObject({ status: 201, body: { model_id: modelId } });
    expect((await call(t.app, 'POST', '/walker/drafts', { model_id: `${modelId}m` })).body.code).toBe('invalid_model');
  });
});

describe('ids that break the rule', () => {
  it('are refused at creation with 422, naming the member and the rule', async () => {
    const cases: Array<[string, string]> = [
      ['x'.repeat(ID_MAX_LENGTH + 1), "'id' must be at most 100 characters long"],
      ['😀'.repeat(ID_MAX_LENGTH / 2 + 1), "'id' is not a valid id: ids are 1 to 100 characters (as JavaScript counts them"],
      ['.', "other than '.' and '..'"],
      ['..', "other than '.' and '..'"],
      ['a\ud800', 'without unpaired surrogates'],
    ];
    for (const [id, message] of cases) {
      for (const [kind, members] of [['vertices', {}], ['edges', { target_vertex_id: 'v1' }]] as const) {
        const res = await call(t.app, 'POST', `${base}/${kind}`, { id, ...members });
        expect(res.status, `${kind} ${id}`).toBe(422);
        expect(res.body.code).toBe('invalid_element');
        expect(res.body.message).toContain(message);
      }
    }
    expect((await call(t.app, 'GET', base)).body.revision).toBe(0);
  });

  it('answer 404 in a path: no element can have them', async () => {
    await call(t.app, 'POST', `${base}/vertices`, { id: 'v1' });
    const long = 'x'.repeat(ID_MAX_LENGTH + 1);
    for (const [method, url] of [
      ['PATCH', at('vertices', long)],
      ['PATCH', at('edges', '😀'.repeat(ID_MAX_LENGTH / 2 + 1))],
      ['DELETE', at('elements', long)],
    ] as const) {
      const res = await call(t.app, method, url, method === 'PATCH' ? { name: 'x' } : undefined);
      expect(res.status, url).toBe(404);
      expect(res.body.code).toBe('element_not_found');
      expect(res.body.message).toMatch(/^No vertex or edge can have an id of 10[12] characters: ids are 1 to 100/);
    }
    const draft = await call(t.app, 'GET', `/walker/drafts/${long}`);
    expect(draft).toMatchObject({ status: 404, body: { code: 'draft_not_found' } });
  });

  it('answer 404 in a path that a client sends without removing dot segments', async () => {
    await t.app.listen({ host: '127.0.0.1', port: 0 });
    const { port } = t.app.server.address() as AddressInfo;
    const raw = await rawRequest(port, `DELETE ${base}/elements/.. HTTP/1.1\r\nHost: 127.0.0.1:${port}\r\nConnection: close\r\n\r\n`);
    expect(raw).toMatch(/^HTTP\/1\.1 404 /);
    expect(raw).toContain('"code":"element_not_found"');
    expect(raw).toContain("No vertex or edge can have the id \\\"..\\\": ids are 1 to 100");
  });
});

/** Sends a request as written, which no URL-normalising client would, and reads the whole answer. */
function rawRequest(port: number, request: string): Promise<string> {
  return new Promise((resolve, reject) => {
    const socket = connect(port, '127.0.0.1', () => socket.end(request));
    let answer = '';
    socket.setEncoding('utf8');
    socket.on('data', (chunk: string) => (answer += chunk));
    socket.on('end', () => resolve(answer));
    socket.on('error', reject);
  });
}
