import type { ChangePlanner } from './draft.js';
import type { DraftModel } from './draft-model.js';
import {
  checkDependency,
  checkRoom,
  checkVertexReference,
  checkWeight,
  claimId,
  existingEdge,
  placeBefore,
} from './element-checks.js';
import { edgeEnvelope } from './envelope.js';
import { apiError } from '../api-error.js';
import { elementBytes } from './footprint.js';
import { checkProperties } from './free-json.js';
import type { EdgeEnvelope } from './responses.js';
import type { EdgeInput } from './schemas.js';
import type { DraftEdge } from './types.js';

/**
 * Plans `POST .../edges`. `target_vertex_id` is required and both ends must be vertices of the draft; an
 * omitted or null `source_vertex_id` makes a start edge. Other defaults as for vertices (docs/api-drafts.md).
 */
export function addEdge(input: EdgeInput, maxElements: number): ChangePlanner<EdgeEnvelope> {
  return (model) => {
    checkRoom(model, maxElements);
    const target = requiredTarget(input.target_vertex_id, 'add');
    checkEnds(model, input.source_vertex_id ?? null, target);
    checkWeight(input.weight);
    checkDependency(input.dependency);
    const { id, generated } = claimId(model, 'edge', input.id ?? undefined);
    const at = placeBefore(model, 'edge', input.before);
    const edge: DraftEdge = {
      id,
      name: input.name ?? id,
      sourceVertexId: input.source_vertex_id ?? null,
      targetVertexId: target,
      guard: input.guard ?? null,
      actions: input.actions ?? [],
      requirements: input.requirements ?? [],
      properties: input.properties ?? {},
      weight: input.weight ?? null,
      dependency: input.dependency ?? null,
    };
    checkProperties(edge.properties, `edges[${id}].properties`, 'invalid_element');
    return {
      growth: elementBytes(edge),
      commit: () => {
        model.insertEdge(edge, generated, at);
        return edgeEnvelope(edge);
      },
    };
  };
}

/**
 * Plans `PATCH .../edges/{id}`: omitted members are kept, null puts back the creation default (a null source
 * makes it a start edge; weight and dependency become unset), and `target_vertex_id` cannot be cleared.
 */
export function patchEdge(id: string, input: EdgeInput): ChangePlanner<EdgeEnvelope> {
  return (model) => {
    const old = existingEdge(model, id);
    const source = input.source_vertex_id === undefined ? old.sourceVertexId : input.source_vertex_id;
    const target =
      input.target_vertex_id === undefined ? old.targetVertexId : requiredTarget(input.target_vertex_id, 'patch');
    checkEnds(model, source, target);
    checkWeight(input.weight);
    checkDependency(input.dependency);
    const edge = patched(old, input, source, target);
    if (input.properties) checkProperties(edge.properties, `edges[${id}].properties`, 'invalid_element');
    return {
      growth: elementBytes(edge) - elementBytes(old),
      commit: () => {
        model.replaceEdge(edge);
        return edgeEnvelope(edge);
      },
    };
  };
}

/** The new version of an edge: what the body sends, null as the creation default, the rest as it was. */
function patched(old: DraftEdge, input: EdgeInput, source: string | null, target: string): DraftEdge {
  const keep = <K extends keyof EdgeInput>(member: K) => input[member] === undefined;
  return {
    id: old.id,
    name: keep('name') ? old.name : (input.name ?? old.id),
    sourceVertexId: source,
    targetVertexId: target,
    guard: keep('guard') ? old.guard : (input.guard ?? null),
    actions: keep('actions') ? old.actions : (input.actions ?? []),
    requirements: keep('requirements') ? old.requirements : (input.requirements ?? []),
    properties: keep('properties') ? old.properties : (input.properties ?? {}),
    weight: keep('weight') ? old.weight : (input.weight ?? null),
    dependency: keep('dependency') ? old.dependency : (input.dependency ?? null),
  };
}

function requiredTarget(target: string | null | undefined, change: 'add' | 'patch'): string {
  // An empty id is how some editors write "no target".
  if (target) return target;
  const problem =
    change === 'add'
      ? "An edge needs 'target_vertex_id', the id of the vertex it leads to"
      : "'target_vertex_id' cannot be cleared: every edge leads to a vertex";
  throw apiError('missing_target_vertex', `${problem}; give the id of an existing vertex.`);
}

function checkEnds(model: DraftModel, source: string | null, target: string): void {
  if (source !== null) checkVertexReference(model, source, 'source_vertex_id');
  checkVertexReference(model, target, 'target_vertex_id');
}
