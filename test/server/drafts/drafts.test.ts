import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { loadModelFile } from '../../../core/model/load.js';
import { call, draftApp, newDraft, smallDraft, type DraftTestApp } from './helpers.js';

let t: DraftTestApp;
beforeEach(async () => {
  t = await draftApp();
});
afterEach(async () => {
  await t.app.close();
});

describe('POST /walker/drafts', () => {
  it('creates an empty draft at revision 0 from an empty body without content type', async () => {
    const res = await call(t.app, 'POST', '/walker/drafts');
    expect(res.status).toBe(201);
    expect(res.body).toMatchObject({ revision: 0, name: null, generator: null, start_element_id: null });
    expect(res.body.draft_id).toMatch(/^[0-9a-f-]{36}$/);
    expect(res.body.model_id).toMatch(/^model-/);
    expect(res.body.model_id).not.toBe(res.body.draft_id);
  });

  it('takes model_id, name, generator, actions, requirements and properties', async () => {
    const body = {
      model_id: 'Login',
      name: 'Login model',
      generator: 'random(edge_coverage(100))',
      actions: ['x = 0;'],
      requirements: ['REQ-1'],
      properties: { author: 'me' },
    };
    const res = await call(t.app, 'POST', '/walker/drafts', body);
    expect(res.status).toBe(201);
    expect(res.body).toMatchObject({ model_id: 'Login', name: 'Login model', actions: ['x = 0;'], properties: { author: 'me' } });
  });

  it('gives every draft its own id', async () => {
    const ids = new Set<string>();
    for (let i = 0; i < 20; i++) ids.add(await newDraft(t.app));
    expect(ids.size).toBe(20);
  });

  it('accepts an empty body sent as JSON', async () => {
    const res = await call(t.app, 'POST', '/walker/drafts', '', { 'content-type': 'application/json' });
    expect(res.status).toBe(201);
  });

  it('answers 422 invalid_model for unknown members and wrong types, naming the member', async () => {
    let res = await call(t.app, 'POST', '/walker/drafts', { modelId: 'x' });
    expect(res.status).toBe(422);
    expect(res.body.code).toBe('invalid_model');
    expect(res.body.message).toContain("'modelId'");
    expect(res.body.message).toContain('model_id');
    res = await call(t.app, 'POST', '/walker/drafts', { actions: 'x = 1;' });
    expect(res.body).toEqual({ code: 'invalid_model', message: "'actions' must be a list or null, got \"x = 1;\"." });
    res = await call(t.app, 'POST', '/walker/drafts', { actions: ['ok', 5] });
    expect(res.body.message).toContain("'actions[1]' must be a string");
    res = await call(t.app, 'POST', '/walker/drafts', { model_id: '' });
    expect(res.body.message).toContain("'model_id' must not be empty");
    res = await call(t.app, 'POST', '/walker/drafts', [1, 2]);
    expect(res.status).toBe(422);
    expect(res.body.message).toContain('must be a JSON object');
  });

  it('explains why start_element_id cannot be given at creation', async () => {
    const res = await call(t.app, 'POST', '/walker/drafts', { start_element_id: 'e0' });
    expect(res.status).toBe(422);
    expect(res.body.message).toContain('PATCH /walker/drafts/{draft_id}');
  });
});

describe('GET /walker/drafts/{id} (export)', () => {
  it('writes canonical model JSON: field names of the model file, unset fields left out, properties kept', async () => {
    const id = await smallDraft(t.app);
    const base = `/walker/drafts/${id}`;
    await call(t.app, 'PATCH', `${base}/vertices/v1`, { properties: { x: 10, y: 20 }, shared_state: 'S' });
    await call(t.app, 'PATCH', `${base}/edges/e1`, { guard: 'n < 3', actions: ['n++;'], weight: 0.5, dependency: 80 });
    const res = await call(t.app, 'GET', base);
    expect(res.status).toBe(200);
    expect(res.body.revision).toBe(8);
    expect(res.body.model).toEqual({
      models: [
        {
          id: 'small',
          name: 'Small',
          generator: 'random(edge_coverage(100))',
          startElementId: 'e0',
          vertices: [
            { id: 'v1', name: 'v_One', sharedState: 'S', properties: { x: 10, y: 20 } },
            { id: 'v2', name: 'v_Two' },
          ],
          edges: [
            { id: 'e0', name: 'e_Start', targetVertexId: 'v1' },
            { id: 'e1', name: 'e_Go', sourceVertexId: 'v1', targetVertexId: 'v2', guard: 'n < 3', actions: ['n++;'], weight: 0.5, dependency: 80 },
            { id: 'e2', name: 'e_Back', sourceVertexId: 'v2', targetVertexId: 'v1' },
          ],
        },
      ],
    });
    expect(() => loadModelFile(res.body.model)).not.toThrow();
  });

  it('keeps the order of the members as the model file types declare them', async () => {
    const id = await smallDraft(t.app);
    const model = (await call(t.app, 'GET', `/walker/drafts/${id}`)).body.model.models[0];
    expect(Object.keys(model)).toEqual(['id', 'name', 'generator', 'startElementId', 'vertices', 'edges']);
  });

  it('answers 404 draft_not_found for an unknown draft', async () => {
    const res = await call(t.app, 'GET', '/walker/drafts/nope');
    expect(res.status).toBe(404);
    expect(res.body.code).toBe('draft_not_found');
    expect(res.body).not.toHaveProperty('result');
  });
});

describe('PATCH /walker/drafts/{id}', () => {
  it('answers the draft with its model-level fields in snake_case and the new revision', async () => {
    const id = await smallDraft(t.app);
    const res = await call(t.app, 'PATCH', `/walker/drafts/${id}`, { name: 'Renamed', predefined_path_edge_ids: ['e0', 'e1', 'e2'] });
    expect(res.status).toBe(200);
    expect(res.body).toEqual({
      draft_id: id,
      model_id: 'small',
      revision: 7,
      name: 'Renamed',
      generator: 'random(edge_coverage(100))',
      start_element_id: 'e0',
      actions: [],
      requirements: [],
      properties: {},
      predefined_path_edge_ids: ['e0', 'e1', 'e2'],
    });
  });

  it('keeps omitted fields and clears fields sent as null', async () => {
    const id = await newDraft(t.app, { name: 'N', generator: 'g', actions: ['a;'], requirements: ['r'], properties: { p: 1 } });
    await call(t.app, 'PATCH', `/walker/drafts/${id}`, { name: 'M' });
    let res = await call(t.app, 'PATCH', `/walker/drafts/${id}`, {});
    expect(res.body).toMatchObject({ name: 'M', generator: 'g', actions: ['a;'], requirements: ['r'], properties: { p: 1 } });
    res = await call(t.app, 'PATCH', `/walker/drafts/${id}`, {
      name: null,
      generator: null,
      actions: null,
      requirements: null,
      properties: null,
      start_element_id: null,
      predefined_path_edge_ids: null,
    });
    expect(res.body).toMatchObject({
      name: null,
      generator: null,
      actions: [],
      requirements: [],
      properties: {},
      start_element_id: null,
      predefined_path_edge_ids: [],
    });
    const exported = (await call(t.app, 'GET', `/walker/drafts/${id}`)).body.model.models[0];
    expect(Object.keys(exported)).toEqual(['id', 'vertices', 'edges']);
  });

  it('stores the generator as written; validation judges it', async () => {
    const id = await newDraft(t.app);
    const res = await call(t.app, 'PATCH', `/walker/drafts/${id}`, { generator: 'random(((' });
    expect(res.status).toBe(200);
  });

  it('refuses a start element or predefined path that names no element (422 invalid_model)', async () => {
    const id = await smallDraft(t.app);
    let res = await call(t.app, 'PATCH', `/walker/drafts/${id}`, { start_element_id: 'zz' });
    expect(res.status).toBe(422);
    expect(res.body.code).toBe('invalid_model');
    expect(res.body.message).toContain("'zz'");
    res = await call(t.app, 'PATCH', `/walker/drafts/${id}`, { predefined_path_edge_ids: ['e0', 'v1'] });
    expect(res.body).toMatchObject({ code: 'invalid_model' });
    expect(res.body.message).toContain("'predefined_path_edge_ids[1]' names a vertex ('v1'), not an edge");
    res = await call(t.app, 'PATCH', `/walker/drafts/${id}`, { start_element_id: 'v2' });
    expect(res.status).toBe(200);
  });

  it('refuses model_id, which is fixed at creation', async () => {
    const id = await newDraft(t.app);
    const res = await call(t.app, 'PATCH', `/walker/drafts/${id}`, { model_id: 'other' });
    expect(res.status).toBe(422);
    expect(res.body.message).toContain('fixed when the draft is created');
  });
});

describe('DELETE /walker/drafts/{id}', () => {
  it('discards the draft and frees it; later requests answer 404', async () => {
    const id = await smallDraft(t.app);
    expect(t.store.size).toBe(1);
    const res = await call(t.app, 'DELETE', `/walker/drafts/${id}`);
    expect(res).toMatchObject({ status: 200, body: { discarded: true } });
    expect(t.store.size).toBe(0);
    for (const [method, url] of [
      ['GET', `/walker/drafts/${id}`],
      ['DELETE', `/walker/drafts/${id}`],
      ['GET', `/walker/drafts/${id}/validation`],
    ] as const) {
      const again = await call(t.app, method, url);
      expect(again).toMatchObject({ status: 404, body: { code: 'draft_not_found' } });
    }
    const post = await call(t.app, 'POST', `/walker/drafts/${id}/vertices`, {});
    expect(post).toMatchObject({ status: 404, body: { code: 'draft_not_found' } });
  });
});
