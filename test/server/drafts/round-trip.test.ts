import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import type { FastifyInstance } from 'fastify';
import { loadModelFile } from '../../../core/model/load.js';
import type { ModelFileJson, ModelJson } from '../../../core/model/types.js';
import { Walker } from '../../../core/walker.js';
import { call, draftApp, type DraftTestApp } from './helpers.js';

/** A shop with a guard over variables, actions, requirements, layout properties and weights. */
const SHOP: ModelJson = {
  id: 'shop',
  name: 'Shop',
  generator: 'random(edge_coverage(100))',
  startElementId: 'e_start',
  actions: ['items = 0;'],
  vertices: [
    { id: 'home', name: 'v_Home', properties: { x: 0, y: 0 } },
    { id: 'search', name: 'v_Search', requirements: ['REQ-SEARCH'], properties: { x: 200, y: 0 } },
    { id: 'item', name: 'v_Item', properties: { x: 400, y: 0 } },
    { id: 'cart', name: 'v_Cart', sharedState: 'CART', requirements: ['REQ-CART'], properties: { x: 400, y: 200 } },
  ],
  edges: [
    { id: 'e_start', name: 'e_Open', targetVertexId: 'home', actions: ['limit = 3;'] },
    { id: 'e_search', name: 'e_Search', sourceVertexId: 'home', targetVertexId: 'search' },
    { id: 'e_open', name: 'e_OpenItem', sourceVertexId: 'search', targetVertexId: 'item', weight: 0.7 },
    { id: 'e_back', name: 'e_Back', sourceVertexId: 'search', targetVertexId: 'home', weight: 0.3 },
    { id: 'e_add', name: 'e_Add', sourceVertexId: 'item', targetVertexId: 'cart', guard: 'items < limit', actions: ['items++;'] },
    { id: 'e_view', name: 'e_ViewCart', sourceVertexId: 'item', targetVertexId: 'cart', dependency: 50 },
    { id: 'e_more', name: 'e_ShopMore', sourceVertexId: 'cart', targetVertexId: 'search' },
    { id: 'e_empty', name: 'e_Empty', sourceVertexId: 'cart', targetVertexId: 'home', actions: ['items = 0;'] },
  ],
};

/** Builds the model through the draft API, one request per element, the way an editor would. */
async function replay(app: FastifyInstance, model: ModelJson): Promise<string> {
  const created = await call(app, 'POST', '/walker/drafts', {
    model_id: model.id,
    name: model.name,
    generator: model.generator,
    actions: model.actions,
  });
  const base = `/walker/drafts/${created.body.draft_id}`;
  for (const v of model.vertices) {
    const body = { id: v.id, name: v.name, shared_state: v.sharedState, requirements: v.requirements, properties: v.properties };
    expect((await call(app, 'POST', `${base}/vertices`, body)).status).toBe(201);
  }
  for (const e of model.edges) {
    const body = {
      id: e.id,
      name: e.name,
      source_vertex_id: e.sourceVertexId,
      target_vertex_id: e.targetVertexId,
      guard: e.guard,
      actions: e.actions,
      weight: e.weight,
      dependency: e.dependency,
    };
    expect((await call(app, 'POST', `${base}/edges`, body)).status).toBe(201);
  }
  expect((await call(app, 'PATCH', base, { start_element_id: model.startElementId })).status).toBe(200);
  return created.body.draft_id;
}

let t: DraftTestApp;
beforeEach(async () => {
  t = await draftApp();
});
afterEach(async () => {
  await t.app.close();
});

describe('a model built through drafts', () => {
  it('exports exactly the model it was built from, which load accepts as it is', async () => {
    const id = await replay(t.app, SHOP);
    const exported = (await call(t.app, 'GET', `/walker/drafts/${id}`)).body.model as ModelFileJson;
    expect(exported).toEqual({ models: [SHOP] });
    const loaded = loadModelFile(exported);
    expect(loaded.file.models[0]).toEqual(SHOP);
    expect(loaded.warnings).toEqual([]);
  });

  it('validates, loads with POST /walker/load as it is, and walks to 100 % edge coverage', async () => {
    const id = await replay(t.app, SHOP);
    expect((await call(t.app, 'GET', `/walker/drafts/${id}/validation`)).body).toEqual({ valid: true, issues: [], revision: 13 });
    const exported = (await call(t.app, 'GET', `/walker/drafts/${id}`)).body.model;
    const load = await call(t.app, 'POST', '/walker/load', exported);
    expect(load.body).toMatchObject({ result: 'ok' });
    const steps: string[] = [];
    while ((await call(t.app, 'GET', '/walker/hasNext')).body.hasNext === 'true') {
      steps.push((await call(t.app, 'GET', '/walker/getNext')).body.currentElementID);
    }
    expect(steps[0]).toBe('e_start');
    expect(new Set(steps.filter((s) => s.startsWith('e_')))).toEqual(new Set(SHOP.edges.map((e) => e.id)));
    const statistics = (await call(t.app, 'GET', '/walker/getStatistics')).body;
    expect(statistics).toMatchObject({ result: 'ok', edgeCoverage: 100, totalNumberOfEdges: SHOP.edges.length });
  });

  it('walks the same way offline through the library', async () => {
    const id = await replay(t.app, SHOP);
    const exported = (await call(t.app, 'GET', `/walker/drafts/${id}`)).body.model;
    const walk = new Walker(t.registries).walk(loadModelFile(exported), { seed: 7 });
    for (const _ of walk);
    expect(walk.statistics().edgeCoverage).toBe(100);
    walk.dispose();
  });
});
