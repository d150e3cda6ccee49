import type { JsonObject } from './schemas.js';
import type { DraftEdge, DraftVertex } from './types.js';

/** The model-level fields of a draft (canonical meaning, camelCase as in the export). */
export interface DraftModelFields {
  name: string | null;
  generator: string | null;
  startElementId: string | null;
  actions: string[];
  requirements: string[];
  properties: JsonObject;
  predefinedPathEdgeIds: string[];
}

/**
 * The one model of a draft, kept so that every change costs the same however large the model is: vertices and
 * edges in Maps by id (insertion order is the export order), and per vertex the set of edges that touch it, so
 * that deleting a vertex finds its edges without scanning. Nothing here checks requests: the mutation planners
 * do that first, and call these primitives only for changes already known to be valid.
 */
export class DraftModel {
  readonly fields: DraftModelFields;
  readonly vertices = new Map<string, DraftVertex>();
  readonly edges = new Map<string, DraftEdge>();
  /** Per vertex id, the ids of the edges whose source or target it is. */
  private readonly incident = new Map<string, Set<string>>();
  /** How many times each edge id occurs in the predefined path, for O(1) reference checks on delete. */
  private pathCounts = new Map<string, number>();
  private generatedIds = 0;

  constructor(
    readonly modelId: string,
    fields: Partial<DraftModelFields> = {},
  ) {
    this.fields = {
      name: fields.name ?? null,
      generator: fields.generator ?? null,
      startElementId: null,
      actions: fields.actions ?? [],
      requirements: fields.requirements ?? [],
      properties: fields.properties ?? {},
      predefinedPathEdgeIds: [],
    };
  }

  /** Vertices and edges together (what `--max-draft-elements` counts). */
  get size(): number {
    return this.vertices.size + this.edges.size;
  }

  /** True when a vertex or an edge has this id (ids are unique across both, docs/api-drafts.md). */
  has(id: string): boolean {
    return this.vertices.has(id) || this.edges.has(id);
  }

  /** A fresh element id (`v<n>` or `e<n>`) that no element has; ids a client chose are skipped. */
  newElementId(kind: 'vertex' | 'edge'): string {
    const prefix = kind === 'vertex' ? 'v' : 'e';
    let id: string;
    do id = `${prefix}${++this.generatedIds}`;
    while (this.has(id));
    return id;
  }

  /** The edges that start or end at the vertex, in no particular order. */
  edgesAt(vertexId: string): ReadonlySet<string> {
    return this.incident.get(vertexId) ?? NO_IDS;
  }

  /** True when the predefined path names this edge. */
  inPredefinedPath(edgeId: string): boolean {
    return this.pathCounts.has(edgeId);
  }

  insertVertex(vertex: DraftVertex): void {
    this.vertices.set(vertex.id, vertex);
  }

  insertEdge(edge: DraftEdge): void {
    this.edges.set(edge.id, edge);
    this.link(edge);
  }

  /** Moves an edge to other end vertices (both must exist), keeping its place in the export order. */
  reconnect(edge: DraftEdge, sourceVertexId: string | null, targetVertexId: string): void {
    this.unlink(edge);
    edge.sourceVertexId = sourceVertexId;
    edge.targetVertexId = targetVertexId;
    this.link(edge);
  }

  /** Removes an element of either kind; a vertex must have no edges left. */
  remove(id: string): void {
    const edge = this.edges.get(id);
    if (edge) {
      this.unlink(edge);
      this.edges.delete(id);
      return;
    }
    this.vertices.delete(id);
    this.incident.delete(id);
  }

  /** Replaces the predefined path and its reference counts. */
  setPredefinedPath(edgeIds: string[]): void {
    this.fields.predefinedPathEdgeIds = edgeIds;
    this.pathCounts = new Map();
    for (const id of edgeIds) this.pathCounts.set(id, (this.pathCounts.get(id) ?? 0) + 1);
  }

  /** Drops every occurrence of the given edges from the predefined path. */
  removeFromPredefinedPath(edgeIds: ReadonlySet<string>): void {
    const path = this.fields.predefinedPathEdgeIds.filter((id) => !edgeIds.has(id));
    this.setPredefinedPath(path);
  }

  private link(edge: DraftEdge): void {
    this.incidentOf(edge.targetVertexId).add(edge.id);
    if (edge.sourceVertexId !== null) this.incidentOf(edge.sourceVertexId).add(edge.id);
  }

  private unlink(edge: DraftEdge): void {
    this.incident.get(edge.targetVertexId)?.delete(edge.id);
    if (edge.sourceVertexId !== null) this.incident.get(edge.sourceVertexId)?.delete(edge.id);
  }

  private incidentOf(vertexId: string): Set<string> {
    let set = this.incident.get(vertexId);
    if (set === undefined) {
      set = new Set();
      this.incident.set(vertexId, set);
    }
    return set;
  }
}

const NO_IDS: ReadonlySet<string> = new Set();
