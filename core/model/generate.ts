import { createRandom } from '../random.js';
import type { EdgeJson, ModelFileJson, VertexJson } from './types.js';

/** Options of {@link generateModel}. */
export interface GenerateModelOptions {
  /** Number of vertices, at least 1. */
  vertices: number;
  /** Number of edges in total, the start edge included; at least `vertices + 1`. */
  edges: number;
  /** The same seed gives the same model. */
  seed: number;
  /** Give every edge a guard that always holds but has to be evaluated (`x >= 0`). */
  guards?: boolean;
  /** Give every vertex and edge the action `x = x + 1;`. */
  actions?: boolean;
}

const GUARD = 'x >= 0';
const ACTION = 'x = x + 1;';
/** Defines `x` for the guards and actions; without it `x >= 0` would be false and the walk stuck. */
const MODEL_ACTION = 'x = 0;';

/**
 * A deterministic random model for benchmarks and tests. It is strongly connected, so that every coverage goal
 * is reachable: a ring `v0 → v1 → … → v0` through all vertices, then random extra edges, plus a start edge `e0`
 * into `v0`. Ids are `v<i>` and `e<i>`, names `v_<i>` and `e_<i>`.
 */
export function generateModel(options: GenerateModelOptions): ModelFileJson {
  const { vertices: vertexCount, edges: edgeCount, seed } = options;
  checkCounts(vertexCount, edgeCount);
  const random = createRandom(seed);
  const vertices: VertexJson[] = new Array(vertexCount);
  for (let i = 0; i < vertexCount; i++) {
    vertices[i] = { id: `v${i}`, name: `v_${i}` };
    if (options.actions) vertices[i].actions = [ACTION];
  }
  const edges: EdgeJson[] = new Array(edgeCount);
  edges[0] = makeEdge(0, undefined, 0, options);
  for (let i = 0; i < vertexCount; i++) edges[i + 1] = makeEdge(i + 1, i, (i + 1) % vertexCount, options);
  for (let i = vertexCount + 1; i < edgeCount; i++) {
    edges[i] = makeEdge(i, random.int(vertexCount), random.int(vertexCount), options);
  }
  const model = {
    id: 'generated',
    name: 'Generated',
    generator: 'random(edge_coverage(100))',
    startElementId: 'e0',
    ...(options.guards || options.actions ? { actions: [MODEL_ACTION] } : {}),
    vertices,
    edges,
  };
  return { name: `Generated model (seed ${seed})`, models: [model] };
}

function makeEdge(index: number, source: number | undefined, target: number, options: GenerateModelOptions): EdgeJson {
  const id = `e${index}`;
  const name = `e_${index}`;
  const targetVertexId = `v${target}`;
  const edge: EdgeJson =
    source === undefined ? { id, name, targetVertexId } : { id, name, sourceVertexId: `v${source}`, targetVertexId };
  if (options.guards) edge.guard = GUARD;
  if (options.actions) edge.actions = [ACTION];
  return edge;
}

function checkCounts(vertexCount: number, edgeCount: number): void {
  if (!Number.isInteger(vertexCount) || vertexCount < 1) {
    throw new RangeError(`generateModel: 'vertices' must be a whole number of at least 1, got ${vertexCount}`);
  }
  if (!Number.isInteger(edgeCount) || edgeCount < vertexCount + 1) {
    throw new RangeError(
      `generateModel: 'edges' must be a whole number of at least vertices + 1 (${vertexCount + 1}): one start ` +
        `edge and a ring through all vertices, got ${edgeCount}`,
    );
  }
}
