import type { Change } from './draft-api.js';
import type { DraftState, EdgeData, VertexData } from './draft-state.js';

/** The undo and redo of one change, worked out from the draft before it and the service's answer. */
export interface Inverse {
  readonly undo: readonly Change[];
  readonly redo: readonly Change[];
}

const DELETE_QUERY = '?cascade=true&cleanup_references=true';

/** Deletes an element the way the editor does: a vertex with its edges, references to it cleared. */
export function deleteChange(id: string): Change {
  return { method: 'DELETE', path: `/elements/${encodeURIComponent(id)}${DELETE_QUERY}` };
}

export function addVertexChange(vertex: Partial<VertexData>): Change {
  return { method: 'POST', path: '/vertices', body: vertex };
}

export function addEdgeChange(edge: Partial<EdgeData> & { target_vertex_id: string }): Change {
  return { method: 'POST', path: '/edges', body: edge };
}

export function patchChange(kind: 'vertex' | 'edge' | 'model', id: string, body: Record<string, unknown>): Change {
  const path = kind === 'model' ? '' : `/${kind === 'vertex' ? 'vertices' : 'edges'}/${encodeURIComponent(id)}`;
  return { method: 'PATCH', path, body };
}

/** What undoes `change` on `before` (the draft as it stood), given the service's `answer` to it. */
export function inverseOf(before: DraftState, change: Change, answer: Record<string, unknown>): Inverse {
  const redo = [change];
  if (change.method === 'POST') {
    const made = (answer.vertex ?? answer.edge) as VertexData | EdgeData;
    // Redone with every member the service gave it, its id included, so that redo makes the same element.
    return { undo: [deleteChange(made.id)], redo: [{ ...change, body: made }] };
  }
  if (change.method === 'PATCH') {
    const body = change.body as Record<string, unknown>;
    const old = oldValues(before, change.path);
    const undo: Record<string, unknown> = {};
    for (const key of Object.keys(body)) undo[key] = old[key] ?? null;
    return { undo: [{ ...change, body: undo }], redo };
  }
  return { undo: restoreDeleted(before, answer.removed_ids as string[]), redo };
}

function oldValues(before: DraftState, path: string): Record<string, unknown> {
  if (path === '') return before.fields;
  const id = decodeURIComponent(path.slice(path.lastIndexOf('/') + 1));
  return (path.startsWith('/vertices/') ? before.vertices.get(id) : before.edges.get(id)) ?? {};
}

/**
 * Adds again what a delete removed, each where it stood (`before` the next element that stayed), vertices
 * first, then edges, then the references: the draft is the earlier one again, in order too.
 */
function restoreDeleted(before: DraftState, removed: readonly string[]): Change[] {
  const gone = new Set(removed);
  const changes: Change[] = [];
  for (const [vertex, next] of placed(before.vertices, gone)) changes.push(addVertexChange({ ...vertex, ...next }));
  for (const [edge, next] of placed(before.edges, gone)) changes.push(addEdgeChange({ ...edge, ...next }));
  const { start_element_id: start, predefined_path_edge_ids: path } = before.fields;
  const references: Record<string, unknown> = {};
  if (start !== null && gone.has(start)) references.start_element_id = start;
  if (path.some((id) => gone.has(id))) references.predefined_path_edge_ids = path;
  if (Object.keys(references).length > 0) changes.push(patchChange('model', '', references));
  return changes;
}

/**
 * The removed elements of a list in its order, each with the element it goes before: the first later one
 * that stayed, or none (the end). Added back in this order, each lands after the ones added before it.
 */
function placed<T extends { readonly id: string }>(list: ReadonlyMap<string, T>, gone: ReadonlySet<string>): Array<[T, { before?: string }]> {
  const answer: Array<[T, { before?: string }]> = [];
  let next: string | undefined;
  for (const element of [...list.values()].reverse()) {
    if (!gone.has(element.id)) next = element.id;
    else answer.push([element, next === undefined ? {} : { before: next }]);
  }
  return answer.reverse();
}

/** Applies the service's answer to a change to the draft the editor holds. */
export function applyAnswer(draft: DraftState, change: Change, answer: Record<string, unknown>): void {
  draft.revision = answer.revision as number;
  const { before } = (change.method === 'POST' ? change.body : undefined) as { before?: string } | undefined ?? {};
  if (answer.vertex !== undefined) {
    const vertex = answer.vertex as VertexData;
    placeIn(draft.vertices, vertex, before);
  } else if (answer.edge !== undefined) {
    const edge = answer.edge as EdgeData;
    placeIn(draft.edges, edge, before);
  } else if (answer.removed_ids !== undefined) {
    const removed = new Set(answer.removed_ids as string[]);
    for (const id of removed) {
      draft.vertices.delete(id);
      draft.edges.delete(id);
    }
    const { start_element_id: start, predefined_path_edge_ids: path } = draft.fields;
    draft.fields = {
      ...draft.fields,
      start_element_id: start !== null && removed.has(start) ? null : start,
      predefined_path_edge_ids: path.filter((id) => !removed.has(id)),
    };
  } else if (change.path === '') {
    const { draft_id: _d, model_id: _m, revision: _r, ...fields } = answer as Record<string, unknown>;
    draft.fields = fields as unknown as DraftState['fields'];
  }
}

/** Sets `element` in `list` where the service put it: in its own place, at the end, or just before `before`. */
function placeIn<T extends { readonly id: string }>(list: Map<string, T>, element: T, before: string | undefined): void {
  if (before === undefined || list.has(element.id) || !list.has(before)) {
    list.set(element.id, element);
    return;
  }
  const rest = [...list.values()];
  list.clear();
  for (const item of rest) {
    if (item.id === before) list.set(element.id, element);
    list.set(item.id, item);
  }
}
