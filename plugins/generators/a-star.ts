import type { RandomSource } from '../../core/random.js';
import type { PathGenerator, PathGeneratorFactory } from '../../core/generator.js';
import type { Graph } from '../../core/model/graph.js';
import type { JoinedGraph } from '../../core/model/joined-graph.js';
import type { WalkState } from '../../core/walk-state.js';
import { invalidGenerator } from '../../core/errors.js';
import { distancesToTargets } from './algorithms/bfs.js';
import { randomOpenEdge } from './choice.js';
import { NO_SPACE, StateGuide } from './state-guide.js';
import { frontierRoute, nearestRoute } from '../../core/planning/state-tours.js';
import type { StatePlanning } from '../../core/planning/walk-planning.js';

/**
 * `a_star` (`astarpath`): heads for the nearest target of its stop condition (`reached_vertex`,
 * `reached_edge`, `reached_shared_state`) along a shortest path, through other models where shared states
 * lead (the targets of `reached_shared_state` are in several models).
 *
 * Distances to the targets come from one breadth-first search over the reversed joined graph at creation
 * ({@link distancesToTargets}: guards ignored; steps counted, an edge two and a jump one, so this is what A*
 * with an exact heuristic would find, at O(1) per step). At a vertex it takes the open out-edge that leaves
 * the fewest steps to go, one of the equally short ones drawn from the seed on a tie; at a shared state it weighs that against
 * each jump the machine offers (`chooseJump`, staying on a tie), in O(out-degree + candidates). It keeps no
 * route: after a jump, the generator of the model jumped into reads the same distances (when it heads for the
 * same targets, as with one generator string for every model) and goes on the same way. When nothing open
 * leads on to a target (guards block the way) it takes a random open edge (or candidate) and tries again from
 * where that leads. Once it has stood on a target it heads for the nearest one it has not stood on yet (one
 * more search), so that a condition such as `reached_vertex(v_A) and length(50)` keeps moving with purpose;
 * when every target has been reached it walks randomly until the condition is fulfilled.
 */
export const aStarGenerator: PathGeneratorFactory = {
  name: 'a_star',
  aliases: ['astarpath'],
  create({ graph, joined, condition, planning }) {
    const targets = condition.targets;
    if (targets === undefined || targets.length === 0) {
      throw invalidGenerator(
        'a_star needs a stop condition that names a target, such as reached_vertex(v_Name), ' +
          'reached_edge(e_Name) or reached_shared_state(NAME)',
      );
    }
    return new AStarPath(graph, joined, targets, planning);
  },
};

const NONE = new Uint8Array(0);
const NO_EDGES: readonly number[] = Object.freeze([]);
const NO_DISTANCES = new Int32Array(0);

/**
 * Its arrays and its first search are made when it is first asked, not at load: a sequence may hold a thousand
 * `a_star` generators, and the walk may never come to most of them; each costs the graph's size only once its
 * turn comes.
 */
class AStarPath implements PathGenerator {
  /** Per element: 1 while it is a target this generator has not stood on. */
  private pending = NONE;
  private targets: number[] = [];
  private distance = NO_DISTANCES;
  private lastEdge = -1;
  /** The edge the plan chose at a shared state in {@link chooseJump}, for the nextEdge of the same step. */
  private decided = -1;
  private decidedAt = -1;
  private readonly guide: StateGuide;
  private ready = false;

  constructor(
    private readonly graph: Graph,
    private readonly joined: JoinedGraph,
    private readonly wanted: readonly number[],
    planning: StatePlanning,
  ) {
    // With the walk's states known (docs/planning.md): the shortest way, guards and actions included, to a
    // state standing on a pending target, or through a pending target edge; else into the nearest unknown
    // state from which the graph leads to one.
    this.guide = new StateGuide(
      planning,
      (space, state, walk, first) =>
        nearestRoute(space, state, (t) => this.pending[space.edgeOf[t]] === 1 || this.pending[space.vertexOf[space.to[t]]] === 1, walk.random, first) ??
        frontierRoute(space, state, (v) => this.distance[v] >= 0, walk.random, first),
    );
  }

  nextEdge(walk: WalkState, vertex: number): number {
    this.prepare();
    this.update(vertex);
    const open = walk.openEdges(vertex);
    if (open.length === 0) return -1;
    const decided = this.decided;
    this.decided = -1;
    if (decided >= 0 && this.decidedAt === walk.steps && open.includes(decided)) return (this.lastEdge = decided);
    const guided = this.guide.next(walk, vertex, open);
    if (guided !== NO_SPACE) return (this.lastEdge = guided >= 0 ? guided : randomOpenEdge(walk, open));
    const best = this.bestEdge(open, walk.random);
    this.lastEdge = best >= 0 ? best : randomOpenEdge(walk, open);
    return this.lastEdge;
  }

  chooseJump(walk: WalkState, vertex: number, candidates: readonly number[]): number {
    this.prepare();
    this.update(vertex);
    // With the walk's states known, the plan decides between staying and jumping; an edge it chose here is
    // kept for the nextEdge of the same step.
    const stays = candidates.includes(vertex);
    const guided = this.guide.next(walk, vertex, stays ? walk.openEdges(vertex) : NO_EDGES, candidates);
    if (guided !== NO_SPACE && guided >= 0) {
      if (this.graph.isVertex(guided)) return guided;
      [this.decided, this.decidedAt] = [guided, walk.steps];
      return vertex;
    }
    let best = -1;
    let bestSteps = Infinity;
    if (candidates.includes(vertex)) {
      const edge = this.bestEdge(walk.openEdges(vertex), walk.random);
      if (edge >= 0) [best, bestSteps] = [vertex, this.steps(edge)];
    }
    for (const w of candidates) {
      const d = this.distance[w];
      if (w !== vertex && d >= 0 && 1 + d < bestSteps) [best, bestSteps] = [w, 1 + d];
    }
    return best >= 0 ? best : candidates[walk.random.int(candidates.length)];
  }

  private prepare(): void {
    if (this.ready) return;
    this.ready = true;
    this.pending = new Uint8Array(this.graph.size);
    for (const t of this.wanted) this.pending[t] = 1;
    this.targets = [...new Set(this.wanted)];
    this.distance = new Int32Array(this.graph.vertexCount);
    distancesToTargets(this.graph, this.joined, this.targets, this.distance);
  }

  /** Notes the pending targets the walk stands on, or stood on with the edge this generator took last. */
  private update(vertex: number): void {
    const reachedVertex = this.arrive(vertex);
    const reachedEdge = this.lastEdge >= 0 && this.arrive(this.lastEdge);
    if (reachedVertex || reachedEdge) this.retarget();
  }

  /**
   * The open edge that leaves the fewest steps to a pending target; -1 when none leads there. Ties are broken
   * by the seed (each of k equally short edges kept with chance 1/k), so another seed walks another of the
   * shortest routes; a single shortest edge draws nothing.
   */
  private bestEdge(open: readonly number[], random: RandomSource): number {
    let best = -1;
    let bestSteps = Infinity;
    let ties = 0;
    for (const e of open) {
      const steps = this.steps(e);
      if (steps < bestSteps) [best, bestSteps, ties] = [e, steps, 1];
      else if (steps === bestSteps && steps < Infinity && random.int(++ties) === 0) best = e;
    }
    return best;
  }

  /** Steps from the edge's source, taking it, to stand on a pending target; Infinity when there is no way. */
  private steps(e: number): number {
    if (this.pending[e] === 1) return 1;
    const d = this.distance[this.graph.target[e]];
    return d < 0 ? Infinity : 2 + d;
  }

  /** Marks a pending target as reached; true when it was one. */
  private arrive(element: number): boolean {
    if (this.pending[element] === 0) return false;
    this.pending[element] = 0;
    return true;
  }

  private retarget(): void {
    this.targets = this.targets.filter((t) => this.pending[t] === 1);
    distancesToTargets(this.graph, this.joined, this.targets, this.distance);
  }
}
