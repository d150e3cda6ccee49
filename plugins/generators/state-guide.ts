import type { StatePlanning } from '../../core/planning/walk-planning.js';
import type { StateSpace } from '../../core/planning/state-space.js';
import type { WalkState } from '../../core/walk-state.js';

/** What a guide's strategy plans: transitions of the space from the state given, or undefined for "nothing to do". */
/**
 * A guide's strategy: transitions of the space from the state given, or undefined when nothing is left to do
 * from there, which must stay true while the walk goes on in the same space (coverage and reached targets
 * only grow), since the guide then asks no more.
 */
export type StatePlan = (space: StateSpace, state: number, walk: WalkState) => readonly number[] | undefined;

/** The guide's answer when the walk has no state space to plan over: the generator plans by the graph alone. */
export const NO_SPACE = -2;

/**
 * Follows plans made over the walk's states (docs/planning.md) for a generator: knows which state the walk
 * stands in, plans with the generator's strategy, and plans again whenever the walk is not where the plan
 * says. It knows the state without asking the scripts while the walk follows the plan through transitions
 * whose outcome is certain; after an unsure one (chance or time), a setData, or steps it did not choose, it
 * copies the walk's variables and looks the state up, exploring afresh when the space does not hold it.
 */
export class StateGuide {
  private space: StateSpace | undefined;
  private plan: readonly number[] = [];
  private at = 0;
  /** The state the walk should stand in when next asked, and the step count it should have then. */
  private expected = -1;
  private expectedSteps = -1;
  private outsideScripts = 0;
  /** True once the strategy had nothing to do in {@link space}: it stays so, since visits only grow. */
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
   * The edge to take from `vertex`, one of `open`; -1 when the plan has nothing left to do from here (the
   * caller then moves as it would without a goal); {@link NO_SPACE} when there is no space to plan over.
   */
  next(walk: WalkState, vertex: number, open: readonly number[]): number {
    const state = this.locate(walk, vertex);
    if (state < 0) return NO_SPACE;
    const space = this.space!;
    let t = this.due(state);
    if ((t < 0 || !open.includes(space.edgeOf[t])) && !this.exhausted) {
      const plan = this.strategy(space, state, walk);
      this.exhausted = plan === undefined;
      this.plan = plan ?? [];
      this.at = 0;
      t = this.due(state);
    }
    if (t < 0 || !open.includes(space.edgeOf[t])) {
      this.expected = -1;
      return -1;
    }
    this.at++;
    this.expected = space.unsure[t] === 1 ? -1 : space.to[t];
    this.expectedSteps = walk.steps + 2;
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
    const t = this.plan[this.at];
    const space = this.space!;
    return t >= space.outStart[state] && t < space.outStart[state + 1] ? t : -1;
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
