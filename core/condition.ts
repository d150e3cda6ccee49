import type { WalkScope, WalkState } from './walk-state.js';

/** Known stop-condition names; plugin packages add theirs by declaration merging. */
export interface StopConditionNames {
  edge_coverage: true;
  vertex_coverage: true;
  requirement_coverage: true;
  dependency_edge_coverage: true;
  reached_vertex: true;
  reached_edge: true;
  reached_shared_state: true;
  time_duration: true;
  length: true;
  never: true;
  predefined_path: true;
}
export type StopConditionName = keyof StopConditionNames & string;

/** A stop condition of one generator of one walk. A fresh instance is created at load and at every restart. */
export interface StopCondition {
  /**
   * True when the condition holds now. The machine adds the vertex rule itself: for a factory with
   * `endsOnVertex`, a true answer counts only while the walk stands on a vertex.
   */
  isFulfilled(walk: WalkState): boolean;
  /** Progress towards fulfilment, 0 to 1 (for statistics and live views). */
  fulfilment(walk: WalkState): number;
  /**
   * Called after every step (of any model, from load on, whichever generator of a sequence is active) with
   * the element stepped on and whether it was its first visit. `walk.steps` and `walk.visits` already count
   * the step.
   */
  onStep?(walk: WalkState, element: number, firstVisit: boolean): void;
  /** The elements this condition wants the walk to stand on (reached_* conditions): what `a_star` heads for. */
  readonly targets?: readonly number[];
  /**
   * Why this condition can never be fulfilled from the start (docs/behaviour.md), or undefined when it can.
   * Only static facts count: guards are ignored.
   */
  unreachable?(scope: WalkScope): string | undefined;
  /**
   * What the walk must have stepped on for this condition to hold, when that is all it asks. The machine uses
   * it at load to refuse a goal that no single walk can meet — one that needs elements behind branches the walk
   * cannot come back from — alone or together with the other operands of an `and`.
   */
  readonly demand?: StepDemand;
}

/**
 * Elements a condition needs the walk to have stepped on: at least `least` of their total weight. A coverage
 * goal of p % is its elements with the least that makes p %; `reached_vertex` is its targets with least 1.
 */
export interface StepDemand {
  /** The condition as written in canonical form, e.g. `edge_coverage(100)`, for messages. */
  readonly label: string;
  /** What the elements are, plural, for messages: `edges of model 'Login'`. */
  readonly what: string;
  readonly elements: readonly number[];
  /** How much each of `elements` counts (e.g. its number of requirements); 1 each when absent. */
  readonly weights?: readonly number[];
  /** The least total weight that fulfils the condition. */
  readonly least: number;
}

/** How the argument of a stop condition is written and checked before `create` sees it. */
export type ConditionArgument =
  /** `never`, `never()` */
  | 'none'
  /** a non-negative integer, e.g. `length(30)`, `edge_coverage(100)` */
  | 'integer'
  /** a name, e.g. `reached_vertex(v_Browse)` */
  | 'name';

/** Registered under its name and aliases (all matched case-insensitively). */
export interface StopConditionFactory {
  readonly name: StopConditionName;
  readonly aliases?: readonly string[];
  readonly argument: ConditionArgument;
  /** Coverage, length and time conditions: fulfilled only while the walk stands on a vertex. */
  readonly endsOnVertex: boolean;
  /**
   * Makes the condition for one model. Throws a `WalkerError` (code GENERATOR_INVALID) with a message that
   * says what to fix when the argument does not fit (a percentage above 100, an unknown vertex name, ...).
   */
  create(argument: ConditionArgumentValue, scope: WalkScope): StopCondition;
}

/** `undefined` for 'none', a number for 'integer', a string for 'name'. */
export type ConditionArgumentValue = number | string | undefined;
