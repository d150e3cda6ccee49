import type { PathGenerator } from '../../core/generator.js';
import type { Graph } from '../../core/model/graph.js';
import type { RandomSource } from '../../core/random.js';
import type { WalkState } from '../../core/walk-state.js';
import { randomOpenEdge } from './choice.js';

/** A generator whose plan may serve several models of one walk; `started` once it has been asked anything. */
export interface SharedPlanner extends PathGenerator {
  readonly graph: Graph;
  readonly started: boolean;
}

/**
 * One planner per walk for every model that uses the same planning generator, so that a plan that crosses
 * into another model through a shared state goes on there: the machine asks the *current* model's generator,
 * and after a jump that is another model's.
 *
 * The walk is recognised by its random source: the machine gives the generators of all its models the one
 * source of the walk (never another walk's), and makes them all together, before the first step, at load and
 * again at every restart. So a planner is shared by the generators made with the same source until it is
 * first asked for a step; a generator made after that (a restart) gets a new one, and a restart starts from
 * a clean plan as it must. Nothing is global: the map holds the source weakly, and two walks never share a
 * source. A caller that gives each model its own source simply gets a planner per model, each re-planning
 * where the walk enters its model.
 */
export class WalkPlanners<P extends SharedPlanner> {
  private readonly byWalk = new WeakMap<RandomSource, P>();

  /** The planner of the walk whose random source this is; `make` makes it when there is none yet. */
  for(random: RandomSource, graph: Graph, make: () => P): P {
    let planner = this.byWalk.get(random);
    if (planner === undefined || planner.started || planner.graph !== graph) {
      planner = make();
      this.byWalk.set(random, planner);
    }
    return planner;
  }
}

/** No moves: the open edges where the walk cannot stay, the jumps where none is offered. */
export const NO_MOVES: readonly number[] = Object.freeze([]);

/**
 * A generator that plans moves over the joined graph: at every vertex it decides one move — an open edge, or
 * at a shared state a jump to one of the candidates — and answers the machine's two questions by it. At a
 * shared state the machine asks {@link chooseJump} first: a jump is answered there; an edge is kept and given
 * to the {@link nextEdge} of the same step. When the planner has no preference (-1), it picks at random, as
 * the machine and GraphWalker would.
 */
export abstract class MovePlanner implements SharedPlanner {
  started = false;
  private decided = -1;
  private decidedAt = -1;
  private decidedFrom = -1;

  constructor(readonly graph: Graph) {}

  /**
   * The move from `vertex`: one of the `open` edges, or a jump to one of the `candidates` other than `vertex`
   * (none outside a shared state); -1 for no preference.
   */
  abstract move(walk: WalkState, vertex: number, open: readonly number[], candidates: readonly number[]): number;

  nextEdge(walk: WalkState, vertex: number): number {
    this.started = true;
    const open = walk.openEdges(vertex);
    if (open.length === 0) return -1;
    const decidedHere = this.decidedAt === walk.steps && this.decidedFrom === vertex;
    const keep = decidedHere && (this.decided < 0 || open.includes(this.decided));
    const move = keep ? this.decided : this.move(walk, vertex, open, NO_MOVES);
    this.decidedAt = -1;
    return move >= 0 ? move : randomOpenEdge(walk, open);
  }

  chooseJump(walk: WalkState, vertex: number, candidates: readonly number[]): number {
    this.started = true;
    const open = candidates.includes(vertex) ? walk.openEdges(vertex) : NO_MOVES;
    const move = this.move(walk, vertex, open, candidates);
    if (move >= 0 && this.graph.isVertex(move)) return move;
    [this.decided, this.decidedAt, this.decidedFrom] = [move, walk.steps, vertex];
    return move >= 0 ? vertex : candidates[walk.random.int(candidates.length)];
  }
}
