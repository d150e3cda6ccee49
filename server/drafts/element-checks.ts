import type { DraftModel, GeneratedId } from './draft-model.js';
import { apiError, type ApiError } from '../api-error.js';
import type { DraftEdge, DraftVertex } from './types.js';

/**
 * The checks that adding and changing vertices and edges share. Each throws the API error (server/api-error.ts) of docs/api-drafts.md
 * and changes nothing.
 */

/** Throws `model_limit_reached` when the model already has `--max-draft-elements` vertices and edges. */
export function checkRoom(model: DraftModel, maxElements: number): void {
  if (model.size < maxElements) return;
  throw apiError(
    'model_limit_reached',
    `The draft has ${model.size} vertices and edges, the most a draft may have on this server ` +
      '(--max-draft-elements): delete elements you do not need, or split the model.',
  );
}

/** The id for a new element: the client's, which must be free, or one the draft makes up (`generated`). */
export function claimId(
  model: DraftModel,
  kind: 'vertex' | 'edge',
  id: string | undefined,
): { id: string; generated?: GeneratedId } {
  if (id === undefined) {
    const generated = model.nextGeneratedId(kind);
    return { id: generated.id, generated };
  }
  if (!model.has(id)) return { id };
  const holder = model.vertices.has(id) ? 'a vertex' : 'an edge';
  throw apiError(
    'duplicate_element_id',
    `The draft already has ${holder} with id '${id}'; ids are unique across vertices and edges. Choose another ` +
      'id, or omit it and the service assigns one.',
  );
}

/** The vertex a path names, or `element_not_found`. */
export function existingVertex(model: DraftModel, id: string): DraftVertex {
  const vertex = model.vertices.get(id);
  if (vertex) return vertex;
  throw notFound(model, id, 'vertex', 'edges');
}

/** The edge a path names, or `element_not_found`. */
export function existingEdge(model: DraftModel, id: string): DraftEdge {
  const edge = model.edges.get(id);
  if (edge) return edge;
  throw notFound(model, id, 'edge', 'vertices');
}

/** The `before` of a new element: undefined (at the end), or an element of its kind, else `invalid_element`. */
export function placeBefore(model: DraftModel, kind: 'vertex' | 'edge', before: string | null | undefined): string | undefined {
  if (before === undefined || before === null) return undefined;
  if ((kind === 'vertex' ? model.vertices : model.edges).has(before)) return before;
  throw apiError('invalid_element', `'before' names no ${kind} of the draft ('${before}'): name a ${kind} to put the new one before, or leave it out to add at the end.`);
}

/** Throws `unknown_vertex` unless `id` names a vertex of the draft; `field` is the request member. */
export function checkVertexReference(model: DraftModel, id: string, field: string): void {
  if (model.vertices.has(id)) return;
  const what = model.edges.has(id) ? `an edge ('${id}'), not a vertex` : `no vertex of the draft ('${id}')`;
  throw apiError('unknown_vertex', `'${field}' names ${what}: add the vertex first, or correct the id.`);
}

/** Throws `invalid_weight` unless the weight is unset or from 0 to 1. */
export function checkWeight(weight: number | null | undefined): void {
  if (weight === undefined || weight === null || (weight >= 0 && weight <= 1)) return;
  const problem = `'weight' must be a number from 0.0 to 1.0 (or null to unset it), got ${weight}.`;
  throw apiError('invalid_weight', problem);
}

/** Throws `invalid_dependency` unless the dependency is unset or a whole number from 0 to 100. */
export function checkDependency(dependency: number | null | undefined): void {
  if (dependency === undefined || dependency === null) return;
  if (Number.isInteger(dependency) && dependency >= 0 && dependency <= 100) return;
  throw apiError(
    'invalid_dependency',
    `'dependency' must be a whole number from 0 to 100 (or null to unset it), got ${dependency}.`,
  );
}

function notFound(model: DraftModel, id: string, kind: 'vertex' | 'edge', other: string): ApiError {
  const actual = kind === 'vertex' ? 'an edge' : 'a vertex';
  const hint = model.has(id) ? `: '${id}' is ${actual}, address it as .../${other}/${id}` : '';
  return apiError('element_not_found', `The draft has no ${kind} '${id}'${hint}.`);
}
