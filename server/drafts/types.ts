/**
 * The shapes of the draft API: what a draft stores per element, what requests carry (snake_case members, as
 * docs/api-drafts.md names them) and what responses show (the envelope form).
 */

/** Any JSON object, as `properties` holds it. */
export type JsonObject = Record<string, unknown>;

/** A vertex as a draft stores it. Fields an export leaves out when empty are still always present here. */
export interface DraftVertex {
  readonly id: string;
  name: string;
  sharedState: string | null;
  actions: string[];
  requirements: string[];
  properties: JsonObject;
}

/** An edge as a draft stores it. `weight` and `dependency` are null while unset (absent from the export). */
export interface DraftEdge {
  readonly id: string;
  name: string;
  /** Null for a start edge. */
  sourceVertexId: string | null;
  targetVertexId: string;
  guard: string | null;
  actions: string[];
  requirements: string[];
  properties: JsonObject;
  weight: number | null;
  dependency: number | null;
}

/** The members every mutating request may carry. */
export interface Revisioned {
  /** The revision the client based the change on; a different current revision is a conflict. */
  expected_revision?: number;
}

/**
 * Body of `POST .../vertices` and `PATCH .../vertices/{id}`. On creation null and absence both mean the default;
 * on PATCH absence keeps the value and null puts the default back (docs/api-drafts.md).
 */
export interface VertexInput extends Revisioned {
  /** Only on creation; ids never change. */
  id?: string;
  name?: string | null;
  shared_state?: string | null;
  actions?: string[] | null;
  requirements?: string[] | null;
  properties?: JsonObject | null;
}

/** Body of `POST .../edges` and `PATCH .../edges/{id}`; null semantics as for {@link VertexInput}. */
export interface EdgeInput extends Revisioned {
  id?: string;
  name?: string | null;
  source_vertex_id?: string | null;
  /** Required on creation; cannot be cleared. */
  target_vertex_id?: string | null;
  guard?: string | null;
  actions?: string[] | null;
  requirements?: string[] | null;
  properties?: JsonObject | null;
  weight?: number | null;
  dependency?: number | null;
}

/** Body of `POST /walker/drafts`. */
export interface DraftCreateInput {
  model_id?: string | null;
  name?: string | null;
  generator?: string | null;
  actions?: string[] | null;
  requirements?: string[] | null;
  properties?: JsonObject | null;
}

/** Body of `PATCH /walker/drafts/{id}`. */
export interface DraftPatchInput extends Revisioned {
  name?: string | null;
  generator?: string | null;
  start_element_id?: string | null;
  actions?: string[] | null;
  requirements?: string[] | null;
  properties?: JsonObject | null;
  predefined_path_edge_ids?: string[] | null;
}

/** The query of `DELETE .../elements/{id}`, parsed. */
export interface DeleteElementOptions extends Revisioned {
  cascade: boolean;
  cleanup_references: boolean;
}

/** A vertex in responses. */
export interface VertexEnvelope {
  id: string;
  name: string;
  shared_state: string | null;
  actions: string[];
  requirements: string[];
  properties: JsonObject;
}

/** An edge in responses; unset `weight` and `dependency` are null. */
export interface EdgeEnvelope {
  id: string;
  name: string;
  source_vertex_id: string | null;
  target_vertex_id: string;
  guard: string | null;
  actions: string[];
  requirements: string[];
  properties: JsonObject;
  weight: number | null;
  dependency: number | null;
}

/** The draft and its model-level fields, as `POST` and `PATCH /walker/drafts[/{id}]` answer. */
export interface DraftSummary {
  draft_id: string;
  model_id: string;
  revision: number;
  name: string | null;
  generator: string | null;
  start_element_id: string | null;
  actions: string[];
  requirements: string[];
  properties: JsonObject;
  predefined_path_edge_ids: string[];
}
