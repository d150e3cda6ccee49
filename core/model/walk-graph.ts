import type { Graph } from './graph.js';
import type { JoinedGraph } from './joined-graph.js';
import type { Digraph } from './scc.js';

/**
 * Every move a walk can make, as one directed graph over elements (guards ignored): the load-time view of
 * where a walk can go, for reachability and for what one walk can cover.
 *
 * Nodes `0 .. graph.size-1` are the elements. A vertex leads to each of its out-edges, an edge to its target.
 * Shared-state jumps go through one extra node per group ({@link JoinedGraph}): a vertex that has a jump
 * destination leads to its group's node, which leads to every destination of the group. That keeps the arcs
 * linear in the group sizes and changes no reachability between elements: a vertex whose group has
 * destinations in two models can reach all of them, those of its own model through a jump into another model
 * and back. The walk starts on the start element of the first model that has one; a later model with a start
 * element is entered there once the models before it are done, which may happen wherever the walk stands, so
 * one more node, the *hub*, is led to by every element and leads to those start elements.
 */
export class WalkGraph implements Digraph {
  /** Number of nodes: the elements, the group nodes, and the hub when there is one. */
  readonly vertexCount: number;
  readonly outStart: Int32Array;
  readonly to: Int32Array;
  /** The element the walk starts on; -1 when no model has a start element. */
  readonly root: number;

  constructor(
    readonly graph: Graph,
    joined: JoinedGraph,
  ) {
    const starts = graph.models.map((m) => m.startElement).filter((s) => s >= 0);
    this.root = starts.length > 0 ? starts[0] : -1;
    const later = starts.slice(1);
    const hub = later.length > 0 ? graph.size + joined.groupCount : -1;
    this.vertexCount = graph.size + joined.groupCount + (hub >= 0 ? 1 : 0);
    const arcs = new ArcList(this.vertexCount);
    for (let v = 0; v < graph.vertexCount; v++) {
      for (const e of graph.outEdgesOf(v)) arcs.add(e);
      if (joined.jumpCount(v) > 0) arcs.add(graph.size + joined.groupOf[v]);
      arcs.endNode(hub);
    }
    for (let e = graph.vertexCount; e < graph.size; e++) {
      if (graph.target[e] >= 0) arcs.add(graph.target[e]);
      arcs.endNode(hub);
    }
    for (let group = 0; group < joined.groupCount; group++) {
      for (const member of joined.members(group)) if (joined.jumpable[member] === 1) arcs.add(member);
      arcs.endNode(-1);
    }
    if (hub >= 0) {
      for (const start of later) arcs.add(start);
      arcs.endNode(-1);
    }
    [this.outStart, this.to] = arcs.done();
  }

  /** Per element, 1 when some walk can step on it (breadth-first from {@link root}), else 0. */
  reachable(): Uint8Array {
    const seen = new Uint8Array(this.vertexCount);
    const queue = new Int32Array(this.vertexCount);
    let tail = 0;
    if (this.root >= 0) seen[(queue[tail++] = this.root)] = 1;
    for (let head = 0; head < tail; head++) {
      const node = queue[head];
      for (let a = this.outStart[node]; a < this.outStart[node + 1]; a++) {
        const next = this.to[a];
        if (seen[next] === 0) seen[(queue[tail++] = next)] = 1;
      }
    }
    return seen.slice(0, this.graph.size);
  }
}

/** Arcs appended node by node, in node order: the CSR arrays grow as they are filled. */
class ArcList {
  private readonly start: Int32Array;
  private to = new Int32Array(1024);
  private count = 0;
  private node = 0;

  constructor(nodes: number) {
    this.start = new Int32Array(nodes + 1);
  }

  add(target: number): void {
    if (this.count === this.to.length) {
      const grown = new Int32Array(2 * this.to.length);
      grown.set(this.to);
      this.to = grown;
    }
    this.to[this.count++] = target;
  }

  /** Closes the current node's arcs, adding one to `extra` unless it is -1. */
  endNode(extra: number): void {
    if (extra >= 0) this.add(extra);
    this.start[++this.node] = this.count;
  }

  done(): [Int32Array, Int32Array] {
    return [this.start, this.to.slice(0, this.count)];
  }
}
