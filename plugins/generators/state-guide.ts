import type { StatePlanning } from '../../core/planning/walk-planning.js';
import { isJump, stepsOf, type StateSpace } from '../../core/planning/state-space.js';
import { graphLeadsTo, type FirstMoves } from '../../core/planning/state-tours.js';
import type { WalkState } from '../../core/walk-state.js';

/**
 * A guide's strategy: transitions of the space from the state given, beginning with one `first` accepts (the
 * guards of the state as the walk finds them now), or undefined when nothing is left to do from there, which
 * must stay true while the walk goes on in the same space (coverage and reached targets only grow), since the
 * guide then asks no more, unless chance closed a way this time.
 */
export type StatePlan = (space: StateSpace, state: number, walk: WalkState, first: FirstMoves) => readonly number[] | undefined;

/** Whether a transition takes an edge the walk has not visited (a jump takes none). */
export function takesUnvisitedEdge(space: StateSpace, walk: WalkState, transition: number): boolean {
  return !isJump(space, transition) && walk.visits(space.edgeOf[transition]) === 0;
}

/**
 * Whether the graph leads from a vertex to an edge the walk has not visited (guards ignored): what may make
 * an unknown state worth going into, when the states known hold no such edge.
 */
export function leadsToUnvisited(space: StateSpace, walk: WalkState): (vertex: number) => boolean {
  const g = space.graph;
  return (vertex) => graphLeadsTo(g, [vertex], (e) => !g.isVertex(e) && walk.visits(e) === 0);
}

const NONE: readonly number[] = Object.freeze([]);

/** The guide's answer when the walk has no state space to plan over: the generator plans by the graph alone. */
export const NO_SPACE = -2;

/**
 * Follows plans made over the walk's states (docs/planning.md) for a generator: knows which state the walk
 * stands in, plans with the generator's strategy, and plans again whenever the walk is not where the plan
 * says. It knows the state without asking the scripts while the walk follows the plan into known states;
 * after a step into an unknown one (actions that read chance or time), a setData, or steps it did not
 * choose, it copies the walk's variables and looks the state up, exploring afresh when the space does not
 * hold it. A transition whose guard reads chance or time may be found closed: the plan is then made again
 * from where the walk stands, beginning with what is open now.
 */
export class StateGuide {
  private space: StateSpace | undefined;
  private plan: readonly number[] = [];
  private at = 0;
  /** The state the walk should stand in when next asked, and the step count it should have then. */
  private expected = -1;
  private expectedSteps = -1;
  private outsideScripts = 0;
  /**
   * True once the strategy had nothing to do in {@link space}, no way being closed by chance at the time: it
   * stays so, since visits only grow.
   */
  private exhausted = false;
  /** The walk's steps when it last had no space, so that a walk without one is not explored at every step. */
  private noSpaceAt = -1;

  constructor(
    private readonly planning: StatePlanning,
    private readonly strategy: StatePlan,
  ) {}

  /** The space of the last answer (for generators that read more of it). */
  get current(): StateSpace | undefined {
    return this.space;
  }

  /**
   * The move from `vertex`: one of `open`, or a jump to one of `jumps` (the vertices the machine offers at a
   * shared state, none elsewhere); -1 when the plan has nothing left to do from here (the caller then moves as
   * it would without a goal); {@link NO_SPACE} when there is no space to plan over.
   */
  next(walk: WalkState, vertex: number, open: readonly number[], jumps: readonly number[] = NONE): number {
    const state = this.locate(walk, vertex);
    if (state < 0) return NO_SPACE;
    const space = this.space!;
    let t = this.due(state);
    if (t < 0 || !offered(space, t, open, jumps)) {
      // A jump the machine does not offer now (back to where the walk just jumped from, say) cannot begin a plan.
      const first = (x: number) => offered(space, x, open, jumps);
      const chanced = closedByChance(space, state, first);
      if (chanced) this.exhausted = false;
      if (!this.exhausted) {
        const plan = this.strategy(space, state, walk, first);
        this.exhausted = plan === undefined && !chanced;
        this.plan = plan ?? [];
        this.at = 0;
        t = this.due(state);
      }
    }
    if (t < 0 || !offered(space, t, open, jumps)) {
      this.expected = -1;
      // Part of the states only, explored on the fly, with nothing to head for in it: this decision goes by
      // the graph alone, and the statistics count it.
      if (!space.complete && this.exhausted) {
        this.planning.fellBack();
        return NO_SPACE;
      }
      return -1;
    }
    this.at++;
    this.expected = space.to[t];
    this.expectedSteps = walk.steps + stepsOf(space, t);
    return space.edgeOf[t];
  }

  /** The state the walk stands in, or -1 without a space. */
  stateOf(walk: WalkState, vertex: number): number {
    return this.locate(walk, vertex);
  }

  /** Forgets the plan (the generator's goal changed); the state is kept. */
  drop(): void {
    this.plan = [];
    this.at = 0;
  }

  private due(state: number): number {
    if (this.at >= this.plan.length) return -1;
    const space = this.space!;
    const [from, end] = [space.outStart[state], space.outStart[state + 1]];
    let t = this.plan[this.at];
    // The machine made the planned move without asking: a jump that was the only way on from its vertex.
    if ((t < from || t >= end) && space.to[t] === state && ++this.at < this.plan.length) t = this.plan[this.at];
    return t >= from && t < end ? t : -1;
  }

  private locate(walk: WalkState, vertex: number): number {
    const space = this.space;
    const outside = this.planning.outsideScripts;
    if (
      space !== undefined &&
      this.expected >= 0 &&
      walk.steps === this.expectedSteps &&
      outside === this.outsideScripts &&
      space.vertexOf[this.expected] === vertex &&
      space.expanded[this.expected] === 1
    ) {
      return this.expected;
    }
    this.outsideScripts = outside;
    if (space === undefined && this.noSpaceAt >= 0 && walk.steps - this.noSpaceAt < 64 && walk.steps >= this.noSpaceAt) {
      return -1;
    }
    let found = space === undefined ? -1 : this.planning.locate(space, vertex);
    if (found < 0 || space!.expanded[found] === 0) {
      const explored = this.planning.explore(vertex);
      if (explored !== space) this.exhausted = false;
      this.space = explored;
      this.drop();
      found = explored === undefined ? -1 : this.planning.locate(explored, vertex);
      this.noSpaceAt = explored === undefined ? walk.steps : -1;
    }
    this.expected = -1;
    return found;
  }
}

/** Whether the machine offers transition `t` now: an edge among the `open` ones, a jump among the `jumps`. */
function offered(space: StateSpace, t: number, open: readonly number[], jumps: readonly number[]): boolean {
  return (isJump(space, t) ? jumps : open).includes(space.edgeOf[t]);
}

/** Whether some transition of `state` whose guard reads chance or time is closed now: another time it may not be. */
function closedByChance(space: StateSpace, state: number, open: FirstMoves): boolean {
  for (let t = space.outStart[state]; t < space.outStart[state + 1]; t++) {
    if (space.unsure[t] === 1 && !open(t)) return true;
  }
  return false;
}
