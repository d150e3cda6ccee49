import type { Graph } from '../../../core/model/graph.js';
import type { JoinedGraph } from '../../../core/model/joined-graph.js';

/**
 * The part of a graph reachable from a start vertex, renumbered densely so that the planning algorithms work
 * on small typed arrays instead of arrays as large as the whole file. The start's node is local vertex 0;
 * edges are grouped by source in local-vertex order (a CSR in `outStart`), in declaration order within a
 * vertex. Only edges with a source take part: a start edge can never be walked again.
 *
 * Given the {@link JoinedGraph}, the vertices of one shared-state group are *merged* into one local vertex,
 * so that a plan may leave a model through one member and go on in another model from another: the local
 * graph is then the joined graph of all models, with the jumps inside a group left for the caller to lay.
 */
export interface LocalGraph {
  readonly vertexCount: number;
  /** Local vertex → a graph vertex index (for a merged group, its first member). */
  readonly vertices: Int32Array;
  readonly edgeCount: number;
  /** Local edge → graph element index. */
  readonly edges: Int32Array;
  /** Per local edge: local source and target vertex. */
  readonly from: Int32Array;
  readonly to: Int32Array;
  /** The out-edges of local vertex v are the local edges `outStart[v] .. outStart[v+1]-1`. */
  readonly outStart: Int32Array;
  /** Every graph vertex the local vertices stand for (the members of merged groups included). */
  readonly reached: Int32Array;
  /** True when some local vertex stands for more than one graph vertex. */
  readonly merged: boolean;
}

/** Breadth-first from `start` over the static graph (guards ignored). O(reachable vertices + edges). */
export function reachableGraph(graph: Graph, start: number, joined?: JoinedGraph): LocalGraph {
  const n = graph.vertexCount;
  const nodeOf = (v: number): number => {
    const group = joined === undefined ? -1 : joined.groupOf[v];
    return group < 0 ? v : n + group;
  };
  const localOf = new Map<number, number>([[nodeOf(start), 0]]);
  const nodes: number[] = [nodeOf(start)];
  const reached: number[] = [];
  const edges: number[] = [];
  const from: number[] = [];
  const to: number[] = [];
  const outStart: number[] = [];
  const expand = (local: number, vertex: number): void => {
    reached.push(vertex);
    for (const e of graph.outEdgesOf(vertex)) {
      const target = nodeOf(graph.target[e]);
      let next = localOf.get(target);
      if (next === undefined) {
        next = nodes.length;
        localOf.set(target, next);
        nodes.push(target);
      }
      edges.push(e);
      from.push(local);
      to.push(next);
    }
  };
  // Vertices are numbered in discovery order and expanded in that same order, so each vertex's out-edges
  // are appended as one contiguous run: the CSR falls out of the traversal without a sort.
  for (let v = 0; v < nodes.length; v++) {
    outStart.push(edges.length);
    const node = nodes[v];
    if (node < n) expand(v, node);
    else for (const member of joined!.members(node - n)) expand(v, member);
  }
  outStart.push(edges.length);
  return {
    vertexCount: nodes.length,
    vertices: Int32Array.from(nodes, (node) => (node < n ? node : joined!.members(node - n)[0])),
    edgeCount: edges.length,
    edges: Int32Array.from(edges),
    from: Int32Array.from(from),
    to: Int32Array.from(to),
    outStart: Int32Array.from(outStart),
    reached: Int32Array.from(reached),
    merged: reached.length > nodes.length,
  };
}
