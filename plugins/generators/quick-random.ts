import type { PathGeneratorFactory } from '../../core/generator.js';
import type { Graph } from '../../core/model/graph.js';
import type { JoinedGraph } from '../../core/model/joined-graph.js';
import type { WalkState } from '../../core/walk-state.js';
import { NearestUnvisited } from './algorithms/nearest-unvisited.js';
import { Backoff, randomUnvisitedEdge } from './choice.js';
import { MovePlanner, walkPlanner } from './walk-planners.js';
import { leadsToUnvisited, NO_SPACE, StateGuide, takesUnvisitedEdge, type StatePlan } from './state-guide.js';
import { coverableFrom, frontierRoute, keepsCoverable, nearestRoute } from '../../core/planning/state-tours.js';
import type { StatePlanning } from '../../core/planning/walk-planning.js';

const PLANNER = Symbol('quick_random planner');

/**
 * `quick_random` (`quickrandom`, `quickrandompath`): covers edges quickly by always heading for one it has not
 * walked yet, in any model of the file.
 *
 * At a vertex: an unvisited open out-edge if there is one (random among them); else the next move of the
 * route planned towards the nearest unvisited edge over the joined graph of all models
 * ({@link NearestUnvisited}: a jump through a shared state is a move too, of one step), planning a new route
 * when there is none or a guard blocks it; else, when no unvisited edge is reachable, a random open edge, or
 * at a shared state a random candidate, as GraphWalker would. At a shared state it answers `chooseJump` by
 * that same choice: stay when the move is an edge, jump when it is a jump. All models of a walk that use
 * quick_random share one route ({@link walkPlanner}), so a route that crosses into another model is
 * followed there.
 *
 * Unlike GraphWalker's, it cannot get stuck heading for a target it can never reach:
 * - a vertex from which a complete search found nothing unvisited is marked dead for good (visits only grow),
 *   so a walk that has covered all it can costs O(1) per step, not a search per step;
 * - an edge whose guard blocked a route (or a jump the machine did not offer) is avoided by later searches
 *   until the walk covers a new edge (which is when variables, and so guards, are likely to have changed);
 * - when searches keep failing because of guards, {@link Backoff} spaces them out.
 */
export const quickRandomGenerator: PathGeneratorFactory = {
  name: 'quick_random',
  aliases: ['quickrandom', 'quickrandompath'],
  create: (init) => walkPlanner(init, PLANNER, () => new QuickRandomPath(init.graph, init.joined, init.planning)),
};

/**
 * With the walk's states known (docs/planning.md): the way to the nearest state from which an edge not yet
 * visited is open, and through it; one of the nearest drawn from the seed. Of those, one after which every
 * other edge a walk from here can still take stays within reach, when there is one: the nearest edge may
 * lead where guards close the others for good (a shared counter that only grows past their threshold).
 */
const nearestUnvisited: StatePlan = (space, state, walk, first) => {
  const unvisited = (t: number) => takesUnvisitedEdge(space, walk, t);
  const route = nearestRoute(space, state, unvisited, walk.random, first);
  if (route === undefined) return frontierRoute(space, state, leadsToUnvisited(space, walk), walk.random, first);
  // Most often the nearest keeps the rest within reach, and one look at where it ends says so.
  const g = space.graph;
  const keeps = keepsCoverable(space, coverableFrom(space, state, (e) => !g.isVertex(e) && walk.visits(e) === 0, first));
  const last = route[route.length - 1];
  if (keeps(space.to[last], space.edgeOf[last])) return route;
  return nearestRoute(space, state, (t) => unvisited(t) && keeps(space.to[t], space.edgeOf[t]), walk.random, first) ?? route;
};

/** The quick_random strategy; also what shortest_all_paths walks by while its plan is spoilt by guards. */
export class QuickRandomPath extends MovePlanner {
  /** Moves: an edge index to take, or a vertex index to jump to. */
  private route: number[] = [];
  private routeAt = 0;
  /** The vertex the route's next move leaves from. */
  private routeFrom = -1;
  private readonly search: NearestUnvisited;
  private readonly dead: Uint8Array;
  /** Per element: 1 + the walk's visited-edge count when it blocked a route; avoided while that count holds. */
  private readonly blockedAt: Int32Array;
  private readonly backoff = new Backoff();
  private readonly guide: StateGuide | undefined;

  /** Without `planning` (as shortest_all_paths uses it, meanwhile) it plans by the graph alone. */
  constructor(graph: Graph, joined: JoinedGraph, planning?: StatePlanning) {
    super(graph);
    this.guide = planning && new StateGuide(planning, nearestUnvisited);
    this.search = new NearestUnvisited(graph, joined);
    this.dead = new Uint8Array(graph.vertexCount);
    this.blockedAt = new Int32Array(graph.size);
  }

  /**
   * The move from `vertex`: one of the `open` edges, or a jump to one of the `candidates` other than `vertex`;
   * -1 when there is nothing to head for (the caller then chooses at random).
   */
  override move(walk: WalkState, vertex: number, open: readonly number[], candidates: readonly number[]): number {
    const guided = this.guide === undefined ? NO_SPACE : this.guide.next(walk, vertex, open, candidates);
    if (guided !== NO_SPACE) return guided;
    const fresh = randomUnvisitedEdge(walk, open);
    if (fresh >= 0) return fresh;
    const planned = this.followRoute(walk, vertex, open, candidates);
    if (planned >= 0) return planned;
    if (this.dead[vertex] === 1 || !this.backoff.ready()) return -1;
    return this.plan(walk, vertex, open, candidates);
  }

  /** The route's next move when it leaves from here and can be made; otherwise drops the route. */
  private followRoute(walk: WalkState, vertex: number, open: readonly number[], candidates: readonly number[]): number {
    if (this.routeAt >= this.route.length) return -1;
    const m = this.route[this.routeAt];
    // A target covered meanwhile (a detour through another model, say) is not worth the rest of the way.
    const stillWanted = walk.visits(this.route[this.route.length - 1]) === 0;
    if (stillWanted && this.routeFrom === vertex) {
      if ((this.graph.isVertex(m) ? candidates : open).includes(m)) {
        this.routeAt++;
        this.routeFrom = this.graph.isVertex(m) ? m : this.graph.target[m];
        return m;
      }
      this.blockedAt[m] = this.epoch(walk) + 1;
    }
    this.route = [];
    this.routeAt = 0;
    return -1;
  }

  private plan(walk: WalkState, vertex: number, open: readonly number[], candidates: readonly number[]): number {
    const epoch = this.epoch(walk) + 1;
    const first = candidates.length === 0 ? open : [...open, ...candidates.filter((c) => c !== vertex)];
    const route = this.search.search(walk, vertex, first, (m) => this.blockedAt[m] === epoch);
    if (route !== undefined) {
      this.backoff.succeeded();
      this.route = route;
      this.routeAt = 1;
      this.routeFrom = this.graph.isVertex(route[0]) ? route[0] : this.graph.target[route[0]];
      return route[0];
    }
    if (this.search.exhaustive) for (const v of this.search.reached()) this.dead[v] = 1;
    else this.backoff.failed();
    return -1;
  }

  /** Coverage so far, over all models: blocked marks expire when it grows. */
  private epoch(walk: WalkState): number {
    let visited = 0;
    for (let m = 0; m < this.graph.models.length; m++) visited += walk.visitedEdges(m);
    return visited;
  }
}
