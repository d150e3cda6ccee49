import { WalkerError } from './errors.js';
import { deadEndIssues } from './machine/dead-ends.js';
import type { Machine } from './machine/machine.js';
import { planningIssues } from './machine/planning-issues.js';
import { isError, type ModelIssue } from './model/issues.js';
import type { LoadedModelFile } from './model/load.js';
import { scriptSyntaxIssues } from './model/script-syntax.js';
import { scriptEngineOf } from './plugin.js';
import type { Walker } from './walker.js';

/** How a walk is opened, as {@link Walker.walk} takes it. */
export type WalkOpenOptions = NonNullable<Parameters<Walker['walk']>[1]>;

/** What {@link inspectWalk} does beside opening the walk. */
export interface WalkInspectionSteps {
  /**
   * Look first for what can be known without a walk (`walker check`, draft validation): the dead ends a random
   * generator walks into, and every guard and action that does not parse. An error among them keeps the walk
   * closed. Default false: a load leaves the scripts to the opening, which refuses the first that fails.
   */
  readonly lint?: boolean;
  /** Open the walk (default true); false when the caller found an error of its own and only looks. */
  readonly open?: boolean;
  /**
   * Explore the walk's states for the edges no state lets through even when opening it did not need to
   * (`walker check`); default false, which reports only what the opening explored (a load, draft validation).
   */
  readonly explore?: boolean;
  /** Hand the open walk back (a load keeps it); default false, which disposes of it once inspected. */
  readonly keep?: boolean;
}

/** What {@link inspectWalk} found. */
export interface WalkInspection {
  /** What the lint found, then what planning with guards found at the start of the walk (docs/planning.md). */
  readonly issues: ModelIssue[];
  /** The error that refused the walk: its model and element are on it as data (`modelId`, `elementId`). */
  readonly refusal?: WalkerError;
  /** The walk, when it opened and {@link WalkInspectionSteps.keep} asked for it: the caller disposes of it. */
  readonly walk?: Machine;
}

/**
 * Opens a walk on a loaded model file and inspects it: the one way `walker check`, draft validation and a
 * session's load judge a model file beyond its own checks, so that what validates also loads and `check`
 * says what the load will. A refusal is a deliberate {@link WalkerError}; anything else thrown is a fault and
 * goes on up, with the walk disposed of.
 */
export function inspectWalk(walker: Walker, loaded: LoadedModelFile, options: WalkOpenOptions, steps: WalkInspectionSteps = {}): WalkInspection {
  const issues: ModelIssue[] = [];
  if (steps.lint === true) {
    const generators = loaded.graph.models.map((m, i) => options.generators?.[i] ?? options.generator ?? m.generator);
    issues.push(...deadEndIssues(loaded.graph, generators, walker.registries));
    issues.push(...scriptSyntaxIssues(loaded.graph, scriptEngineOf(walker.registries, options.scriptEngine)));
  }
  if (steps.open === false || issues.some(isError)) return { issues };
  let walk: Machine;
  try {
    walk = walker.walk(loaded, options);
  } catch (error) {
    if (error instanceof WalkerError) return { issues, refusal: error };
    throw error;
  }
  try {
    issues.push(...planningIssues(walk, steps.explore === true));
  } catch (error) {
    walk.dispose();
    if (error instanceof WalkerError) return { issues, refusal: error };
    throw error;
  }
  if (steps.keep === true) return { issues, walk };
  walk.dispose();
  return { issues };
}
