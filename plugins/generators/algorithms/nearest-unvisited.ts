import type { Graph } from '../../../core/model/graph.js';
import type { RandomSource } from '../../../core/random.js';
import type { WalkState } from '../../../core/walk-state.js';
import type { JoinedGraph } from '../../../core/model/joined-graph.js';

/**
 * Breadth-first search for the nearest edges the walk has never stepped on, for `quick_random`, over the
 * joined graph of all models ({@link JoinedGraph}): distances are steps, an edge counting two (the edge and
 * its target) and a shared-state jump one. It searches elements, vertices and edges alike, so that both costs
 * are one level each. The first move must be one of the `first` moves (the edges open now, and the jumps the
 * machine offers); beyond it the search uses the static graph (guards cannot be evaluated ahead of time),
 * skipping moves the caller knows to be blocked. It stops at the end of the first level that holds an
 * unvisited edge, so a search costs only what lies nearer than its target, and picks among that level's
 * unvisited edges at random.
 *
 * A route is a list of *moves*: an edge index means take that edge, a vertex index means jump to that vertex.
 * On a file without shared states it is the list of edges a vertex-by-vertex search would find.
 *
 * Scratch arrays are kept between searches and "cleared" by bumping a stamp, so a search allocates only its
 * route.
 */
export class NearestUnvisited {
  private readonly seen: Int32Array;
  private readonly via: Int32Array;
  private readonly depth: Int32Array;
  private readonly queue: Int32Array;
  /** Per group: the stamp of the search that expanded it, the model it first did so from, and whether twice. */
  private readonly groupSeen: Int32Array;
  private readonly groupModel: Int32Array;
  private readonly groupDone: Int32Array;
  private readonly found: number[] = [];
  /**
   * Without jumps every level is a whole edge, so the search may go from vertex to vertex (half the queue
   * operations); with jumps an edge is a node of its own, so that the queue stays in order of steps.
   */
  private readonly direct: boolean;
  private stamp = 0;
  /** The current search's test for moves to avoid. */
  private blocked: (move: number) => boolean = () => false;
  private queued = 0;
  /** Whether the last search looked at every move it could have (nothing open-only or blocked was skipped). */
  exhaustive = true;

  constructor(
    private readonly graph: Graph,
    private readonly joined: JoinedGraph,
  ) {
    this.seen = new Int32Array(graph.size);
    this.via = new Int32Array(graph.size);
    this.depth = new Int32Array(graph.size);
    this.queue = new Int32Array(graph.size);
    this.groupSeen = new Int32Array(this.joined.groupCount);
    this.groupModel = new Int32Array(this.joined.groupCount);
    this.groupDone = new Int32Array(this.joined.groupCount);
    this.direct = this.joined.groupCount === 0;
  }

  /**
   * The route (moves in walking order, the first one of `first`, the last one an unvisited edge) from `start`
   * to a nearest unvisited edge, or undefined when none can be reached.
   */
  search(
    walk: WalkState,
    start: number,
    first: readonly number[],
    blocked: (move: number) => boolean,
  ): number[] | undefined {
    this.begin(start, first);
    this.blocked = blocked;
    const g = this.graph;
    let nearest = Infinity;
    for (let head = 0; head < this.queued; head++) {
      const x = this.queue[head];
      const d = this.depth[x];
      if (d + 1 > nearest) break;
      if (!g.isVertex(x)) {
        this.enqueue(g.target[x], x, d + 1);
        continue;
      }
      const moves = head === 0 ? first : g.outEdgesOf(x);
      if (this.expand(walk, x, moves, head > 0 && nearest < Infinity)) nearest = d + 1;
    }
    return this.found.length === 0 ? undefined : this.route(start, walk.random);
  }

  /**
   * Looks at the moves from vertex `v` (the caller's first moves at the start, its out-edges and jumps
   * elsewhere): collects its unvisited edges, and unless the nearest level is already known (`collectOnly`),
   * queues where the others lead. True when it found an unvisited edge.
   */
  private expand(walk: WalkState, v: number, moves: ArrayLike<number>, collectOnly: boolean): boolean {
    const g = this.graph;
    const d = this.depth[v];
    const isStart = d === 0;
    let found = false;
    for (let i = 0; i < moves.length; i++) {
      const m = moves[i];
      if (!isStart && this.blocked(m)) {
        this.exhaustive = false;
      } else if (!g.isVertex(m) && walk.visits(m) === 0) {
        this.found.push(m);
        found = true;
      } else if (!collectOnly) {
        if (g.isVertex(m)) this.enqueue(m, v, d + 1);
        else if (this.direct) this.enqueue(g.target[m], m, d + 2);
        else this.enqueue(m, -1, d + 1);
      }
    }
    if (!isStart && !collectOnly) this.jumpFrom(v, d);
    return found;
  }

  /** The vertices the last search reached (valid until the next search). */
  reached(): number[] {
    const vertices: number[] = [];
    for (let i = 0; i < this.queued; i++) if (this.graph.isVertex(this.queue[i])) vertices.push(this.queue[i]);
    return vertices;
  }

  private begin(start: number, first: readonly number[]): void {
    this.stamp++;
    this.queued = 0;
    this.found.length = 0;
    const g = this.graph;
    this.exhaustive = first.length === g.outOffsets[start + 1] - g.outOffsets[start] + this.joined.jumpCount(start);
    this.enqueue(start, -1, 0);
  }

  /**
   * Queues the jump destinations of `v`. A group is scanned at most twice per search: the first scan reaches
   * every member outside the first model, a scan from another model the rest; any other scan finds nothing new.
   */
  private jumpFrom(v: number, d: number): void {
    const group = this.joined.groupOf[v];
    if (group < 0 || this.groupDone[group] === this.stamp) return;
    const model = this.graph.modelOf[v];
    if (this.groupSeen[group] !== this.stamp) {
      this.groupSeen[group] = this.stamp;
      this.groupModel[group] = model;
    } else if (this.groupModel[group] === model) {
      return;
    } else {
      this.groupDone[group] = this.stamp;
    }
    for (const w of this.joined.members(group)) {
      if (!this.joined.isJump(v, w)) continue;
      if (this.blocked(w)) this.exhaustive = false;
      else this.enqueue(w, v, d + 1);
    }
  }

  private enqueue(x: number, via: number, depth: number): void {
    if (this.seen[x] === this.stamp) return;
    this.seen[x] = this.stamp;
    this.via[x] = via;
    this.depth[x] = depth;
    this.queue[this.queued++] = x;
  }

  private route(start: number, random: RandomSource): number[] {
    const g = this.graph;
    const n = this.found.length;
    const target = this.found[n === 1 ? 0 : random.int(n)];
    const route = [target];
    for (let v = g.source[target]; v !== start; ) {
      const before = this.via[v];
      if (g.isVertex(before)) {
        route.push(v);
        v = before;
      } else {
        route.push(before);
        v = g.source[before];
      }
    }
    return route.reverse();
  }
}
