import type { DraftSummary, EdgeEnvelope, VertexEnvelope } from '../../server/view/messages.js';

export type VertexData = VertexEnvelope;
export type EdgeData = EdgeEnvelope;
/** The model-level fields, as the draft API names them. */
export type ModelFields = Omit<DraftSummary, 'draft_id' | 'model_id' | 'revision'>;

/** One draft as the editor holds it: what the draft API last answered, applied answer by answer. */
export interface DraftState {
  readonly id: string;
  readonly modelId: string;
  revision: number;
  fields: ModelFields;
  /** In the draft's order, which is the export's. */
  readonly vertices: Map<string, VertexData>;
  readonly edges: Map<string, EdgeData>;
}

/** A model of a model file, as the export writes it (docs/api-drafts.md, Export). */
export interface ExportedModel {
  readonly id: string;
  readonly name?: string;
  readonly generator?: string;
  readonly startElementId?: string;
  readonly actions?: string[];
  readonly requirements?: string[];
  readonly properties?: Record<string, unknown>;
  readonly predefinedPathEdgeIds?: string[];
  readonly vertices?: ReadonlyArray<Record<string, unknown>>;
  readonly edges?: ReadonlyArray<Record<string, unknown>>;
}

/** The draft as its export shows it, in the draft API's own names. */
export function fromExport(id: string, revision: number, model: ExportedModel): DraftState {
  const vertices = new Map<string, VertexData>();
  for (const v of model.vertices ?? []) {
    const vertex = {
      id: String(v.id),
      name: (v.name as string | undefined) ?? String(v.id),
      shared_state: (v.sharedState as string | undefined) ?? null,
      actions: (v.actions as string[] | undefined) ?? [],
      requirements: (v.requirements as string[] | undefined) ?? [],
      properties: (v.properties as Record<string, unknown> | undefined) ?? {},
    };
    vertices.set(vertex.id, vertex);
  }
  const edges = new Map<string, EdgeData>();
  for (const e of model.edges ?? []) {
    const edge = {
      id: String(e.id),
      name: (e.name as string | undefined) ?? String(e.id),
      source_vertex_id: (e.sourceVertexId as string | undefined) ?? null,
      target_vertex_id: String(e.targetVertexId),
      guard: (e.guard as string | undefined) ?? null,
      actions: (e.actions as string[] | undefined) ?? [],
      requirements: (e.requirements as string[] | undefined) ?? [],
      properties: (e.properties as Record<string, unknown> | undefined) ?? {},
      weight: (e.weight as number | undefined) ?? null,
      dependency: (e.dependency as number | undefined) ?? null,
    };
    edges.set(edge.id, edge);
  }
  const fields: ModelFields = {
    name: model.name ?? null,
    generator: model.generator ?? null,
    start_element_id: model.startElementId ?? null,
    actions: model.actions ?? [],
    requirements: model.requirements ?? [],
    properties: model.properties ?? {},
    predefined_path_edge_ids: model.predefinedPathEdgeIds ?? [],
  };
  return { id, modelId: model.id, revision, fields, vertices, edges };
}

/** The fields of a draft answer (POST or PATCH of the draft). */
export function fieldsOf(summary: DraftSummary): ModelFields {
  const { draft_id: _d, model_id: _m, revision: _r, ...fields } = summary;
  return fields;
}

/** The element with this id, of either kind. */
export function elementOf(draft: DraftState, id: string): { kind: 'vertex'; data: VertexData } | { kind: 'edge'; data: EdgeData } | undefined {
  const vertex = draft.vertices.get(id);
  if (vertex !== undefined) return { kind: 'vertex', data: vertex };
  const edge = draft.edges.get(id);
  return edge === undefined ? undefined : { kind: 'edge', data: edge };
}

/** Where a vertex's file places it (`properties.x`, `properties.y`, as GraphWalker keeps them), if it does. */
export function placeOf(vertex: VertexData): { x: number; y: number } | undefined {
  const { x, y } = vertex.properties;
  return typeof x === 'number' && typeof y === 'number' && Number.isFinite(x) && Number.isFinite(y) ? { x, y } : undefined;
}
