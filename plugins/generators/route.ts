import type { Graph } from '../../core/model/graph.js';

/** A planned sequence of edges (a tour, a detour) and how far the walk has got along it. */
export class Route {
  private edges: readonly number[] = [];
  private at = 0;

  /** Replaces the route, with `at` edges of it already walked. */
  start(edges: readonly number[], at: number): void {
    this.edges = edges;
    this.at = at;
  }

  finished(): boolean {
    return this.at >= this.edges.length;
  }

  /** The due edge when it leaves from `vertex` and is open (and moves on); else -1, keeping the route. */
  follow(graph: Graph, vertex: number, open: readonly number[]): number {
    if (this.finished()) return -1;
    const e = this.edges[this.at];
    if (graph.source[e] !== vertex || !open.includes(e)) return -1;
    this.at++;
    return e;
  }

  /**
   * Passes over closed edges due from `vertex` (a trail may hold several in a row, through self-loops);
   * returns the first open one (and moves past it), or -1.
   */
  skipClosedFrom(graph: Graph, vertex: number, open: readonly number[]): number {
    while (!this.finished() && graph.source[this.edges[this.at]] === vertex) {
      const e = this.edges[this.at++];
      if (open.includes(e)) return e;
    }
    return -1;
  }

  /** Where the walk may rejoin: per vertex, the first of the next `window` positions whose edge leaves from it. */
  upcoming(graph: Graph, window: number): Map<number, number> {
    const rejoin = new Map<number, number>();
    const end = Math.min(this.edges.length, this.at + window);
    for (let i = this.at; i < end; i++) {
      const v = graph.source[this.edges[i]];
      if (!rejoin.has(v)) rejoin.set(v, i);
    }
    return rejoin;
  }

  /** Continues from position `at` (a detour rejoins the route there). */
  jumpTo(at: number): void {
    this.at = at;
  }
}
