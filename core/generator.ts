import type { ConditionExpr } from './language/ast.js';
import type { JoinedGraph } from './model/joined-graph.js';
import type { RandomSource } from './random.js';
import type { StopCondition } from './condition.js';
import type { WalkScope, WalkState } from './walk-state.js';
import type { StatePlanning } from './planning/walk-planning.js';

/** Known path-generator names; plugin packages add theirs by declaration merging. */
export interface PathGeneratorNames {
  random: true;
  weighted_random: true;
  quick_random: true;
  a_star: true;
  shortest_all_paths: true;
  predefined_path: true;
}
export type PathGeneratorName = keyof PathGeneratorNames & string;

/**
 * Chooses where a walk goes. The machine asks only at vertices: from an edge the walk always goes on to the
 * edge's target; at a vertex with a shared state the machine lists the jump candidates and lets the generator
 * choose ({@link chooseJump}) before asking for an edge. A fresh instance is made at load and at every
 * restart, so a generator may keep state (a planned tour, an index) in fields.
 */
export interface PathGenerator {
  /**
   * The out-edge to take from `vertex`, where the walk stands: one of `walk.openEdges(vertex)`, or -1 when
   * there is no way on (the machine then reports a dead end). Must not loop without bound.
   */
  nextEdge(walk: WalkState, vertex: number): number;
  /**
   * Optional. At a vertex with a shared state, chooses between staying (`vertex` itself, when it is among the
   * candidates) and jumping to one of the `candidates`: vertices of other models with the same shared state.
   * It must return one of the candidates. Generators that plan across models (towards unvisited elements of
   * another model) implement it; without it the machine picks at random, as GraphWalker does.
   */
  chooseJump?(walk: WalkState, vertex: number, candidates: readonly number[]): number;
}

/**
 * What the generators of one walk share with each other, such as one plan that crosses from model to model
 * through shared states and must go on in the next model's generator. The machine makes a fresh one at load
 * and at every restart and hands that one to every generator it makes then, so nothing kept in it outlives the
 * run it was made for or reaches another walk.
 */
export interface WalkMemo {
  /**
   * The value kept under `key`, made by `make` when there is none yet. Use a key only your plugin holds (a
   * `Symbol` of your own, or your factory object), so that two plugins never read each other's values.
   */
  get<T>(key: object | symbol, make: () => T): T;
}

export interface GeneratorInit extends WalkScope {
  /** The generator's stop condition (for generators that steer by it, such as a_star). */
  readonly condition: StopCondition;
  /** The condition as written, for generators that only work with particular conditions. */
  readonly conditionExpr: ConditionExpr;
  readonly random: RandomSource;
  /** The shared-state jumps of the graph, indexed once per walk (for generators that plan across models). */
  readonly joined: JoinedGraph;
  /** Shared by every generator of this walk, made afresh at load and at every restart. */
  readonly memo: WalkMemo;
  /** The states the walk's guards and actions allow, for generators that plan with them (docs/planning.md). */
  readonly planning: StatePlanning;
}

/** Registered under its name and aliases (all matched case-insensitively). */
export interface PathGeneratorFactory {
  readonly name: PathGeneratorName;
  readonly aliases?: readonly string[];
  /**
   * Makes the generator for one model. Throws a `WalkerError` (code GENERATOR_INVALID) when it cannot work
   * with the given condition or model (e.g. a_star without a target), saying what to write instead.
   */
  create(init: GeneratorInit): PathGenerator;
}
