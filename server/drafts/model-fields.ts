import type { ChangePlanner } from './draft.js';
import { DraftModel, type DraftModelFields } from './draft-model.js';
import { apiError } from '../api-error.js';
import { fieldsBytes } from './footprint.js';
import { checkProperties } from './free-json.js';
import type { DraftCreateInput, DraftPatchInput } from './schemas.js';

/**
 * The model of a new draft, from the body of `POST /walker/drafts` (omitted members empty); throws 422
 * `invalid_model` for `properties` beyond their limits (free-json.ts) before anything is built from them.
 */
export function newDraftModel(modelId: string, input: Omit<DraftCreateInput, 'model_id'>): DraftModel {
  const properties = input.properties ?? {};
  checkProperties(properties, 'properties', 'invalid_model');
  return new DraftModel(modelId, {
    name: input.name ?? null,
    generator: input.generator ?? null,
    actions: input.actions ?? [],
    requirements: input.requirements ?? [],
    properties,
  });
}

/**
 * Plans `PATCH /walker/drafts/{id}`. `start_element_id` and `predefined_path_edge_ids` must name elements of the
 * draft (docs/api-drafts.md); the generator is stored as written, and validation reports what is wrong with it.
 * Null clears `name`, `generator` and `start_element_id` and empties the lists and `properties`.
 */
export function patchModel(input: DraftPatchInput): ChangePlanner<void> {
  return (model) => {
    if (input.start_element_id != null) checkStartElement(model, input.start_element_id);
    if (input.predefined_path_edge_ids != null) checkPath(model, input.predefined_path_edge_ids);
    if (input.properties) checkProperties(input.properties, 'properties', 'invalid_model');
    const fields = patched(model.fields, input);
    return {
      growth: fieldsBytes(fields) - fieldsBytes(model.fields),
      commit: () => model.replaceFields(fields),
    };
  };
}

/** The new fields: what the body sends, null as the creation default, the rest as it was. */
function patched(old: DraftModelFields, input: DraftPatchInput): DraftModelFields {
  const path = input.predefined_path_edge_ids;
  return {
    name: input.name === undefined ? old.name : input.name,
    generator: input.generator === undefined ? old.generator : input.generator,
    startElementId: input.start_element_id === undefined ? old.startElementId : input.start_element_id,
    actions: input.actions === undefined ? old.actions : (input.actions ?? []),
    requirements: input.requirements === undefined ? old.requirements : (input.requirements ?? []),
    properties: input.properties === undefined ? old.properties : (input.properties ?? {}),
    predefinedPathEdgeIds: path === undefined ? old.predefinedPathEdgeIds : (path ?? []),
  };
}

function checkStartElement(model: DraftModel, id: string): void {
  if (model.has(id)) return;
  throw apiError(
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
    throw apiError(
      'invalid_model',
      `'predefined_path_edge_ids[${i}]' names ${what}: the predefined path lists edge ids, in walking order.`,
    );
  }
}
