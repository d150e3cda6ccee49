import type { ChangePlanner } from './draft.js';
import { checkRoom, claimId, existingVertex } from './element-checks.js';
import { vertexEnvelope } from './envelope.js';
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
    const id = claimId(model, 'vertex', input.id ?? undefined);
    const vertex: DraftVertex = {
      id,
      name: input.name ?? id,
      sharedState: input.shared_state ?? null,
      actions: input.actions ?? [],
      requirements: input.requirements ?? [],
      properties: input.properties ?? {},
    };
    return () => {
      model.insertVertex(vertex);
      return vertexEnvelope(vertex);
    };
  };
}

/**
 * Plans `PATCH .../vertices/{id}`: an omitted member keeps its value, null puts back the default it has at
 * creation. The id itself never changes (the schema refuses it).
 */
export function patchVertex(id: string, input: VertexInput): ChangePlanner<VertexEnvelope> {
  return (model) => {
    const vertex = existingVertex(model, id);
    return () => {
      if (input.name !== undefined) vertex.name = input.name ?? vertex.id;
      if (input.shared_state !== undefined) vertex.sharedState = input.shared_state;
      if (input.actions !== undefined) vertex.actions = input.actions ?? [];
      if (input.requirements !== undefined) vertex.requirements = input.requirements ?? [];
      if (input.properties !== undefined) vertex.properties = input.properties ?? {};
      return vertexEnvelope(vertex);
    };
  };
}
