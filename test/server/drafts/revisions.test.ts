import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { call, draftApp, newDraft, smallDraft, snapshot, type DraftTestApp } from './helpers.js';

let t: DraftTestApp;
beforeEach(async () => {
  t = await draftApp();
});
afterEach(async () => {
  await t.app.close();
});

describe('revisions', () => {
  it('start at 0 and grow by one with every successful mutation', async () => {
    const id = await newDraft(t.app);
    const base = `/walker/drafts/${id}`;
    const revisions = [
      (await call(t.app, 'POST', `${base}/vertices`, { id: 'a' })).body.revision,
      (await call(t.app, 'PATCH', `${base}/vertices/a`, { name: 'A' })).body.revision,
      (await call(t.app, 'POST', `${base}/edges`, { id: 'e', target_vertex_id: 'a' })).body.revision,
      (await call(t.app, 'PATCH', `${base}/edges/e`, { name: 'E' })).body.revision,
      (await call(t.app, 'PATCH', base, { start_element_id: 'e' })).body.revision,
      (await call(t.app, 'DELETE', `${base}/elements/e?cleanup_references=true`)).body.revision,
    ];
    expect(revisions).toEqual([1, 2, 3, 4, 5, 6]);
  });

  it('are not changed by export or validation', async () => {
    const id = await smallDraft(t.app);
    const before = await snapshot(t.app, id);
    await call(t.app, 'GET', `/walker/drafts/${id}/validation`);
    await call(t.app, 'GET', `/walker/drafts/${id}`);
    expect(await snapshot(t.app, id)).toEqual(before);
    expect((await call(t.app, 'GET', `/walker/drafts/${id}/validation`)).body.revision).toBe(6);
  });

  it('expected_revision equal to the current one succeeds; any other answers 409 revision_conflict', async () => {
    const id = await smallDraft(t.app);
    const base = `/walker/drafts/${id}`;
    const stale = await call(t.app, 'PATCH', base, { name: 'x', expected_revision: 5 });
    expect(stale).toMatchObject({ status: 409, body: { code: 'revision_conflict' } });
    expect(stale.body.message).toContain('revision 6');
    const future = await call(t.app, 'PATCH', `${base}/vertices/v1`, { name: 'x', expected_revision: 7 });
    expect(future.body.code).toBe('revision_conflict');
    const ok = await call(t.app, 'PATCH', `${base}/edges/e1`, { name: 'x', expected_revision: 6 });
    expect(ok).toMatchObject({ status: 200, body: { revision: 7 } });
  });
});

describe('failed mutations', () => {
  it('leave model and revision exactly as they were', async () => {
    const id = await smallDraft(t.app);
    const base = `/walker/drafts/${id}`;
    const failures: Array<[string, string, unknown, string]> = [
      ['PATCH', base, { name: 'x', expected_revision: 0 }, 'revision_conflict'],
      ['PATCH', base, { name: 'x', start_element_id: 'nope' }, 'invalid_model'],
      ['PATCH', base, { name: 'x', predefined_path_edge_ids: ['e0', 'nope'] }, 'invalid_model'],
      ['PATCH', base, { name: 'x', colour: 'red' }, 'invalid_model'],
      ['POST', `${base}/vertices`, { id: 'v1' }, 'duplicate_element_id'],
      ['POST', `${base}/vertices`, { id: 'v9', actions: [1] }, 'invalid_element'],
      ['PATCH', `${base}/vertices/v1`, { name: 'x', actions: 'no' }, 'invalid_element'],
      ['PATCH', `${base}/vertices/v1`, { name: 'x', expected_revision: 2 }, 'revision_conflict'],
      ['POST', `${base}/edges`, { id: 'e9', source_vertex_id: 'v1' }, 'missing_target_vertex'],
      ['POST', `${base}/edges`, { id: 'e9', target_vertex_id: 'nope' }, 'unknown_vertex'],
      ['PATCH', `${base}/edges/e1`, { name: 'x', guard: 'g', target_vertex_id: 'nope' }, 'unknown_vertex'],
      ['PATCH', `${base}/edges/e1`, { name: 'x', guard: 'g', target_vertex_id: null }, 'missing_target_vertex'],
      ['PATCH', `${base}/edges/e1`, { name: 'x', guard: 'g', weight: 1.5 }, 'invalid_weight'],
      ['PATCH', `${base}/edges/e1`, { name: 'x', source_vertex_id: 'v2', dependency: -3 }, 'invalid_dependency'],
      ['PATCH', `${base}/edges/zz`, { name: 'x' }, 'element_not_found'],
      ['DELETE', `${base}/elements/v1?cascade=true`, undefined, 'referenced_element'],
      ['DELETE', `${base}/elements/v1?cascade=true&cleanup_references=maybe`, undefined, 'invalid_query'],
      ['POST', `${base}/vertices`, '{"id": "v9",', 'invalid_json'],
    ];
    for (const [method, url, body, code] of failures) {
      const before = await snapshot(t.app, id);
      const res = await call(t.app, method as 'POST', url, body);
      expect(res.body.code, `${method} ${url} ${JSON.stringify(body)}`).toBe(code);
      expect(await snapshot(t.app, id)).toEqual(before);
    }
  });

  it('that hit the element limit leave the draft as it was (429 model_limit_reached)', async () => {
    await t.app.close();
    t = await draftApp({ drafts: { maxElements: 5 } });
    const id = await smallDraft(t.app);
    const before = await snapshot(t.app, id);
    const res = await call(t.app, 'POST', `/walker/drafts/${id}/vertices`, { id: 'v6' });
    expect(res).toMatchObject({ status: 429, body: { code: 'model_limit_reached' } });
    expect(res.body.message).toContain('--max-draft-elements');
    expect(await snapshot(t.app, id)).toEqual(before);
    const edge = await call(t.app, 'POST', `/walker/drafts/${id}/edges`, { target_vertex_id: 'v1' });
    expect(edge.body.code).toBe('model_limit_reached');
    await call(t.app, 'DELETE', `/walker/drafts/${id}/elements/e2`);
    expect((await call(t.app, 'POST', `/walker/drafts/${id}/vertices`, {})).status).toBe(201);
  });
});

describe('concurrent mutations of one draft', () => {
  it('of N requests with the same expected_revision, exactly one succeeds', async () => {
    const app = (await draftApp()).app;
    const id = await newDraft(app);
    const requests = Array.from({ length: 25 }, (_, i) =>
      call(app, 'POST', `/walker/drafts/${id}/vertices`, { id: `v${i}`, expected_revision: 0 }),
    );
    const answers = await Promise.all(requests);
    const statuses = answers.map((a) => a.status).sort();
    expect(statuses.filter((s) => s === 201)).toHaveLength(1);
    expect(statuses.filter((s) => s === 409)).toHaveLength(24);
    expect(answers.filter((a) => a.status === 409).every((a) => a.body.code === 'revision_conflict')).toBe(true);
    const exported = (await call(app, 'GET', `/walker/drafts/${id}`)).body;
    expect(exported.revision).toBe(1);
    expect(exported.model.models[0].vertices).toHaveLength(1);
    await app.close();
  });

  it('without expected_revision are applied one after another, each with its own revision', async () => {
    const app = (await draftApp()).app;
    const id = await newDraft(app);
    const answers = await Promise.all(
      Array.from({ length: 25 }, () => call(app, 'POST', `/walker/drafts/${id}/vertices`, {})),
    );
    expect(answers.every((a) => a.status === 201)).toBe(true);
    expect(answers.map((a) => a.body.revision).sort((a, b) => a - b)).toEqual(Array.from({ length: 25 }, (_, i) => i + 1));
    expect(new Set(answers.map((a) => a.body.vertex.id)).size).toBe(25);
    await app.close();
  });
});
