import { Type } from 'typebox';
import { deleteElement } from '../../drafts/delete-element.js';
import { addEdge, patchEdge } from '../../drafts/edges.js';
import { draftResponses, EdgeResponse, RemovalResponse, VertexResponse } from '../../drafts/responses.js';
import { BodyContracts, DeleteElementQuery } from '../../drafts/schemas.js';
import { addVertex, patchVertex } from '../../drafts/vertices.js';
import { DraftParams, operation, withBody, type DraftApp, type DraftRouteContext } from './draft-routes.js';

const { draft_id } = DraftParams.properties;
const VertexParams = Type.Object({ draft_id, vertex_id: Type.String({ description: 'A vertex of the draft.' }) });
const EdgeParams = Type.Object({ draft_id, edge_id: Type.String({ description: 'An edge of the draft.' }) });
const ElementParams = Type.Object({ draft_id, element_id: Type.String({ description: 'A vertex or an edge.' }) });

/** How adding and changing an element can fail, besides 500 (docs/api-drafts.md, Errors). */
const ADD_FAILURES = [400, 404, 409, 410, 413, 415, 422, 429] as const;
const PATCH_FAILURES = [400, 404, 409, 410, 413, 415, 422] as const;

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
    response: draftResponses(201, VertexResponse, ADD_FAILURES),
  });
  app.post('/:draft_id/vertices', add, async (request, reply) => {
    const draft = store.get(request.params.draft_id);
    const vertex = draft.mutate(request.body.expected_revision, addVertex(request.body, maxElements));
    return reply.code(201).send({ vertex, revision: draft.revision });
  });

  const patch = withBody(BodyContracts.patchVertex, {
    ...operation('patchVertex', 'Change a vertex', 'Absent members are kept; null puts back the default.'),
    params: VertexParams,
    response: draftResponses(200, VertexResponse, PATCH_FAILURES),
  });
  app.patch('/:draft_id/vertices/:vertex_id', patch, async (request) => {
    const draft = store.get(request.params.draft_id);
    const vertex = draft.mutate(request.body.expected_revision, patchVertex(request.params.vertex_id, request.body));
    return { vertex, revision: draft.revision };
  });
}

function registerEdgeRoutes(app: DraftApp, { store, maxElements }: DraftRouteContext): void {
  const add = withBody(BodyContracts.addEdge, {
    ...operation('addEdge', 'Add an edge', 'target_vertex_id is required; without source_vertex_id, a start edge.'),
    params: DraftParams,
    response: draftResponses(201, EdgeResponse, ADD_FAILURES),
  });
  app.post('/:draft_id/edges', add, async (request, reply) => {
    const draft = store.get(request.params.draft_id);
    const edge = draft.mutate(request.body.expected_revision, addEdge(request.body, maxElements));
    return reply.code(201).send({ edge, revision: draft.revision });
  });

  const patch = withBody(BodyContracts.patchEdge, {
    ...operation('patchEdge', 'Change an edge', 'Absent members are kept; null puts back the default.'),
    params: EdgeParams,
    response: draftResponses(200, EdgeResponse, PATCH_FAILURES),
  });
  app.patch('/:draft_id/edges/:edge_id', patch, async (request) => {
    const draft = store.get(request.params.draft_id);
    const edge = draft.mutate(request.body.expected_revision, patchEdge(request.params.edge_id, request.body));
    return { edge, revision: draft.revision };
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
    response: draftResponses(200, RemovalResponse, [400, 404, 409, 410, 413, 415]),
  };
  app.delete('/:draft_id/elements/:element_id', { schema }, async (request) => {
    const draft = store.get(request.params.draft_id);
    const q = request.query;
    const flags = { cascade: q.cascade === 'true', cleanup_references: q.cleanup_references === 'true' };
    const expected = q.expected_revision === undefined ? undefined : Number(q.expected_revision);
    const { removed_ids } = draft.mutate(expected, deleteElement(request.params.element_id, flags));
    return { removed_ids, revision: draft.revision };
  });
}
