import type { Draft } from './draft.js';
import type { DraftSummary, EdgeEnvelope, VertexEnvelope } from './responses.js';
import type { DraftEdge, DraftVertex } from './types.js';

/**
 * The response forms of drafts and their elements (snake_case, every member present, null for unset). The
 * lists and objects are the draft's own, not copies: responses are serialised before the next request runs.
 */

export function vertexEnvelope(v: DraftVertex): VertexEnvelope {
  return {
    id: v.id,
    name: v.name,
    shared_state: v.sharedState,
    actions: v.actions,
    requirements: v.requirements,
    properties: v.properties,
  };
}

export function edgeEnvelope(e: DraftEdge): EdgeEnvelope {
  return {
    id: e.id,
    name: e.name,
    source_vertex_id: e.sourceVertexId,
    target_vertex_id: e.targetVertexId,
    guard: e.guard,
    actions: e.actions,
    requirements: e.requirements,
    properties: e.properties,
    weight: e.weight,
    dependency: e.dependency,
  };
}

export function draftSummary(draft: Draft): DraftSummary {
  const f = draft.model.fields;
  return {
    draft_id: draft.id,
    model_id: draft.model.modelId,
    revision: draft.revision,
    name: f.name,
    generator: f.generator,
    start_element_id: f.startElementId,
    actions: f.actions,
    requirements: f.requirements,
    properties: f.properties,
    predefined_path_edge_ids: f.predefinedPathEdgeIds,
  };
}
