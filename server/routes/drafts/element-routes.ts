import type { FastifyInstance } from 'fastify';
import { deleteElement } from '../../drafts/delete-element.js';
import { addEdge, patchEdge } from '../../drafts/edges.js';
import { BodyContracts, deleteElementQuery } from '../../drafts/schemas.js';
import type { EdgeInput, VertexInput } from '../../drafts/types.js';
import { addVertex, patchVertex } from '../../drafts/vertices.js';
import { withBody, type DraftParams, type DraftRouteContext } from './draft-routes.js';

interface VertexParams extends DraftParams {
  vertex_id: string;
}
interface EdgeParams extends DraftParams {
  edge_id: string;
}
interface ElementParams extends DraftParams {
  element_id: string;
}
/** The DELETE query as the URL carries it; the schema has checked the values. */
interface DeleteQuery {
  cascade?: 'true' | 'false';
  cleanup_references?: 'true' | 'false';
  expected_revision?: string;
}

/**
 * The routes of vertices and edges. Each reads its draft and applies the change in one synchronous run, so
 * that concurrent requests for one draft are serialised (docs/api-drafts.md).
 */
export function registerElementRoutes(app: FastifyInstance, ctx: DraftRouteContext): void {
  registerVertexRoutes(app, ctx);
  registerEdgeRoutes(app, ctx);
  registerDeleteElement(app, ctx);
}

function registerVertexRoutes(app: FastifyInstance, { store, maxElements }: DraftRouteContext): void {
  const add = withBody(BodyContracts.addVertex);
  app.post<{ Params: DraftParams; Body: VertexInput }>('/:draft_id/vertices', add, async (request, reply) => {
    const draft = store.get(request.params.draft_id);
    const body = request.body ?? {};
    const vertex = draft.mutate(body.expected_revision, addVertex(body, maxElements));
    return reply.code(201).send({ vertex, revision: draft.revision });
  });

  const patch = withBody(BodyContracts.patchVertex);
  app.patch<{ Params: VertexParams; Body: VertexInput }>('/:draft_id/vertices/:vertex_id', patch, async (request) => {
    const draft = store.get(request.params.draft_id);
    const body = request.body ?? {};
    const vertex = draft.mutate(body.expected_revision, patchVertex(request.params.vertex_id, body));
    return { vertex, revision: draft.revision };
  });
}

function registerEdgeRoutes(app: FastifyInstance, { store, maxElements }: DraftRouteContext): void {
  const add = withBody(BodyContracts.addEdge);
  app.post<{ Params: DraftParams; Body: EdgeInput }>('/:draft_id/edges', add, async (request, reply) => {
    const draft = store.get(request.params.draft_id);
    const body = request.body ?? {};
    const edge = draft.mutate(body.expected_revision, addEdge(body, maxElements));
    return reply.code(201).send({ edge, revision: draft.revision });
  });

  const patch = withBody(BodyContracts.patchEdge);
  app.patch<{ Params: EdgeParams; Body: EdgeInput }>('/:draft_id/edges/:edge_id', patch, async (request) => {
    const draft = store.get(request.params.draft_id);
    const body = request.body ?? {};
    const edge = draft.mutate(body.expected_revision, patchEdge(request.params.edge_id, body));
    return { edge, revision: draft.revision };
  });
}

function registerDeleteElement(app: FastifyInstance, { store }: DraftRouteContext): void {
  const options = { schema: { querystring: deleteElementQuery } };
  const url = '/:draft_id/elements/:element_id';
  app.delete<{ Params: ElementParams; Querystring: DeleteQuery }>(url, options, async (request) => {
    const draft = store.get(request.params.draft_id);
    const q = request.query;
    const flags = { cascade: q.cascade === 'true', cleanup_references: q.cleanup_references === 'true' };
    const expected = q.expected_revision === undefined ? undefined : Number(q.expected_revision);
    const { removed_ids } = draft.mutate(expected, deleteElement(request.params.element_id, flags));
    return { removed_ids, revision: draft.revision };
  });
}
