import type { EdgeJson, ModelFileJson, ModelJson, VertexJson } from '../../core/model/types.js';
import type { DraftModel } from './draft-model.js';
import type { JsonObject } from './schemas.js';
import type { DraftEdge, DraftVertex } from './types.js';

/**
 * The draft as a model file in walker's canonical form (core/model/types.ts, the field names of GraphWalker's
 * JSON): fields in declaration order, unset and empty optional fields left out, `properties` kept as they are.
 * `POST /walker/load` accepts the result as it is (docs/api-drafts.md). Reads the draft only.
 */
export function exportModelFile(model: DraftModel): ModelFileJson {
  return { models: [exportModel(model)] };
}

function exportModel(model: DraftModel): ModelJson {
  const f = model.fields;
  const out = { id: model.modelId } as ModelJson;
  if (f.name !== null) out.name = f.name;
  if (f.generator !== null) out.generator = f.generator;
  if (f.startElementId !== null) out.startElementId = f.startElementId;
  if (f.actions.length > 0) out.actions = f.actions;
  if (f.requirements.length > 0) out.requirements = f.requirements;
  if (hasMembers(f.properties)) out.properties = f.properties;
  out.vertices = new Array<VertexJson>(model.vertices.size);
  let i = 0;
  for (const vertex of model.vertices.values()) out.vertices[i++] = exportVertex(vertex);
  out.edges = new Array<EdgeJson>(model.edges.size);
  i = 0;
  for (const edge of model.edges.values()) out.edges[i++] = exportEdge(edge);
  if (f.predefinedPathEdgeIds.length > 0) out.predefinedPathEdgeIds = f.predefinedPathEdgeIds;
  return out;
}

function exportVertex(v: DraftVertex): VertexJson {
  const out: VertexJson = { id: v.id, name: v.name };
  // An empty shared state links nothing; the loader treats it as none.
  if (v.sharedState) out.sharedState = v.sharedState;
  if (v.actions.length > 0) out.actions = v.actions;
  if (v.requirements.length > 0) out.requirements = v.requirements;
  if (hasMembers(v.properties)) out.properties = v.properties;
  return out;
}

function exportEdge(e: DraftEdge): EdgeJson {
  const out = { id: e.id, name: e.name } as EdgeJson;
  if (e.sourceVertexId !== null) out.sourceVertexId = e.sourceVertexId;
  out.targetVertexId = e.targetVertexId;
  // A blank guard means "no guard" to the loader as to GraphWalker.
  if (e.guard !== null && e.guard.trim() !== '') out.guard = e.guard;
  if (e.actions.length > 0) out.actions = e.actions;
  if (e.requirements.length > 0) out.requirements = e.requirements;
  if (hasMembers(e.properties)) out.properties = e.properties;
  if (e.weight !== null) out.weight = e.weight;
  if (e.dependency !== null) out.dependency = e.dependency;
  return out;
}

function hasMembers(object: JsonObject): boolean {
  for (const _ in object) return true;
  return false;
}
