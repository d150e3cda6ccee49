/**
 * The model file format (GraphWalker JSON), in the canonical shape walker writes when it exports a model.
 * The loader accepts more than this (numeric strings, `properties: []`, unknown members); after loading,
 * every model file is normalised to these types.
 */

/** A whole model file: one or more models that may be joined by shared states. */
export interface ModelFileJson {
  name?: string;
  /** Seed for the walk when none is given on the command line. */
  seed?: number;
  models: ModelJson[];
}

export interface ModelJson {
  id: string;
  name?: string;
  /** Path generator and stop condition, e.g. `random(edge_coverage(100))`. */
  generator?: string;
  /** Id of the vertex or edge the walk starts on. */
  startElementId?: string;
  /** Scripts run once at load and again at restart. */
  actions?: string[];
  requirements?: string[];
  properties?: Record<string, unknown>;
  vertices: VertexJson[];
  edges: EdgeJson[];
  /** Ids of the edges `predefined_path` follows, in order. */
  predefinedPathEdgeIds?: string[];
}

export interface VertexJson {
  id: string;
  name?: string;
  /** Vertices of different models with the same shared state are linked: the walk may jump between them. */
  sharedState?: string;
  actions?: string[];
  requirements?: string[];
  properties?: Record<string, unknown>;
}

export interface EdgeJson {
  id: string;
  name?: string;
  /** Omitted for a start edge. */
  sourceVertexId?: string;
  targetVertexId: string;
  /** JavaScript boolean expression; the edge is available only when it is `true`. */
  guard?: string;
  actions?: string[];
  requirements?: string[];
  properties?: Record<string, unknown>;
  /** Probability 0..1 used by `weighted_random`. */
  weight?: number;
  /** Integer 0..100 used by `dependency_edge_coverage`. */
  dependency?: number;
}
