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

/** Gives vertices of a model shared states (`{ vertexId: state }`), a new id, and no start unless `start`. */
export function joinable(m: ModelJson, id: string, states: Record<string, string>, start = false): ModelJson {
  return {
    ...m,
    id,
    name: id,
    startElementId: start ? m.startElementId : undefined,
    vertices: m.vertices.map((v) => (states[v.id] === undefined ? v : { ...v, sharedState: states[v.id] })),
  };
}

/**
 * Four models joined by shared states, like a small PetClinic: Lobby (the start) reaches Wing and Annex
 * through the shared state HUB; Vault is reachable only through Wing (shared state DEEP); SAFE sits in Vault
 * and Annex. 14 edges in all.
 */
export function hubModels(): Graph {
  const lobby = model(['a0', 'a_hub'], [['a_in', 'a0', 'a_hub'], ['a_out', 'a_hub', 'a0'], ['a_wait', 'a0', 'a0']]);
  const wing = model(
    ['b_hub', 'b1', 'b_deep'],
    [['b_in', 'b_hub', 'b1'], ['b_out', 'b1', 'b_hub'], ['b_down', 'b1', 'b_deep'], ['b_up', 'b_deep', 'b1']],
  );
  const vault = model(
    ['c_deep', 'c1', 'c_safe'],
    [['c_in', 'c_deep', 'c1'], ['c_on', 'c1', 'c_safe'], ['c_back', 'c_safe', 'c_deep'], ['c_out', 'c1', 'c_deep']],
  );
  const annex = model(
    ['d_hub', 'd_safe'],
    [['d_in', 'd_hub', 'd_safe'], ['d_out', 'd_safe', 'd_hub'], ['d_loop', 'd_safe', 'd_safe']],
  );
  return graphOf(
    joinable(lobby, 'lobby', { a_hub: 'HUB' }, true),
    joinable(wing, 'wing', { b_hub: 'HUB', b_deep: 'DEEP' }),
    joinable(vault, 'vault', { c_deep: 'DEEP', c_safe: 'SAFE' }),
    joinable(annex, 'annex', { d_hub: 'HUB', d_safe: 'SAFE' }),
  );
}

/**
 * Random files of two or three small models whose vertices carry one of two shared states at random (the
 * first model starts at v0): for checking the joined-graph planners against exhaustive search.
 */
export function randomJoinedModels(seed: number, edgesPerModel: number): Graph {
  const random = createRandom(seed);
  const models = 2 + random.int(2);
  return graphOf(
    ...Array.from({ length: models }, (_, i) => {
      const n = 1 + random.int(3);
      const vertices = Array.from({ length: n }, (_, v) => `v${v}`);
      const edges = Array.from(
        { length: random.int(edgesPerModel + 1) },
        (_, e): EdgeSpec => [`e${e}`, `v${random.int(n)}`, `v${random.int(n)}`],
      );
      const states: Record<string, string> = {};
      for (const v of vertices) if (random.int(3) > 0) states[v] = random.int(2) === 0 ? 'S' : 'T';
      return joinable(model(vertices, edges), `m${i}`, states, i === 0);
    }),
  );
}
