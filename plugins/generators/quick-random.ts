import type { PathGenerator, PathGeneratorFactory } from '../../core/generator.js';
import type { Graph } from '../../core/model/graph.js';
import type { WalkState } from '../../core/walk-state.js';
import { NearestUnvisited } from './algorithms/nearest-unvisited.js';
import { Backoff, randomOpenEdge, randomUnvisitedEdge } from './choice.js';

/**
 * `quick_random` (`quickrandom`, `quickrandompath`): covers edges quickly by always heading for one it has not
 * walked yet.
 *
 * At a vertex: an unvisited open out-edge if there is one (random among them); else the next edge of the
 * route planned towards the nearest unvisited edge ({@link NearestUnvisited}), planning a new route when
 * there is none or a guard blocks it; else, when no unvisited edge is reachable, a random open edge.
 *
 * Unlike GraphWalker's, it cannot get stuck heading for a target it can never reach:
 * - a vertex from which a complete search found nothing unvisited is marked dead for good (visits only grow),
 *   so a walk that has covered all it can costs O(1) per step, not a search per step;
 * - an edge whose guard blocked a route is avoided by later searches until the walk covers a new edge (which
 *   is when variables, and so guards, are likely to have changed);
 * - when searches keep failing because of guards, {@link Backoff} spaces them out.
 */
export const quickRandomGenerator: PathGeneratorFactory = {
  name: 'quick_random',
  aliases: ['quickrandom', 'quickrandompath'],
  create: ({ graph }) => new QuickRandomPath(graph),
};

/** The quick_random strategy; also what shortest_all_paths walks by while its plan is spoilt by guards. */
export class QuickRandomPath implements PathGenerator {
  private route: number[] = [];
  private routeAt = 0;
  private readonly search: NearestUnvisited;
  private readonly dead: Uint8Array;
  /** Per edge: 1 + the model's visited-edge count when its guard blocked a route; avoided while that count holds. */
  private readonly blockedAt: Int32Array;
  private readonly backoff = new Backoff();

  constructor(private readonly graph: Graph) {
    this.search = new NearestUnvisited(graph);
    this.dead = new Uint8Array(graph.vertexCount);
    this.blockedAt = new Int32Array(graph.size);
  }

  nextEdge(walk: WalkState, vertex: number): number {
    const open = walk.openEdges(vertex);
    if (open.length === 0) return -1;
    const fresh = randomUnvisitedEdge(walk, open);
    if (fresh >= 0) return fresh;
    const planned = this.followRoute(walk, vertex, open);
    if (planned >= 0) return planned;
    if (this.dead[vertex] === 1 || !this.backoff.ready()) return randomOpenEdge(walk, open);
    return this.plan(walk, vertex, open);
  }

  /** The route's next edge when it leaves from here and is open; otherwise drops the route. */
  private followRoute(walk: WalkState, vertex: number, open: readonly number[]): number {
    if (this.routeAt >= this.route.length) return -1;
    const e = this.route[this.routeAt];
    // A target covered meanwhile (a shared-state detour, say) is not worth the rest of the way.
    const stillWanted = walk.visits(this.route[this.route.length - 1]) === 0;
    if (stillWanted && this.graph.source[e] === vertex) {
      if (open.includes(e)) {
        this.routeAt++;
        return e;
      }
      this.blockedAt[e] = this.epoch(walk, vertex) + 1;
    }
    this.route = [];
    this.routeAt = 0;
    return -1;
  }

  private plan(walk: WalkState, vertex: number, open: readonly number[]): number {
    const epoch = this.epoch(walk, vertex) + 1;
    const route = this.search.search(walk, vertex, open, (e) => this.blockedAt[e] === epoch);
    if (route !== undefined) {
      this.backoff.succeeded();
      this.route = route;
      this.routeAt = 1;
      return route[0];
    }
    if (this.search.exhaustive) for (const v of this.search.reached()) this.dead[v] = 1;
    else this.backoff.failed();
    return randomOpenEdge(walk, open);
  }

  /** Coverage so far: blocked marks expire when it grows. */
  private epoch(walk: WalkState, vertex: number): number {
    return walk.visitedEdges(this.graph.modelOf[vertex]);
  }
}
