import type { Graph } from '../../../core/model/graph.js';

/**
 * Per vertex, how many edges the walk must still take from there to stand on one of the target elements,
 * -1 when it cannot (guards ignored): a breadth-first search over the reversed graph from all targets at
 * once. A vertex target is at 0 from itself; an edge target is reached by taking it, so its source is at 1.
 * O(vertices + edges) of the whole graph; the result is written into `out` (length `graph.vertexCount`).
 */
export function distancesToTargets(graph: Graph, targets: Iterable<number>, out: Int32Array): void {
  out.fill(-1);
  const queue = new Int32Array(graph.vertexCount);
  let tail = 0;
  const edgeSources: number[] = [];
  for (const t of targets) {
    if (graph.isVertex(t)) {
      if (out[t] === -1) out[(queue[tail++] = t)] = 0;
    } else if (graph.source[t] >= 0) {
      edgeSources.push(graph.source[t]);
    }
  }
  // Queued after every distance-0 vertex, so the queue stays in distance order.
  for (const v of edgeSources) if (out[v] === -1) out[(queue[tail++] = v)] = 1;
  for (let head = 0; head < tail; head++) {
    const v = queue[head];
    for (const e of graph.inEdgesOf(v)) {
      const u = graph.source[e];
      if (u >= 0 && out[u] === -1) out[(queue[tail++] = u)] = out[v] + 1;
    }
  }
}
