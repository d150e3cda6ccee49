import { ScriptError } from '../errors.js';
import type { Graph } from '../model/graph.js';
import type { Machine } from './machine.js';
import type { ModelStatus, WalkStatistics } from './statistics.js';

/** A vertex as a picture of the models draws it. */
export interface VertexShape {
  /** Element index: where its visit count is in {@link WalkProgress.visits}. */
  readonly index: number;
  readonly id: string;
  /** `""` for an unnamed vertex. */
  readonly name: string;
  /** Where the model file places it (yEd's geometry, GraphWalker's `properties.x`/`y`), when it does. */
  readonly x?: number;
  readonly y?: number;
  readonly sharedState?: string;
}

/** An edge as a picture of the models draws it. */
export interface EdgeShape {
  readonly index: number;
  readonly id: string;
  readonly name: string;
  /** Element index of the source vertex; -1 for an edge without one (a start edge). */
  readonly source: number;
  readonly target: number;
  readonly guard?: string;
}

export interface ModelShape {
  readonly id: string;
  readonly name?: string;
  /** Element index of the start element, -1 without one. */
  readonly startElement: number;
  readonly vertices: readonly VertexShape[];
  readonly edges: readonly EdgeShape[];
}

/**
 * The models of a walk as plain data, for drawing: every element with its element index (vertices first,
 * then edges, as in the graph), so that visit counts can travel as one array beside it.
 */
export interface GraphShape {
  /** Vertices plus edges of every model: the length of {@link WalkProgress.visits}. */
  readonly size: number;
  readonly models: readonly ModelShape[];
}

/** Coverage figures as `getStatistics` answers them, without the lists of unvisited elements. */
export type CoverageFigures = Omit<WalkStatistics, 'edgesNotVisited' | 'verticesNotVisited'>;

/** Where a walk stands, in plain data. */
export interface WalkProgress {
  readonly steps: number;
  /** Element index the walk stands on; -1 before the first step. */
  readonly current: number;
  /** Per element index: how often the walk stepped on it. */
  readonly visits: Uint32Array;
  /** Per model, indexed like {@link GraphShape.models}. */
  readonly statuses: readonly ModelStatus[];
  readonly statistics: CoverageFigures;
  /** The reason given to the last `fail`, if any. */
  readonly failure?: string;
}

/** The variables as a picture of the walk shows them. */
export interface VariablesSeen {
  /** As getData lists them; none when they could not be read. */
  readonly variables: Array<[string, string]>;
  /**
   * Why they could not be read, when reading them failed: a getter or `toJSON` that threw past the sandbox's
   * reach or ran past the script limits. The rest of the picture stands.
   */
  readonly variablesUnavailable?: string;
}

/** The variables `read` answers, or why it could not: a script's failure is the picture's, not the reader's. */
export function seenVariables(read: () => Array<[string, string]>): VariablesSeen {
  try {
    return { variables: read() };
  } catch (error) {
    // A yield is the host's, not the variables': it runs the read again where the getter may finish.
    if (!(error instanceof ScriptError) || error.limit === 'yield') throw error;
    return { variables: [], variablesUnavailable: error.describe() };
  }
}

/** The shape of a graph, read once per load. */
export function graphShape(graph: Graph): GraphShape {
  const models = graph.models.map((m): ModelShape => {
    const vertices = m.vertices.map((v) => vertexShape(graph, v));
    const edges = m.edges.map((e) => edgeShape(graph, e));
    return { id: m.id, ...(m.name === undefined ? {} : { name: m.name }), startElement: m.startElement, vertices, edges };
  });
  return { size: graph.size, models };
}

/**
 * Where the walk stands. O(elements): read when someone looks, never on a step. The figures are those of
 * `getStatistics`, computed by the same code, so that the two always agree.
 */
export function walkProgress(machine: Machine): WalkProgress {
  const size = machine.graph.size;
  const visits = new Uint32Array(size);
  for (let e = 0; e < size; e++) visits[e] = machine.visits(e);
  const statistics = machine.coverageFigures();
  return {
    steps: machine.steps,
    current: machine.current,
    visits,
    statuses: [...machine.modelStatuses()],
    statistics,
    ...(machine.failure === undefined ? {} : { failure: machine.failure }),
  };
}

/** A vertex's position from its properties (`x` and `y`, as GraphWalker and yEd files keep it); {} without one. */
export function placement(properties: Readonly<Record<string, unknown>>): { x: number; y: number } | Record<string, never> {
  const x = coordinate(properties.x);
  const y = coordinate(properties.y);
  return x !== undefined && y !== undefined ? { x, y } : {};
}

function vertexShape(graph: Graph, v: number): VertexShape {
  const placed = placement(graph.properties[v]);
  const shared = graph.sharedState[v];
  return { index: v, id: graph.ids[v], name: graph.names[v] ?? '', ...placed, ...(shared === undefined ? {} : { sharedState: shared }) };
}

function edgeShape(graph: Graph, e: number): EdgeShape {
  const guard = graph.guard[e];
  return {
    index: e,
    id: graph.ids[e],
    name: graph.names[e] ?? '',
    source: graph.source[e],
    target: graph.target[e],
    ...(guard === undefined ? {} : { guard }),
  };
}

/** GraphWalker files write positions as numbers; a numeric string (a hand-edited file) counts too. */
function coordinate(value: unknown): number | undefined {
  const n = typeof value === 'string' && value.trim() !== '' ? Number(value) : value;
  return typeof n === 'number' && Number.isFinite(n) ? n : undefined;
}
