import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { call, draftApp, smallDraft, snapshot, type DraftTestApp } from './helpers.js';

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

describe('DELETE .../elements/{id}', () => {
  it('removes an edge and answers removed_ids and the new revision', async () => {
    const res = await call(t.app, 'DELETE', `${base}/elements/e2`);
    expect(res).toMatchObject({ status: 200, body: { removed_ids: ['e2'], revision: 7 } });
    const edges = (await snapshot(t.app, id)) as any;
    expect(edges.model.models[0].edges.map((e: any) => e.id)).toEqual(['e0', 'e1']);
  });

  it('refuses a vertex that still has edges (409 referenced_element) unless cascade=true', async () => {
    const before = await snapshot(t.app, id);
    const res = await call(t.app, 'DELETE', `${base}/elements/v2`);
    expect(res).toMatchObject({ status: 409, body: { code: 'referenced_element' } });
    expect(res.body.message).toContain("'e1', 'e2'");
    expect(res.body.message).toContain('cascade=true');
    expect(await snapshot(t.app, id)).toEqual(before);

    const ok = await call(t.app, 'DELETE', `${base}/elements/v2?cascade=true`);
    expect(ok.body).toEqual({ removed_ids: ['v2', 'e1', 'e2'], revision: 7 });
  });

  it('cascade=false is the default, said explicitly', async () => {
    const res = await call(t.app, 'DELETE', `${base}/elements/v2?cascade=false`);
    expect(res.body.code).toBe('referenced_element');
  });

  it('refuses an element the start element names unless cleanup_references=true, which clears it', async () => {
    let res = await call(t.app, 'DELETE', `${base}/elements/e0`);
    expect(res).toMatchObject({ status: 409, body: { code: 'referenced_element' } });
    expect(res.body.message).toContain("start_element_id ('e0')");
    res = await call(t.app, 'DELETE', `${base}/elements/v1?cascade=true`);
    expect(res.body.code).toBe('referenced_element');
    res = await call(t.app, 'DELETE', `${base}/elements/v1?cascade=true&cleanup_references=true`);
    expect(res.body).toEqual({ removed_ids: ['v1', 'e0', 'e1', 'e2'], revision: 7 });
    const draft = await call(t.app, 'PATCH', base, {});
    expect(draft.body.start_element_id).toBeNull();
  });

  it('drops every occurrence from the predefined path with cleanup_references=true', async () => {
    await call(t.app, 'PATCH', base, { predefined_path_edge_ids: ['e0', 'e1', 'e2', 'e1', 'e2'] });
    let res = await call(t.app, 'DELETE', `${base}/elements/e1`);
    expect(res.body.code).toBe('referenced_element');
    expect(res.body.message).toContain('predefined_path_edge_ids');
    res = await call(t.app, 'DELETE', `${base}/elements/e1?cleanup_references=true`);
    expect(res.status).toBe(200);
    const draft = await call(t.app, 'PATCH', base, {});
    expect(draft.body).toMatchObject({ predefined_path_edge_ids: ['e0', 'e2', 'e2'], start_element_id: 'e0' });
  });

  it('checks expected_revision from the query', async () => {
    let res = await call(t.app, 'DELETE', `${base}/elements/e2?expected_revision=3`);
    expect(res).toMatchObject({ status: 409, body: { code: 'revision_conflict' } });
    res = await call(t.app, 'DELETE', `${base}/elements/e2?expected_revision=6`);
    expect(res).toMatchObject({ status: 200, body: { revision: 7 } });
  });

  it('answers 400 invalid_query for values other than true/false and whole numbers, and for unknown parameters', async () => {
    const before = await snapshot(t.app, id);
    const cases: Array<[string, string]> = [
      ['cascade=yes', "Query parameter 'cascade' must be true or false, got \"yes\"."],
      ['cascade=1', "'cascade' must be true or false"],
      ['cascade=TRUE', "'cascade' must be true or false"],
      ['cascade=', "'cascade' must be true or false"],
      ['cleanup_references=on', "'cleanup_references' must be true or false"],
      ['expected_revision=abc', "'expected_revision' must be a whole number"],
      ['expected_revision=-1', "'expected_revision' must be a whole number"],
      ['expected_revision=1.5', "'expected_revision' must be a whole number"],
      ['cascade=true&cascade=false', "'cascade' must be given once"],
      ['cascad=true', "Unknown query parameter 'cascad'; allowed: cascade, cleanup_references, expected_revision."],
    ];
    for (const [query, message] of cases) {
      const res = await call(t.app, 'DELETE', `${base}/elements/v2?${query}`);
      expect(res.status, query).toBe(400);
      expect(res.body).toEqual({ code: 'invalid_query', message: expect.stringContaining(message) });
    }
    expect(await snapshot(t.app, id)).toEqual(before);
  });

  it('answers 404 element_not_found for an unknown element', async () => {
    const res = await call(t.app, 'DELETE', `${base}/elements/nope`);
    expect(res).toMatchObject({ status: 404, body: { code: 'element_not_found' } });
  });

  it('frees the id for reuse', async () => {
    await call(t.app, 'DELETE', `${base}/elements/e2`);
    const res = await call(t.app, 'POST', `${base}/vertices`, { id: 'e2' });
    expect(res.status).toBe(201);
  });
});
