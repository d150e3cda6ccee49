import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { call, draftApp, newDraft, smallDraft, type DraftTestApp } from './helpers.js';

let t: DraftTestApp;
let base: string;
beforeEach(async () => {
  t = await draftApp();
  base = `/walker/drafts/${await newDraft(t.app)}`;
});
afterEach(async () => {
  await t.app.close();
});

describe('POST .../vertices', () => {
  it('answers 201 with the vertex (defaults filled in) and the new revision', async () => {
    const res = await call(t.app, 'POST', `${base}/vertices`, { id: 'v_A' });
    expect(res.status).toBe(201);
    expect(res.body).toEqual({
      vertex: { id: 'v_A', name: 'v_A', shared_state: null, actions: [], requirements: [], properties: {} },
      revision: 1,
    });
  });

  it('assigns an id when none is given, never one already taken', async () => {
    await call(t.app, 'POST', `${base}/vertices`, { id: 'v1' });
    const a = await call(t.app, 'POST', `${base}/vertices`, {});
    const b = await call(t.app, 'POST', `${base}/vertices`);
    expect(a.body.vertex.id).toBe('v2');
    expect(b.body.vertex.id).toBe('v3');
    expect(b.body.vertex.name).toBe('v3');
  });

  it('assigns an id for a null id as for an absent one (null means the creation default)', async () => {
    const vertex = await call(t.app, 'POST', `${base}/vertices`, { id: null });
    expect(vertex.body.vertex).toMatchObject({ id: 'v1', name: 'v1' });
    const edge = await call(t.app, 'POST', `${base}/edges`, { id: null, target_vertex_id: 'v1' });
    expect(edge.body.edge).toMatchObject({ id: 'e2', name: 'e2' });
  });

  it("puts a new element before another of its kind with 'before', and refuses a 'before' that names none, changing nothing", async () => {
    for (const id of ['a', 'c']) await call(t.app, 'POST', `${base}/vertices`, { id });
    expect((await call(t.app, 'POST', `${base}/vertices`, { id: 'b', before: 'c' })).status).toBe(201);
    await call(t.app, 'POST', `${base}/edges`, { id: 'e2', target_vertex_id: 'a' });
    await call(t.app, 'POST', `${base}/edges`, { id: 'e1', target_vertex_id: 'b', before: 'e2' });
    await call(t.app, 'POST', `${base}/edges`, { id: 'e3', target_vertex_id: 'c', before: null });
    for (const [kind, before] of [['vertices', 'e1'], ['edges', 'a'], ['edges', 'nothing']] as const) {
      const refused = await call(t.app, 'POST', `${base}/${kind}`, { id: 'x', ...(kind === 'edges' ? { target_vertex_id: 'a' } : {}), before });
      expect(refused.status).toBe(422);
      expect(refused.body.code).toBe('invalid_element');
      expect(refused.body.message).toContain(`'before' names no ${kind === 'vertices' ? 'vertex' : 'edge'} of the draft ('${before}')`);
    }
    const exported = await call(t.app, 'GET', base);
    expect(exported.body.revision).toBe(6);
    const [model] = exported.body.model.models;
    expect(model.vertices.map((v: { id: string }) => v.id)).toEqual(['a', 'b', 'c']);
    expect(model.edges.map((e: { id: string }) => e.id)).toEqual(['e1', 'e2', 'e3']);
  });

  it('keeps every given field', async () => {
    const vertex = { id: 'v', name: 'v_Name', shared_state: 'LOGIN', actions: ['a = 1;'], requirements: ['R'], properties: { x: 1.5, y: -2 } };
    const res = await call(t.app, 'POST', `${base}/vertices`, vertex);
    expect(res.body.vertex).toEqual(vertex);
  });

  it('answers 409 duplicate_element_id for an id a vertex or an edge has', async () => {
    await call(t.app, 'POST', `${base}/vertices`, { id: 'x' });
    await call(t.app, 'POST', `${base}/edges`, { id: 'y', target_vertex_id: 'x' });
    for (const id of ['x', 'y']) {
      const res = await call(t.app, 'POST', `${base}/vertices`, { id });
      expect(res.status).toBe(409);
      expect(res.body.code).toBe('duplicate_element_id');
      expect(res.body.message).toContain(`'${id}'`);
    }
    const edge = await call(t.app, 'POST', `${base}/edges`, { id: 'x', target_vertex_id: 'x' });
    expect(edge.body.code).toBe('duplicate_element_id');
  });

  it('answers 422 invalid_element for unknown members and wrong types', async () => {
    const cases: Array<[object, string]> = [
      [{ id: 'v', colour: 'red' }, "Unknown member 'colour' in the vertex; allowed: "],
      [{ sharedState: 'S' }, "Unknown member 'sharedState'"],
      [{ id: 5 }, "'id' must be a string or null, got 5."],
      [{ id: '' }, "'id' must not be empty"],
      [{ name: ['a'] }, "'name' must be a string or null"],
      [{ properties: [] }, "'properties' must be a JSON object or null, got []."],
      [{ requirements: [null] }, "'requirements[0]' must be a string, got null."],
      [{ expected_revision: '0' }, "'expected_revision' must be a whole number"],
      [{ expected_revision: -1 }, "'expected_revision' must be at least 0"],
    ];
    for (const [body, message] of cases) {
      const res = await call(t.app, 'POST', `${base}/vertices`, body);
      expect(res.status, JSON.stringify(body)).toBe(422);
      expect(res.body.code).toBe('invalid_element');
      expect(res.body.message).toContain(message);
    }
  });
});

describe('POST .../edges', () => {
  beforeEach(async () => {
    await call(t.app, 'POST', `${base}/vertices`, { id: 'a' });
    await call(t.app, 'POST', `${base}/vertices`, { id: 'b' });
  });

  it('answers 201 with the edge and the revision; no source makes a start edge', async () => {
    const res = await call(t.app, 'POST', `${base}/edges`, { id: 'e0', name: 'e_Start', target_vertex_id: 'a' });
    expect(res.status).toBe(201);
    expect(res.body).toEqual({
      edge: {
        id: 'e0',
        name: 'e_Start',
        source_vertex_id: null,
        target_vertex_id: 'a',
        guard: null,
        actions: [],
        requirements: [],
        properties: {},
        weight: null,
        dependency: null,
      },
      revision: 3,
    });
  });

  it('keeps guard, weight and dependency', async () => {
    const body = { source_vertex_id: 'a', target_vertex_id: 'b', guard: 'x > 1', weight: 0.25, dependency: 100 };
    const res = await call(t.app, 'POST', `${base}/edges`, body);
    expect(res.body.edge).toMatchObject({ ...body, id: 'e1', name: 'e1' });
  });

  it('answers 422 missing_target_vertex without a target and unknown_vertex for an unknown end', async () => {
    let res = await call(t.app, 'POST', `${base}/edges`, { source_vertex_id: 'a' });
    expect(res).toMatchObject({ status: 422, body: { code: 'missing_target_vertex' } });
    res = await call(t.app, 'POST', `${base}/edges`, { target_vertex_id: null });
    expect(res.body.code).toBe('missing_target_vertex');
    res = await call(t.app, 'POST', `${base}/edges`, { target_vertex_id: 'zz' });
    expect(res).toMatchObject({ status: 422, body: { code: 'unknown_vertex' } });
    expect(res.body.message).toContain("'target_vertex_id' names no vertex of the draft ('zz')");
    res = await call(t.app, 'POST', `${base}/edges`, { source_vertex_id: 'zz', target_vertex_id: 'a' });
    expect(res.body.message).toContain("'source_vertex_id'");
    await call(t.app, 'POST', `${base}/edges`, { id: 'e', target_vertex_id: 'a' });
    res = await call(t.app, 'POST', `${base}/edges`, { target_vertex_id: 'e' });
    expect(res.body).toMatchObject({ code: 'unknown_vertex' });
    expect(res.body.message).toContain("an edge ('e'), not a vertex");
  });

  it('answers 422 invalid_weight and invalid_dependency outside their ranges', async () => {
    for (const weight of [-0.1, 1.01, 2]) {
      const res = await call(t.app, 'POST', `${base}/edges`, { target_vertex_id: 'a', weight });
      expect(res).toMatchObject({ status: 422, body: { code: 'invalid_weight' } });
    }
    for (const dependency of [-1, 101, 50.5]) {
      const res = await call(t.app, 'POST', `${base}/edges`, { target_vertex_id: 'a', dependency });
      expect(res).toMatchObject({ status: 422, body: { code: 'invalid_dependency' } });
    }
    for (const [weight, dependency] of [[0, 0], [1, 100]]) {
      const res = await call(t.app, 'POST', `${base}/edges`, { target_vertex_id: 'a', weight, dependency });
      expect(res.status).toBe(201);
    }
  });

  it('answers 422 invalid_element for a weight of the wrong type', async () => {
    const res = await call(t.app, 'POST', `${base}/edges`, { target_vertex_id: 'a', weight: '0.5' });
    expect(res.body).toEqual({ code: 'invalid_element', message: "'weight' must be a number or null, got \"0.5\"." });
  });
});

describe('PATCH .../vertices/{id} and .../edges/{id}', () => {
  let id: string;
  beforeEach(async () => {
    id = await smallDraft(t.app);
    base = `/walker/drafts/${id}`;
  });

  it('changes the given fields, keeps the omitted ones and answers {vertex, revision}', async () => {
    await call(t.app, 'PATCH', `${base}/vertices/v1`, { actions: ['a;'], properties: { x: 1 } });
    const res = await call(t.app, 'PATCH', `${base}/vertices/v1`, { shared_state: 'S' });
    expect(res.status).toBe(200);
    expect(res.body).toEqual({
      vertex: { id: 'v1', name: 'v_One', shared_state: 'S', actions: ['a;'], requirements: [], properties: { x: 1 } },
      revision: 8,
    });
  });

  it('puts the creation defaults back for null: name becomes the id, lists and properties empty', async () => {
    await call(t.app, 'PATCH', `${base}/vertices/v1`, { shared_state: 'S', actions: ['a;'], requirements: ['r'], properties: { x: 1 } });
    const res = await call(t.app, 'PATCH', `${base}/vertices/v1`, { name: null, shared_state: null, actions: null, requirements: null, properties: null });
    expect(res.body.vertex).toEqual({ id: 'v1', name: 'v1', shared_state: null, actions: [], requirements: [], properties: {} });
  });

  it('clears guard, weight and dependency of an edge with null, and a null source makes a start edge', async () => {
    await call(t.app, 'PATCH', `${base}/edges/e1`, { guard: 'x', weight: 0.3, dependency: 7, requirements: ['r'] });
    const res = await call(t.app, 'PATCH', `${base}/edges/e1`, { guard: null, weight: null, dependency: null, source_vertex_id: null, requirements: null });
    expect(res.body.edge).toEqual({
      id: 'e1',
      name: 'e_Go',
      source_vertex_id: null,
      target_vertex_id: 'v2',
      guard: null,
      actions: [],
      requirements: [],
      properties: {},
      weight: null,
      dependency: null,
    });
    const exported = (await call(t.app, 'GET', base)).body.model.models[0].edges[1];
    expect(exported).toEqual({ id: 'e1', name: 'e_Go', targetVertexId: 'v2' });
  });

  it('moves an edge to other vertices, and cascading follows the move', async () => {
    const res = await call(t.app, 'PATCH', `${base}/edges/e1`, { source_vertex_id: 'v2', target_vertex_id: 'v2' });
    expect(res.body.edge).toMatchObject({ source_vertex_id: 'v2', target_vertex_id: 'v2' });
    const del = await call(t.app, 'DELETE', `${base}/elements/v2?cascade=true`);
    expect(del.body.removed_ids.sort()).toEqual(['e1', 'e2', 'v2']);
  });

  it('refuses to clear target_vertex_id (422 missing_target_vertex) and checks new ends', async () => {
    let res = await call(t.app, 'PATCH', `${base}/edges/e1`, { target_vertex_id: null });
    expect(res).toMatchObject({ status: 422, body: { code: 'missing_target_vertex' } });
    expect(res.body.message).toContain('cannot be cleared');
    res = await call(t.app, 'PATCH', `${base}/edges/e1`, { source_vertex_id: 'nope' });
    expect(res.body.code).toBe('unknown_vertex');
    res = await call(t.app, 'PATCH', `${base}/edges/e1`, { weight: 7 });
    expect(res.body.code).toBe('invalid_weight');
    res = await call(t.app, 'PATCH', `${base}/edges/e1`, { dependency: 1000 });
    expect(res.body.code).toBe('invalid_dependency');
  });

  it('refuses to change ids', async () => {
    const res = await call(t.app, 'PATCH', `${base}/vertices/v1`, { id: 'v9' });
    expect(res).toMatchObject({ status: 422, body: { code: 'invalid_element' } });
    expect(res.body.message).toContain('ids never change');
  });

  it('answers 404 element_not_found for an unknown id, or an id of the other kind', async () => {
    let res = await call(t.app, 'PATCH', `${base}/vertices/zz`, { name: 'x' });
    expect(res).toMatchObject({ status: 404, body: { code: 'element_not_found' } });
    res = await call(t.app, 'PATCH', `${base}/vertices/e1`, { name: 'x' });
    expect(res.body.code).toBe('element_not_found');
    expect(res.body.message).toContain('.../edges/e1');
    res = await call(t.app, 'PATCH', `${base}/edges/v1`, { name: 'x' });
    expect(res).toMatchObject({ status: 404, body: { code: 'element_not_found' } });
  });

  it('answers 404 draft_not_found before looking at the element', async () => {
    const res = await call(t.app, 'PATCH', '/walker/drafts/none/vertices/v1', { name: 'x' });
    expect(res.body.code).toBe('draft_not_found');
  });
});
