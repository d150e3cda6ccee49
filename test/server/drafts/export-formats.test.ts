import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { loadModelFile } from '../../../core/model/load.js';
import { graphmlFormat } from '../../../plugins/formats/graphml/index.js';
import { call, draftApp, smallDraft, type DraftTestApp } from './helpers.js';

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
