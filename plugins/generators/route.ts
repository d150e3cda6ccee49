import type { Graph } from '../../core/model/graph.js';

/**
 * A planned sequence of moves (a tour, a detour) and how far the walk has got along it. A move is an edge
 * index (take that edge) or a vertex index (jump to that vertex through a shared state); each move leaves
 * from where the one before it ended, the first from the vertex the route was planned from.
 */
export class Route {
  private moves: readonly number[] = [];
  /** Per move: the vertex it leaves from. */
  private sources = new Int32Array(0);
  private at = 0;

  constructor(private readonly graph: Graph) {}

  /** Replaces the route, planned from `from`, with `at` moves of it already made. */
  start(moves: readonly number[], at: number, from: number): void {
    const g = this.graph;
    this.moves = moves;
    this.sources = new Int32Array(moves.length);
    let v = from;
    moves.forEach((m, i) => {
      this.sources[i] = g.isVertex(m) ? v : g.source[m];
      v = g.isVertex(m) ? m : g.target[m];
    });
    this.at = at;
  }

  finished(): boolean {
    return this.at >= this.moves.length;
  }

  /** The move due next when it leaves from `vertex`; else -1. */
  dueFrom(vertex: number): number {
    return !this.finished() && this.sources[this.at] === vertex ? this.moves[this.at] : -1;
  }

  /** Counts the due move as made. */
  advance(): void {
    this.at++;
  }

  /** The due move when it is an edge leaving from `vertex` that is open (and moves on); else -1, keeping the route. */
  follow(vertex: number, open: readonly number[]): number {
    const e = this.dueFrom(vertex);
    if (e < 0 || this.graph.isVertex(e) || !open.includes(e)) return -1;
    this.at++;
    return e;
  }

  /**
   * Passes over closed edges and jumps not taken that are due from `vertex` (a trail may hold several in a row,
   * through self-loops); returns the first open edge (and moves past it), or -1.
   */
  skipClosedFrom(vertex: number, open: readonly number[]): number {
    while (this.dueFrom(vertex) >= 0) {
      const e = this.moves[this.at++];
      if (!this.graph.isVertex(e) && open.includes(e)) return e;
    }
    return -1;
  }

  /** Where the walk may rejoin: per vertex, the first of the next `window` positions whose move leaves from it. */
  upcoming(window: number): Map<number, number> {
    const rejoin = new Map<number, number>();
    const end = Math.min(this.moves.length, this.at + window);
    for (let i = this.at; i < end; i++) {
      const v = this.sources[i];
      if (!rejoin.has(v)) rejoin.set(v, i);
    }
    return rejoin;
  }

  /** Continues from position `at` (a detour rejoins the route there). */
  jumpTo(at: number): void {
    this.at = at;
  }
}
