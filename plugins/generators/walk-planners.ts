import type { GeneratorInit, PathGenerator } from '../../core/generator.js';
import type { Graph } from '../../core/model/graph.js';
import type { WalkState } from '../../core/walk-state.js';
import { randomOpenEdge } from './choice.js';

/**
 * The one planner of a walk for `key`, made by `make` when the walk has none yet: every model that uses the
 * same planning generator gets the same planner, so that a plan which crosses into another model through a
 * shared state goes on there (the machine asks the *current* model's generator, and after a jump that is
 * another model's). The planner lives in the walk's {@link GeneratorInit.memo}, which the machine makes afresh
 * at load and at every restart: a restart starts from a clean plan, and two walks never share one.
 */
export function walkPlanner<P extends PathGenerator>(init: GeneratorInit, key: symbol, make: () => P): P {
  return init.memo.get(key, make);
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
export abstract class MovePlanner implements PathGenerator {
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
    const open = walk.openEdges(vertex);
    if (open.length === 0) return -1;
    const decidedHere = this.decidedAt === walk.steps && this.decidedFrom === vertex;
    const keep = decidedHere && (this.decided < 0 || open.includes(this.decided));
    const move = keep ? this.decided : this.move(walk, vertex, open, NO_MOVES);
    this.decidedAt = -1;
    return move >= 0 ? move : randomOpenEdge(walk, open);
  }

  chooseJump(walk: WalkState, vertex: number, candidates: readonly number[]): number {
    const open = candidates.includes(vertex) ? walk.openEdges(vertex) : NO_MOVES;
    const move = this.move(walk, vertex, open, candidates);
    if (move >= 0 && this.graph.isVertex(move)) return move;
    [this.decided, this.decidedAt, this.decidedFrom] = [move, walk.steps, vertex];
    return move >= 0 ? vertex : candidates[walk.random.int(candidates.length)];
  }
}
