import { afterEach, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import { loadModelFile } from '../../../core/model/load.js';
import { graphmlFormat } from '../../../plugins/formats/graphml/index.js';
import { LARGE_WRITE_ELEMENTS } from '../../../server/conversion/conversion-placement.js';
import { ensureBuilt } from '../../cli/online-helpers.js';
import { call, draftApp, newDraft, smallDraft, type DraftTestApp } from './helpers.js';

// A large draft is written in the conversion thread, which runs the built worker.
beforeAll(() => ensureBuilt(), 120_000);

let t: DraftTestApp;
beforeEach(async () => {
  t = await draftApp();
});
afterEach(async () => {
  await t.app.close();
});

async function raw(url: string, headers: Record<string, string> = {}) {
  return t.app.inject({ method: 'GET', url, headers });
}

describe('GET /walker/drafts/{id} in another format', () => {
  it('answers the model as GraphML for ?format=graphml or Accept: application/graphml+xml, which reads back as the JSON export', async () => {
    const id = await smallDraft(t.app);
    const json = (await call(t.app, 'GET', `/walker/drafts/${id}`)).body;
    for (const res of [await raw(`/walker/drafts/${id}?format=graphml`), await raw(`/walker/drafts/${id}`, { accept: 'application/graphml+xml' })]) {
      expect(res.statusCode).toBe(200);
      expect(res.headers['content-type']).toBe('application/graphml+xml; charset=utf-8');
      expect(res.headers.etag).toBe('"6"');
      const read = graphmlFormat.read?.(res.body, {});
      expect(loadModelFile(read).file).toEqual(loadModelFile(json.model).file);
    }
  });

  it('exports names that read as a guard, actions or a shared state in GraphML labels as names, which read back exactly', async () => {
    const id = await newDraft(t.app, { model_id: 'names', generator: 'random(edge_coverage(100))' });
    const base = `/walker/drafts/${id}`;
    await call(t.app, 'POST', `${base}/vertices`, { id: 'a', name: 'v_Home SHARED: HOME' });
    await call(t.app, 'POST', `${base}/edges`, { id: 'e0', name: 'e_Logout [false]', target_vertex_id: 'a' });
    await call(t.app, 'POST', `${base}/edges`, { id: 'e1', name: 'e_Quit / signedIn = true; remember = true;', source_vertex_id: 'a', target_vertex_id: 'a' });
    const json = (await call(t.app, 'GET', base)).body;
    const res = await raw(`${base}?format=graphml`);
    expect(res.statusCode).toBe(200);
    // GraphWalker reads these labels as names alone: no guard, action or shared state.
    expect(res.body.match(/<y:(?:Node|Edge)Label>[^<]*</g)).toEqual([
      '<y:NodeLabel>v_Home_SHARED_HOME<',
      '<y:NodeLabel>Start<',
      '<y:EdgeLabel>e_Logout_false_<',
      '<y:EdgeLabel>e_Quit_signedIn_true_remember_true_<',
    ]);
    expect(loadModelFile(graphmlFormat.read?.(res.body, {})).file).toEqual(loadModelFile(json.model).file);
  });

  it('answers 422 not_exportable, naming the element, for an id that GraphML cannot hold, and still exports it as JSON', async () => {
    const id = await newDraft(t.app, { model_id: 'ids', generator: 'random(edge_coverage(100))' });
    const base = `/walker/drafts/${id}`;
    await call(t.app, 'POST', `${base}/vertices`, { id: 'a\u0001b', name: 'v_A' });
    const before = (await call(t.app, 'GET', base)).body;
    const res = await raw(`${base}?format=graphml`);
    expect(res.statusCode).toBe(422);
    expect(res.json()).toEqual({
      code: 'not_exportable',
      message: expect.stringMatching(/^The draft cannot be exported as graphml: GraphML cannot hold the vertex id "a\\u0001b"/),
    });
    expect((await call(t.app, 'GET', base)).body).toEqual(before);
  });

  it('writes a draft of 1,000 elements or more in the conversion thread, answering as for a small one, refusals too', async () => {
    const id = await newDraft(t.app, { model_id: 'large', generator: 'random(edge_coverage(100))' });
    const base = `/walker/drafts/${id}`;
    for (let i = 0; i < LARGE_WRITE_ELEMENTS; i++) await call(t.app, 'POST', `${base}/vertices`, { id: `v${i}`, name: `v_${i}` });
    const json = (await call(t.app, 'GET', base)).body;
    const res = await raw(`${base}?format=graphml`);
    expect(res.statusCode).toBe(200);
    expect(res.headers['content-type']).toBe('application/graphml+xml; charset=utf-8');
    expect(res.body).toBe(graphmlFormat.write?.(json.model));
    // An id GraphML cannot hold is refused from the thread as the loop refuses it: 422, naming the element.
    await call(t.app, 'POST', `${base}/vertices`, { id: 'a\u0001b', name: 'v_A' });
    const refused = await raw(`${base}?format=graphml`);
    expect(refused.statusCode).toBe(422);
    expect(refused.json()).toEqual({
      code: 'not_exportable',
      message: expect.stringMatching(/^The draft cannot be exported as graphml: GraphML cannot hold the vertex id "a\\u0001b"/),
    });
  }, 60_000);

  it('keeps JSON the default, for no Accept, Accept: */*, application/json first, or ?format=json', async () => {
    const id = await smallDraft(t.app);
    for (const [url, accept] of [
      [`/walker/drafts/${id}`, undefined],
      [`/walker/drafts/${id}`, '*/*'],
      [`/walker/drafts/${id}`, 'application/json, application/graphml+xml'],
      [`/walker/drafts/${id}`, 'application/graphml+xml;q=0.5, application/json'],
      [`/walker/drafts/${id}?format=json`, 'application/graphml+xml'],
    ] as const) {
      const res = await raw(url, accept === undefined ? {} : { accept });
      expect(res.headers['content-type'], `${url} ${accept}`).toBe('application/json; charset=utf-8');
      expect(res.json().revision).toBe(6);
    }
  });

  it('draws the model as DOT, and answers 304 to a client that has the revision', async () => {
    const id = await smallDraft(t.app);
    const dot = await raw(`/walker/drafts/${id}?format=dot`);
    expect(dot.headers['content-type']).toBe('text/vnd.graphviz; charset=utf-8');
    expect(dot.body).toContain('"v1" -> "v2" [label="e_Go"];');
    const again = await raw(`/walker/drafts/${id}?format=graphml`, { 'if-none-match': '"6"' });
    expect([again.statusCode, again.body]).toEqual([304, '']);
  });

  it('answers 400 invalid_query for a format that cannot write, or another parameter', async () => {
    const id = await smallDraft(t.app);
    const unknown = await call(t.app, 'GET', `/walker/drafts/${id}?format=yaml`);
    expect([unknown.status, unknown.body]).toEqual([
      400,
      { code: 'invalid_query', message: "Query parameter 'format' must be one of json, graphml, dot, got 'yaml'." },
    ]);
    const other = await call(t.app, 'GET', `/walker/drafts/${id}?style=x`);
    expect([other.status, other.body.code]).toEqual([400, 'invalid_query']);
  });
});
