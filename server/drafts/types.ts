import type { JsonObject } from './schemas.js';

/**
 * What a draft stores per element: the domain's own shapes (camelCase, as the export names the fields), which
 * no request or response carries as they are. The shapes on the wire are TypeBox schemas: requests in
 * schemas.ts, responses in responses.ts.
 */

/**
 * A vertex as a draft stores it. Fields an export leaves out when empty are still always present here. Never
 * changed once stored: a change stores a new version (draft-model.ts).
 */
export interface DraftVertex {
  readonly id: string;
  readonly name: string;
  readonly sharedState: string | null;
  readonly actions: string[];
  readonly requirements: string[];
  readonly properties: JsonObject;
}

/** An edge as a draft stores it, never changed once stored. `weight` and `dependency` are null while unset. */
export interface DraftEdge {
  readonly id: string;
  readonly name: string;
  /** Null for a start edge. */
  readonly sourceVertexId: string | null;
  readonly targetVertexId: string;
  readonly guard: string | null;
  readonly actions: string[];
  readonly requirements: string[];
  readonly properties: JsonObject;
  readonly weight: number | null;
  readonly dependency: number | null;
}
