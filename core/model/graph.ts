import type { ModelFileJson } from './types.js';

/** A model of a {@link Graph}: its elements are given as element indices into the graph. */
export interface ModelInfo {
  /** Position of the model in the file, and its index in {@link Graph.models}. */
  readonly index: number;
  readonly id: string;
  readonly name: string | undefined;
  readonly generator: string | undefined;
  readonly actions: readonly string[];
  readonly requirements: readonly string[];
  readonly properties: Readonly<Record<string, unknown>>;
  /** Element indices of the model's vertices, in declaration order. */
  readonly vertices: readonly number[];
  /** Element indices of the model's edges, in declaration order. */
  readonly edges: readonly number[];
  /** Element index of the start element, or -1 when the model has none. */
  readonly startElement: number;
  /** Element indices of `predefinedPathEdgeIds`, in order. */
  readonly predefinedPath: readonly number[];
}

const NO_STRINGS: readonly string[] = Object.freeze([]);
const NO_PROPERTIES: Readonly<Record<string, unknown>> = Object.freeze({});

/**
 * The indexed, immutable form of a model file that the machine walks.
 *
 * Every vertex and edge of every model gets an *element index*: vertices first (`0 .. vertexCount-1`, model by
 * model in declaration order), then edges (`vertexCount .. size-1`). Per-element facts live in flat arrays
 * indexed by element index, so that the hot path of a walk touches no maps and allocates nothing.
 * Out-edges are stored in compressed-sparse-row form in edge declaration order, which is the order in which
 * candidates are considered.
 */
export class Graph {
  readonly vertexCount: number;
  readonly edgeCount: number;
  /** vertexCount + edgeCount. */
  readonly size: number;
  readonly models: readonly ModelInfo[];

  /** Per element. */
  readonly ids: readonly string[];
  readonly names: readonly (string | undefined)[];
  readonly modelOf: Uint32Array;
  readonly actions: readonly (readonly string[])[];
  readonly requirements: readonly (readonly string[])[];
  readonly properties: readonly Readonly<Record<string, unknown>>[];

  /** Per vertex (index < vertexCount); undefined for edges. */
  readonly sharedState: readonly (string | undefined)[];
  /** Per edge: source vertex index, or -1 for a start edge (and for vertices). */
  readonly source: Int32Array;
  /** Per edge: target vertex index (-1 for vertices). */
  readonly target: Int32Array;
  readonly guard: readonly (string | undefined)[];
  /** Per edge: weight 0..1, or NaN when the edge has none. */
  readonly weight: Float64Array;
  /** Per edge: dependency 0..100 (0 when the edge has none). */
  readonly dependency: Int32Array;

  /** CSR: the out-edges of vertex v are `outEdges[outOffsets[v] .. outOffsets[v+1]-1]`. */
  readonly outOffsets: Uint32Array;
  readonly outEdges: Uint32Array;
  /** CSR: the in-edges of vertex v are `inEdges[inOffsets[v] .. inOffsets[v+1]-1]`. */
  readonly inOffsets: Uint32Array;
  readonly inEdges: Uint32Array;

  private readonly byId: readonly Map<string, number>[];
  private readonly sharedGroups: Map<string, number[]>;

  /**
   * Builds the graph from a normalised, validated model file (see `loadModelFile`). Elements whose
   * references do not resolve must have been rejected or removed before.
   */
  constructor(file: ModelFileJson) {
    let vertexCount = 0;
    let edgeCount = 0;
    for (const m of file.models) {
      vertexCount += m.vertices.length;
      edgeCount += m.edges.length;
    }
    const size = vertexCount + edgeCount;
    this.vertexCount = vertexCount;
    this.edgeCount = edgeCount;
    this.size = size;

    const ids = new Array<string>(size);
    const names = new Array<string | undefined>(size);
    const actions = new Array<readonly string[]>(size);
    const requirements = new Array<readonly string[]>(size);
    const properties = new Array<Readonly<Record<string, unknown>>>(size);
    const sharedState = new Array<string | undefined>(size).fill(undefined);
    const guard = new Array<string | undefined>(size).fill(undefined);
    this.modelOf = new Uint32Array(size);
    this.source = new Int32Array(size).fill(-1);
    this.target = new Int32Array(size).fill(-1);
    this.weight = new Float64Array(size).fill(NaN);
    this.dependency = new Int32Array(size);
    this.sharedGroups = new Map();
    const byId: Map<string, number>[] = [];
    const models: ModelInfo[] = [];

    let v = 0;
    let e = vertexCount;
    file.models.forEach((m, index) => {
      const lookup = new Map<string, number>();
      const vertices: number[] = [];
      for (const vx of m.vertices) {
        ids[v] = vx.id;
        names[v] = vx.name;
        actions[v] = vx.actions?.length ? vx.actions : NO_STRINGS;
        requirements[v] = vx.requirements?.length ? vx.requirements : NO_STRINGS;
        properties[v] = vx.properties ?? NO_PROPERTIES;
        sharedState[v] = vx.sharedState || undefined;
        this.modelOf[v] = index;
        lookup.set(vx.id, v);
        vertices.push(v);
        if (vx.sharedState) {
          const group = this.sharedGroups.get(vx.sharedState) ?? [];
          group.push(v);
          this.sharedGroups.set(vx.sharedState, group);
        }
        v++;
      }
      const edges: number[] = [];
      for (const ed of m.edges) {
        ids[e] = ed.id;
        names[e] = ed.name;
        actions[e] = ed.actions?.length ? ed.actions : NO_STRINGS;
        requirements[e] = ed.requirements?.length ? ed.requirements : NO_STRINGS;
        properties[e] = ed.properties ?? NO_PROPERTIES;
        guard[e] = ed.guard?.trim() ? ed.guard : undefined;
        this.modelOf[e] = index;
        this.source[e] = ed.sourceVertexId === undefined ? -1 : (lookup.get(ed.sourceVertexId) ?? -1);
        this.target[e] = lookup.get(ed.targetVertexId) ?? -1;
        if (ed.weight !== undefined) this.weight[e] = ed.weight;
        this.dependency[e] = ed.dependency ?? 0;
        lookup.set(ed.id, e);
        edges.push(e);
        e++;
      }
      byId.push(lookup);
      const start = m.startElementId === undefined ? undefined : lookup.get(m.startElementId);
      models.push({
        index,
        id: m.id,
        name: m.name,
        generator: m.generator,
        actions: m.actions ?? NO_STRINGS,
        requirements: m.requirements ?? NO_STRINGS,
        properties: m.properties ?? NO_PROPERTIES,
        vertices,
        edges,
        startElement: start ?? -1,
        predefinedPath: (m.predefinedPathEdgeIds ?? []).map((id) => lookup.get(id) ?? -1),
      });
    });

    this.ids = ids;
    this.names = names;
    this.actions = actions;
    this.requirements = requirements;
    this.properties = properties;
    this.sharedState = sharedState;
    this.guard = guard;
    this.byId = byId;
    this.models = models;
    [this.outOffsets, this.outEdges] = this.adjacency(this.source);
    [this.inOffsets, this.inEdges] = this.adjacency(this.target);
  }

  /** True when the element index denotes a vertex. */
  isVertex(element: number): boolean {
    return element < this.vertexCount;
  }

  /** The element with this id in the given model, or undefined. */
  elementById(model: number, id: string): number | undefined {
    return this.byId[model]?.get(id);
  }

  /** All vertices (of every model) that carry this shared state, in model and declaration order. */
  sharedStateVertices(name: string): readonly number[] {
    return this.sharedGroups.get(name) ?? NO_NUMBERS;
  }

  /** Names of all shared states. */
  sharedStates(): IterableIterator<string> {
    return this.sharedGroups.keys();
  }

  /** The out-edges of a vertex, in declaration order (a view, no copy). */
  outEdgesOf(vertex: number): Uint32Array {
    return this.outEdges.subarray(this.outOffsets[vertex], this.outOffsets[vertex + 1]);
  }

  /** The in-edges of a vertex, in declaration order (a view, no copy). */
  inEdgesOf(vertex: number): Uint32Array {
    return this.inEdges.subarray(this.inOffsets[vertex], this.inOffsets[vertex + 1]);
  }

  /** How an element is named in messages: `name (id)`, or just the id when unnamed. */
  describe(element: number): string {
    const name = this.names[element];
    return name ? `${name} (${this.ids[element]})` : this.ids[element];
  }

  /** Counting sort of edges by the vertex in `end` (source or target), stable in declaration order. */
  private adjacency(end: Int32Array): [Uint32Array, Uint32Array] {
    const offsets = new Uint32Array(this.vertexCount + 1);
    for (let e = this.vertexCount; e < this.size; e++) if (end[e] >= 0) offsets[end[e] + 1]++;
    for (let i = 0; i < this.vertexCount; i++) offsets[i + 1] += offsets[i];
    const fill = offsets.slice(0, this.vertexCount);
    const edges = new Uint32Array(offsets[this.vertexCount]);
    for (let e = this.vertexCount; e < this.size; e++) if (end[e] >= 0) edges[fill[end[e]]++] = e;
    return [offsets, edges];
  }
}

const NO_NUMBERS: readonly number[] = Object.freeze([]);
