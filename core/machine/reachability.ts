import type { Graph } from '../model/graph.js';

/**
 * Marks every element that a walk can reach from the given start elements: along out-edges, from an edge
 * to its target, and from a vertex to every vertex that shares its shared state. Guards are ignored.
 * One breadth-first pass, O(elements).
 */
export function reachableElements(graph: Graph, starts: readonly number[]): Uint8Array {
  const seen = new Uint8Array(graph.size);
  const queue = new Int32Array(graph.size);
  const sharedDone = new Set<string>();
  let head = 0;
  let tail = 0;
  const visit = (element: number): void => {
    if (element >= 0 && !seen[element]) {
      seen[element] = 1;
      queue[tail++] = element;
    }
  };
  starts.forEach(visit);
  while (head < tail) {
    const element = queue[head++];
    if (!graph.isVertex(element)) {
      visit(graph.target[element]);
      continue;
    }
    for (const edge of graph.outEdgesOf(element)) visit(edge);
    const shared = graph.sharedState[element];
    if (shared !== undefined && !sharedDone.has(shared)) {
      sharedDone.add(shared);
      graph.sharedStateVertices(shared).forEach(visit);
    }
  }
  return seen;
}
