/**
 * A directed graph in compressed-sparse-row form: the arcs out of node v are `outStart[v] .. outStart[v+1]-1`,
 * arc `a` leading to node `to[a]`. The planners' local graphs and the machine's element graph both have this
 * shape, so one strongly-connected-components routine serves both.
 */
export interface Digraph {
  /** Number of nodes. */
  readonly vertexCount: number;
  readonly outStart: ArrayLike<number>;
  readonly to: ArrayLike<number>;
}

/** The strongly connected components of a {@link Digraph}. */
export interface Components {
  readonly count: number;
  /**
   * Per node, its component; -1 for a node the search did not reach from its roots. Components are numbered
   * in reverse topological order (Tarjan's order): an arc between two components always goes from a higher
   * number to a lower one, so a dynamic programme over "what can still come after" visits them in
   * increasing order, and the component of a single root is the last one.
   */
  readonly of: Int32Array;
}

/**
 * Tarjan's algorithm in O(nodes + arcs), from the given roots (default: every node, so that every node gets a
 * component). Nodes no root reaches keep component -1.
 */
export function stronglyConnected(g: Digraph, roots?: Iterable<number>): Components {
  const tarjan = new Tarjan(g);
  if (roots === undefined) for (let root = 0; root < g.vertexCount; root++) tarjan.run(root);
  else for (const root of roots) tarjan.run(root);
  return { count: tarjan.count, of: tarjan.of };
}

/**
 * Iterative, with an explicit call stack of (node, next arc): models with long chains of vertices would
 * overflow the JavaScript stack of a recursive version.
 */
class Tarjan {
  readonly of: Int32Array;
  count = 0;
  private readonly index: Int32Array;
  private readonly low: Int32Array;
  private readonly onStack: Uint8Array;
  private readonly stack: Int32Array;
  private stackTop = 0;
  private readonly callVertex: Int32Array;
  private readonly callEdge: Int32Array;
  private depth = -1;
  private next = 0;

  constructor(private readonly g: Digraph) {
    const n = g.vertexCount;
    this.of = new Int32Array(n).fill(-1);
    this.index = new Int32Array(n).fill(-1);
    this.low = new Int32Array(n);
    this.onStack = new Uint8Array(n);
    this.stack = new Int32Array(n);
    this.callVertex = new Int32Array(n);
    this.callEdge = new Int32Array(n);
  }

  run(root: number): void {
    if (this.index[root] !== -1) return;
    this.enter(root);
    while (this.depth >= 0) {
      const v = this.callVertex[this.depth];
      const e = this.callEdge[this.depth];
      if (e < this.g.outStart[v + 1]) {
        this.callEdge[this.depth] = e + 1;
        this.follow(v, this.g.to[e]);
      } else {
        this.leave(v);
      }
    }
  }

  private enter(v: number): void {
    this.index[v] = this.low[v] = this.next++;
    this.stack[this.stackTop++] = v;
    this.onStack[v] = 1;
    this.depth++;
    this.callVertex[this.depth] = v;
    this.callEdge[this.depth] = this.g.outStart[v];
  }

  private follow(v: number, w: number): void {
    if (this.index[w] === -1) this.enter(w);
    else if (this.onStack[w] === 1 && this.index[w] < this.low[v]) this.low[v] = this.index[w];
  }

  private leave(v: number): void {
    if (this.low[v] === this.index[v]) {
      let w: number;
      do {
        w = this.stack[--this.stackTop];
        this.onStack[w] = 0;
        this.of[w] = this.count;
      } while (w !== v);
      this.count++;
    }
    this.depth--;
    if (this.depth >= 0) {
      const parent = this.callVertex[this.depth];
      if (this.low[v] < this.low[parent]) this.low[parent] = this.low[v];
    }
  }
}
