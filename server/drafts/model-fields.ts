import type { ChangePlanner } from './draft.js';
import type { DraftModel } from './draft-model.js';
import { DraftError } from './errors.js';
import type { DraftPatchInput } from './schemas.js';

/**
 * Plans `PATCH /walker/drafts/{id}`. `start_element_id` and `predefined_path_edge_ids` must name elements of the
 * draft (docs/api-drafts.md); the generator is stored as written, and validation reports what is wrong with it.
 * Null clears `name`, `generator` and `start_element_id` and empties the lists and `properties`.
 */
export function patchModel(input: DraftPatchInput): ChangePlanner<void> {
  return (model) => {
    if (input.start_element_id != null) checkStartElement(model, input.start_element_id);
    if (input.predefined_path_edge_ids != null) checkPath(model, input.predefined_path_edge_ids);
    return () => {
      const f = model.fields;
      if (input.name !== undefined) f.name = input.name;
      if (input.generator !== undefined) f.generator = input.generator;
      if (input.start_element_id !== undefined) f.startElementId = input.start_element_id;
      if (input.actions !== undefined) f.actions = input.actions ?? [];
      if (input.requirements !== undefined) f.requirements = input.requirements ?? [];
      if (input.properties !== undefined) f.properties = input.properties ?? {};
      if (input.predefined_path_edge_ids !== undefined) model.setPredefinedPath(input.predefined_path_edge_ids ?? []);
    };
  };
}

function checkStartElement(model: DraftModel, id: string): void {
  if (model.has(id)) return;
  throw new DraftError(
    'invalid_model',
    `'start_element_id' names no vertex or edge of the draft ('${id}'): add the element first, or give the id ` +
      'of an existing one (usually a start edge, one without source_vertex_id).',
  );
}

function checkPath(model: DraftModel, ids: readonly string[]): void {
  for (let i = 0; i < ids.length; i++) {
    if (model.edges.has(ids[i])) continue;
    const what = model.vertices.has(ids[i])
      ? `a vertex ('${ids[i]}'), not an edge`
      : `no edge of the draft ('${ids[i]}')`;
    throw new DraftError(
      'invalid_model',
      `'predefined_path_edge_ids[${i}]' names ${what}: the predefined path lists edge ids, in walking order.`,
    );
  }
}
