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

/** Adds again what a delete removed, vertex first, then its edges in the draft's order, then the references. */
function restoreDeleted(before: DraftState, removed: readonly string[]): Change[] {
  const gone = new Set(removed);
  const changes: Change[] = [];
  for (const id of removed) {
    const vertex = before.vertices.get(id);
    if (vertex !== undefined) changes.push(addVertexChange(vertex));
  }
  for (const edge of before.edges.values()) if (gone.has(edge.id)) changes.push(addEdgeChange(edge));
  const { start_element_id: start, predefined_path_edge_ids: path } = before.fields;
  const references: Record<string, unknown> = {};
  if (start !== null && gone.has(start)) references.start_element_id = start;
  if (path.some((id) => gone.has(id))) references.predefined_path_edge_ids = path;
  if (Object.keys(references).length > 0) changes.push(patchChange('model', '', references));
  return changes;
}

/** Applies the service's answer to a change to the draft the editor holds. */
export function applyAnswer(draft: DraftState, change: Change, answer: Record<string, unknown>): void {
  draft.revision = answer.revision as number;
  if (answer.vertex !== undefined) {
    const vertex = answer.vertex as VertexData;
    draft.vertices.set(vertex.id, vertex);
  } else if (answer.edge !== undefined) {
    const edge = answer.edge as EdgeData;
    draft.edges.set(edge.id, edge);
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
