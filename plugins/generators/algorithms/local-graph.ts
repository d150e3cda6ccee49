import type { Graph } from '../../../core/model/graph.js';

/**
 * The part of one model reachable from a start vertex, renumbered densely so that the planning algorithms
 * work on small typed arrays instead of arrays as large as the whole file. The start vertex is local vertex
 * 0; edges are grouped by source in local-vertex order (a CSR in `outStart`), in declaration order within a
 * vertex. Only edges with a source take part: a start edge can never be walked again, and edges never
 * cross models (shared-state jumps are the machine's, not a generator's).
 */
export interface LocalGraph {
  readonly vertexCount: number;
  /** Local vertex → graph element index. */
  readonly vertices: Int32Array;
  readonly edgeCount: number;
  /** Local edge → graph element index. */
  readonly edges: Int32Array;
  /** Per local edge: local source and target vertex. */
  readonly from: Int32Array;
  readonly to: Int32Array;
  /** The out-edges of local vertex v are the local edges `outStart[v] .. outStart[v+1]-1`. */
  readonly outStart: Int32Array;
}

/** Breadth-first from `start` over the static graph (guards ignored). O(reachable vertices + edges). */
export function reachableGraph(graph: Graph, start: number): LocalGraph {
  const localOf = new Map<number, number>([[start, 0]]);
  const vertices: number[] = [start];
  const edges: number[] = [];
  const from: number[] = [];
  const to: number[] = [];
  const outStart: number[] = [];
  // Vertices are numbered in discovery order and expanded in that same order, so each vertex's out-edges
  // are appended as one contiguous run: the CSR falls out of the traversal without a sort.
  for (let v = 0; v < vertices.length; v++) {
    outStart.push(edges.length);
    for (const e of graph.outEdgesOf(vertices[v])) {
      const target = graph.target[e];
      let local = localOf.get(target);
      if (local === undefined) {
        local = vertices.length;
        localOf.set(target, local);
        vertices.push(target);
      }
      edges.push(e);
      from.push(v);
      to.push(local);
    }
  }
  outStart.push(edges.length);
  return {
    vertexCount: vertices.length,
    vertices: Int32Array.from(vertices),
    edgeCount: edges.length,
    edges: Int32Array.from(edges),
    from: Int32Array.from(from),
    to: Int32Array.from(to),
    outStart: Int32Array.from(outStart),
  };
}
