import type { JsonObject } from './schemas.js';

/**
 * What a draft stores per element: the domain's own shapes (camelCase, as the export names the fields), which
 * no request or response carries as they are. The shapes on the wire are TypeBox schemas: requests in
 * schemas.ts, responses in responses.ts.
 */

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
