import { Graph } from '../../../core/model/graph.js';
import type { EdgeJson, ModelJson } from '../../../core/model/types.js';
import { createRandom } from '../../../core/random.js';

/** An edge as `[id, source, target]` (source null for a start edge), with optional extra fields. */
export type EdgeSpec = readonly [string, string | null, string, Partial<EdgeJson>?];

/** A model with the given vertex ids and edges, starting at `start` (default: the first vertex). */
export function model(vertices: readonly string[], edges: readonly EdgeSpec[], extra: Partial<ModelJson> = {}): ModelJson {
  return {
    id: 'm',
    name: 'M',
    startElementId: vertices[0],
    vertices: vertices.map((id) => ({ id, name: id })),
    edges: edges.map(([id, source, target, more]) => ({
      id,
      name: id,
      ...(source === null ? {} : { sourceVertexId: source }),
      targetVertexId: target,
      ...more,
    })),
    ...extra,
  };
}

export function graphOf(...models: ModelJson[]): Graph {
  return new Graph({ models });
}

/** Element index of an id in model 0. */
export function at(graph: Graph, id: string, modelIndex = 0): number {
  const e = graph.elementById(modelIndex, id);
  if (e === undefined) throw new Error(`no element ${id}`);
  return e;
}

/** A directed ring v0 → v1 → … → v0 (Eulerian). */
export function ring(n: number): Graph {
  const vertices = Array.from({ length: n }, (_, i) => `v${i}`);
  return graphOf(model(vertices, vertices.map((v, i) => [`e${i}`, v, vertices[(i + 1) % n]] as const)));
}

/**
 * A random model with `n` vertices and `m` edges (self-loops and parallel edges allowed). With `strong`, the
 * first n edges form a Hamiltonian cycle through a random order, so the model is strongly connected.
 */
export function randomModel(seed: number, n: number, m: number, strong: boolean): ModelJson {
  const random = createRandom(seed);
  const vertices = Array.from({ length: n }, (_, i) => `v${i}`);
  const edges: EdgeSpec[] = [];
  if (strong) {
    const order = vertices.map((v) => v);
    for (let i = n - 1; i > 0; i--) {
      const j = random.int(i + 1);
      [order[i], order[j]] = [order[j], order[i]];
    }
    for (let i = 0; i < n && edges.length < m; i++) edges.push([`e${edges.length}`, order[i], order[(i + 1) % n]]);
  }
  while (edges.length < m) edges.push([`e${edges.length}`, vertices[random.int(n)], vertices[random.int(n)]]);
  return model(vertices, edges);
}

/** Graph element indices of the edges reachable from the model's start (edges with a source only). */
export function reachableEdges(graph: Graph, modelIndex = 0): number[] {
  const start = graph.models[modelIndex].startElement;
  const first = graph.isVertex(start) ? start : graph.target[start];
  const seen = new Set([first]);
  const queue = [first];
  const edges: number[] = [];
  for (let i = 0; i < queue.length; i++) {
    for (const e of graph.outEdgesOf(queue[i])) {
      edges.push(e);
      if (!seen.has(graph.target[e])) {
        seen.add(graph.target[e]);
        queue.push(graph.target[e]);
      }
    }
  }
  return edges;
}
