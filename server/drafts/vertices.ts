import type { ChangePlanner } from './draft.js';
import { checkRoom, claimId, existingVertex, placeBefore } from './element-checks.js';
import { vertexEnvelope } from './envelope.js';
import { elementBytes } from './footprint.js';
import { checkProperties } from './free-json.js';
import type { VertexEnvelope } from './responses.js';
import type { VertexInput } from './schemas.js';
import type { DraftVertex } from './types.js';

/**
 * Plans `POST .../vertices`: omitted members take their defaults (docs/api-drafts.md: name = id, empty lists and
 * properties, no shared state).
 */
export function addVertex(input: VertexInput, maxElements: number): ChangePlanner<VertexEnvelope> {
  return (model) => {
    checkRoom(model, maxElements);
    const { id, generated } = claimId(model, 'vertex', input.id ?? undefined);
    const at = placeBefore(model, 'vertex', input.before);
    const vertex: DraftVertex = {
      id,
      name: input.name ?? id,
      sharedState: input.shared_state ?? null,
      actions: input.actions ?? [],
      requirements: input.requirements ?? [],
      properties: input.properties ?? {},
    };
    checkProperties(vertex.properties, `vertices[${id}].properties`, 'invalid_element');
    return {
      growth: elementBytes(vertex),
      commit: () => {
        model.insertVertex(vertex, generated, at);
        return vertexEnvelope(vertex);
      },
    };
  };
}

/**
 * Plans `PATCH .../vertices/{id}`: an omitted member keeps its value, null puts back the default it has at
 * creation. The id itself never changes (the schema refuses it).
 */
export function patchVertex(id: string, input: VertexInput): ChangePlanner<VertexEnvelope> {
  return (model) => {
    const old = existingVertex(model, id);
    const vertex: DraftVertex = {
      id,
      name: input.name === undefined ? old.name : (input.name ?? id),
      sharedState: input.shared_state === undefined ? old.sharedState : input.shared_state,
      actions: input.actions === undefined ? old.actions : (input.actions ?? []),
      requirements: input.requirements === undefined ? old.requirements : (input.requirements ?? []),
      properties: input.properties === undefined ? old.properties : (input.properties ?? {}),
    };
    if (input.properties) checkProperties(vertex.properties, `vertices[${id}].properties`, 'invalid_element');
    return {
      growth: elementBytes(vertex) - elementBytes(old),
      commit: () => {
        model.replaceVertex(vertex);
        return vertexEnvelope(vertex);
      },
    };
  };
}
