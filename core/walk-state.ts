import type { Graph } from './model/graph.js';
import type { RandomSource } from './random.js';

/**
 * Requirement results of one model. Like GraphWalker, a requirement counts once per element that carries it:
 * one key on two elements counts twice.
 */
export interface RequirementCounts {
  readonly total: number;
  readonly passed: number;
  readonly failed: number;
}

/**
 * What path generators and stop conditions may read of a walk in progress. Every method is O(1) (or, for
 * {@link openEdges}, proportional to the vertex's out-degree) so that it can be called on every step.
 */
export interface WalkState {
  readonly graph: Graph;
  /** The element the walk stands on; -1 before the first step. */
  readonly current: number;
  /** The model the walk is in (the model of the start element before the first step). */
  readonly currentModel: number;
  /** Steps taken since load or restart, over all models. */
  readonly steps: number;
  /** The walk's random source: the only randomness a generator may use. */
  readonly random: RandomSource;
  /** How often the element has been stepped on. */
  visits(element: number): number;
  /** Distinct vertices of the model visited at least once. */
  visitedVertices(model: number): number;
  /** Distinct edges of the model visited at least once. */
  visitedEdges(model: number): number;
  /** Requirement results of the model. */
  requirements(model: number): RequirementCounts;
  /** Milliseconds since load or restart. */
  elapsedMs(): number;
  /**
   * The out-edges of `vertex` that are available now (no guard, or a guard that evaluates to `true` with the
   * variables as they are), in declaration order. The array is reused by the machine: copy it to keep it, and
   * never change it (at a vertex without guards it is frozen).
   */
  openEdges(vertex: number): readonly number[];
}

/** What a condition or generator gets when it is created, at load and at every restart. */
export interface WalkScope {
  readonly graph: Graph;
  /** The model whose generator string this comes from. */
  readonly model: number;
  /**
   * Per element, 1 when it can be reached from the walk's start element through edges and shared states
   * (guards ignored), else 0.
   */
  readonly reachable: Uint8Array;
}
