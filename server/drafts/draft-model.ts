import type { JsonObject } from './schemas.js';
import type { DraftEdge, DraftVertex } from './types.js';

/** The model-level fields of a draft (canonical meaning, camelCase as in the export). Replaced whole, never changed. */
export interface DraftModelFields {
  readonly name: string | null;
  readonly generator: string | null;
  readonly startElementId: string | null;
  readonly actions: string[];
  readonly requirements: string[];
  readonly properties: JsonObject;
  readonly predefinedPathEdgeIds: string[];
}

/** An id the draft made up for a new element, with the serial number it used. */
export interface GeneratedId {
  readonly id: string;
  readonly serial: number;
}

/**
 * The one model of a draft, kept so that every change costs the same however large the model is: vertices and
 * edges in Maps by id (insertion order is the export order), and per vertex the set of edges that touch it, so
 * that deleting a vertex finds its edges without scanning. Elements and fields are never changed in place: a
 * change builds new ones beside the old (copy on write, one element at a time) and the primitives here swap them
 * in. Nothing here checks requests: the mutation planners do that first, and call these primitives only for
 * changes already known to be valid.
 */
export class DraftModel {
  private current: DraftModelFields;
  readonly vertices = new Map<string, DraftVertex>();
  readonly edges = new Map<string, DraftEdge>();
  /** Per vertex id, the ids of the edges whose source or target it is. */
  private readonly incident = new Map<string, Set<string>>();
  /** How many times each edge id occurs in the predefined path, for O(1) reference checks on delete. */
  private pathCounts = new Map<string, number>();
  /** The serial number of the last generated id. */
  private serial = 0;

  constructor(
    readonly modelId: string,
    fields: Partial<DraftModelFields> = {},
  ) {
    this.current = {
      name: fields.name ?? null,
      generator: fields.generator ?? null,
      startElementId: null,
      actions: fields.actions ?? [],
      requirements: fields.requirements ?? [],
      properties: fields.properties ?? {},
      predefinedPathEdgeIds: [],
    };
  }

  /** The model-level fields. */
  get fields(): DraftModelFields {
    return this.current;
  }

  /** Vertices and edges together (what `--max-draft-elements` counts). */
  get size(): number {
    return this.vertices.size + this.edges.size;
  }

  /** True when a vertex or an edge has this id (ids are unique across both, docs/api-drafts.md). */
  has(id: string): boolean {
    return this.vertices.has(id) || this.edges.has(id);
  }

  /** A fresh element id (`v<n>` or `e<n>`) that no element has; ids a client chose are skipped. Changes nothing. */
  nextGeneratedId(kind: 'vertex' | 'edge'): GeneratedId {
    const prefix = kind === 'vertex' ? 'v' : 'e';
    let serial = this.serial;
    let id: string;
    do id = `${prefix}${++serial}`;
    while (this.has(id));
    return { id, serial };
  }

  /** The edges that start or end at the vertex, in no particular order. */
  edgesAt(vertexId: string): ReadonlySet<string> {
    return this.incident.get(vertexId) ?? NO_IDS;
  }

  /** True when the predefined path names this edge. */
  inPredefinedPath(edgeId: string): boolean {
    return this.pathCounts.has(edgeId);
  }

  /** Adds a vertex, at the end or `before` another; `generated` when the draft made up its id. */
  insertVertex(vertex: DraftVertex, generated?: GeneratedId, before?: string): void {
    insertInto(this.vertices, vertex, before);
    this.noteGenerated(generated);
  }

  /** Adds an edge, at the end or `before` another; both ends must be vertices of the draft. */
  insertEdge(edge: DraftEdge, generated?: GeneratedId, before?: string): void {
    insertInto(this.edges, edge, before);
    this.link(edge);
    this.noteGenerated(generated);
  }

  /** Puts a new version of a vertex in the place of the one with its id. */
  replaceVertex(vertex: DraftVertex): void {
    this.vertices.set(vertex.id, vertex);
  }

  /** Puts a new version of an edge in the place of the one with its id (ends may differ; both must exist). */
  replaceEdge(edge: DraftEdge): void {
    const old = this.edges.get(edge.id);
    // Relinking only moved ends keeps a vertex's edges in the order they were added, as messages list them.
    const moved = old?.sourceVertexId !== edge.sourceVertexId || old?.targetVertexId !== edge.targetVertexId;
    if (moved && old !== undefined) this.unlink(old);
    this.edges.set(edge.id, edge);
    if (moved) this.link(edge);
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

  /** Replaces the model-level fields; the reference counts follow a new predefined path. */
  replaceFields(fields: DraftModelFields): void {
    if (fields.predefinedPathEdgeIds !== this.current.predefinedPathEdgeIds) {
      this.pathCounts = new Map();
      for (const id of fields.predefinedPathEdgeIds) this.pathCounts.set(id, (this.pathCounts.get(id) ?? 0) + 1);
    }
    this.current = fields;
  }

  private noteGenerated(generated: GeneratedId | undefined): void {
    if (generated !== undefined) this.serial = Math.max(this.serial, generated.serial);
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

/**
 * Adds `element` at the end of `list`, or before the element with the id `before`. A Map keeps insertion order
 * only, so a placed element rebuilds the list: costlier than an append, which is why placing is only asked for
 * when order matters (an undone delete, docs/api-drafts.md).
 */
function insertInto<T extends { readonly id: string }>(list: Map<string, T>, element: T, before: string | undefined): void {
  if (before === undefined) {
    list.set(element.id, element);
    return;
  }
  const entries = [...list];
  list.clear();
  for (const [id, item] of entries) {
    if (id === before) list.set(element.id, element);
    list.set(id, item);
  }
}
