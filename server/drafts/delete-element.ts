import type { ChangePlanner } from './draft.js';
import type { DraftModel, DraftModelFields } from './draft-model.js';
import { apiError } from '../api-error.js';
import { elementBytes, fieldsBytes } from './footprint.js';
import type { Static } from 'typebox';
import type { RemovalResponse } from './responses.js';
import { abbreviate } from '../../core/text.js';

/** The query of `DELETE .../elements/{id}` once the route has turned its strings into flags. */
export interface DeleteElementOptions {
  readonly cascade: boolean;
  readonly cleanup_references: boolean;
}

/** What `DELETE .../elements/{id}` answers besides the revision: the element first, then edges removed with it. */
export type Removal = Omit<Static<typeof RemovalResponse>, 'revision'>;

/**
 * Plans `DELETE .../elements/{id}` (docs/api-drafts.md). A vertex that still has edges needs `cascade`, which
 * removes those edges too; an element that the start element or the predefined path names needs
 * `cleanup_references`, which clears the start element and drops the path entries. Anything missing is a 409
 * `referenced_element` that names what still refers to the element, and nothing is removed.
 */
export function deleteElement(id: string, options: DeleteElementOptions): ChangePlanner<Removal> {
  return (model) => {
    const edges = edgesToRemove(model, id, options.cascade);
    const removed = [id, ...edges];
    const start = model.fields.startElementId;
    const startRemoved = start !== null && (start === id || edges.includes(start));
    const pathEdges = removed.filter((e) => model.inPredefinedPath(e));
    if (!options.cleanup_references) checkUnreferenced(id, startRemoved ? start : null, pathEdges);
    const fields = startRemoved || pathEdges.length > 0 ? cleanedFields(model.fields, startRemoved, pathEdges) : null;
    let growth = fields === null ? 0 : fieldsBytes(fields) - fieldsBytes(model.fields);
    for (const e of removed) growth -= elementBytes(model.vertices.get(e) ?? model.edges.get(e)!);
    return {
      growth,
      commit: () => {
        for (const edge of edges) model.remove(edge);
        model.remove(id);
        if (fields !== null) model.replaceFields(fields);
        return { removed_ids: removed };
      },
    };
  };
}

/** The model-level fields without the start element (when it is removed) and the removed path edges. */
function cleanedFields(
  fields: DraftModelFields,
  startRemoved: boolean,
  pathEdges: readonly string[],
): DraftModelFields {
  const gone = new Set(pathEdges);
  const path = fields.predefinedPathEdgeIds;
  return {
    ...fields,
    startElementId: startRemoved ? null : fields.startElementId,
    predefinedPathEdgeIds: gone.size === 0 ? path : path.filter((e) => !gone.has(e)),
  };
}

/** The edges that go with the element: none for an edge, a vertex's edges with cascade (else a 409). */
function edgesToRemove(model: DraftModel, id: string, cascade: boolean): string[] {
  if (model.edges.has(id)) return [];
  if (!model.vertices.has(id)) {
    throw apiError('element_not_found', `The draft has no vertex or edge '${id}'.`);
  }
  const edges = [...model.edgesAt(id)];
  if (edges.length === 0 || cascade) return edges;
  throw apiError(
    'referenced_element',
    `Vertex '${id}' still has ${edges.length} edge${edges.length === 1 ? '' : 's'} (${listed(edges)}): delete ` +
      'them first, or pass cascade=true to delete them with the vertex.',
  );
}

function checkUnreferenced(id: string, start: string | null, pathEdges: readonly string[]): void {
  const refs: string[] = [];
  if (start !== null) refs.push(`start_element_id ('${start}')`);
  if (pathEdges.length > 0) refs.push(`predefined_path_edge_ids (${listed(pathEdges)})`);
  if (refs.length === 0) return;
  throw apiError(
    'referenced_element',
    `Deleting '${id}' would leave ${refs.join(' and ')} naming a removed element: change them first ` +
      '(PATCH /walker/drafts/{draft_id}), or pass cleanup_references=true to clear them with the deletion.',
  );
}

/** Up to five ids, quoted, then how many more. */
function listed(ids: readonly string[]): string {
  return abbreviate(ids.slice(0, 5).map((e) => `'${e}'`), 5, ids.length);
}
