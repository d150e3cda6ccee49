import { Type } from 'typebox';
import { deleteElement } from '../../drafts/delete-element.js';
import { addEdge, patchEdge } from '../../drafts/edges.js';
import { draftResponses, EdgeResponse, RemovalResponse, VertexResponse } from '../../drafts/responses.js';
import { Id } from '../../drafts/ids.js';
import { BodyContracts, ChangeHeaders, DeleteElementQuery } from '../../drafts/schemas.js';
import { addVertex, patchVertex } from '../../drafts/vertices.js';
import { DraftParams, operation, withBody, type DraftApp, type DraftRouteContext } from './draft-routes.js';
import { preconditionsOf, withETag } from './revision-http.js';

const { draft_id } = DraftParams.properties;
const VertexParams = Type.Object({ draft_id, vertex_id: Id('A vertex of the draft.') });
const EdgeParams = Type.Object({ draft_id, edge_id: Id('An edge of the draft.') });
const ElementParams = Type.Object({ draft_id, element_id: Id('A vertex or an edge.') });

/**
 * How changing an element can fail, besides 500 (docs/api-drafts.md, Errors). Every change may grow the
 * draft, so every one can meet the memory limit (429).
 */
const CHANGE_FAILURES = [400, 404, 409, 410, 412, 413, 415, 422, 429] as const;
const TAGGED = { etag: true } as const;

/**
 * The routes of vertices and edges. Each reads its draft and applies the change in one synchronous run, so
 * that concurrent requests for one draft are serialised (docs/api-drafts.md).
 */
export function registerElementRoutes(app: DraftApp, ctx: DraftRouteContext): void {
  registerVertexRoutes(app, ctx);
  registerEdgeRoutes(app, ctx);
  registerDeleteElement(app, ctx);
}

function registerVertexRoutes(app: DraftApp, { store, maxElements }: DraftRouteContext): void {
  const add = withBody(BodyContracts.addVertex, {
    ...operation('addVertex', 'Add a vertex', 'The id is assigned (v<n>) when absent; the name defaults to the id.'),
    params: DraftParams,
    headers: ChangeHeaders,
    response: draftResponses(201, VertexResponse, CHANGE_FAILURES, TAGGED),
  });
  app.post('/:draft_id/vertices', add, async (request, reply) => {
    const pre = preconditionsOf(request, request.body.expected_revision);
    const { draft, result } = store.change(request.params.draft_id, pre, addVertex(request.body, maxElements));
    return withETag(reply, draft.revision).code(201).send({ vertex: result, revision: draft.revision });
  });

  const patch = withBody(BodyContracts.patchVertex, {
    ...operation('patchVertex', 'Change a vertex', 'Absent members are kept; null puts back the default.'),
    params: VertexParams,
    headers: ChangeHeaders,
    response: draftResponses(200, VertexResponse, CHANGE_FAILURES, TAGGED),
  });
  app.patch('/:draft_id/vertices/:vertex_id', patch, async (request, reply) => {
    const pre = preconditionsOf(request, request.body.expected_revision);
    const planner = patchVertex(request.params.vertex_id, request.body);
    const { draft, result } = store.change(request.params.draft_id, pre, planner);
    return withETag(reply, draft.revision).send({ vertex: result, revision: draft.revision });
  });
}

function registerEdgeRoutes(app: DraftApp, { store, maxElements }: DraftRouteContext): void {
  const add = withBody(BodyContracts.addEdge, {
    ...operation('addEdge', 'Add an edge', 'target_vertex_id is required; without source_vertex_id, a start edge.'),
    params: DraftParams,
    headers: ChangeHeaders,
    response: draftResponses(201, EdgeResponse, CHANGE_FAILURES, TAGGED),
  });
  app.post('/:draft_id/edges', add, async (request, reply) => {
    const pre = preconditionsOf(request, request.body.expected_revision);
    const { draft, result } = store.change(request.params.draft_id, pre, addEdge(request.body, maxElements));
    return withETag(reply, draft.revision).code(201).send({ edge: result, revision: draft.revision });
  });

  const patch = withBody(BodyContracts.patchEdge, {
    ...operation('patchEdge', 'Change an edge', 'Absent members are kept; null puts back the default.'),
    params: EdgeParams,
    headers: ChangeHeaders,
    response: draftResponses(200, EdgeResponse, CHANGE_FAILURES, TAGGED),
  });
  app.patch('/:draft_id/edges/:edge_id', patch, async (request, reply) => {
    const pre = preconditionsOf(request, request.body.expected_revision);
    const planner = patchEdge(request.params.edge_id, request.body);
    const { draft, result } = store.change(request.params.draft_id, pre, planner);
    return withETag(reply, draft.revision).send({ edge: result, revision: draft.revision });
  });
}

function registerDeleteElement(app: DraftApp, { store }: DraftRouteContext): void {
  const schema = {
    ...operation(
      'deleteElement',
      'Delete a vertex or an edge',
      'A vertex with edges needs cascade=true; an element the start element or the predefined path names ' +
        'needs cleanup_references=true (else 409 referenced_element).',
    ),
    params: ElementParams,
    querystring: DeleteElementQuery,
    headers: ChangeHeaders,
    response: draftResponses(200, RemovalResponse, [400, 404, 409, 410, 412, 413, 415], TAGGED),
  };
  app.delete('/:draft_id/elements/:element_id', { schema }, async (request, reply) => {
    const q = request.query;
    const flags = { cascade: q.cascade === 'true', cleanup_references: q.cleanup_references === 'true' };
    const pre = preconditionsOf(request, q.expected_revision === undefined ? undefined : Number(q.expected_revision));
    const planner = deleteElement(request.params.element_id, flags);
    const { draft, result } = store.change(request.params.draft_id, pre, planner);
    return withETag(reply, draft.revision).send({ removed_ids: result.removed_ids, revision: draft.revision });
  });
}
