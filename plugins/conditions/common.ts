import type { ConditionArgumentValue } from '../../core/condition.js';
import { invalidGenerator } from '../../core/errors.js';
import { abbreviate } from '../../core/text.js';
import type { Graph } from '../../core/model/graph.js';
import type { WalkScope } from '../../core/walk-state.js';
import { remembered } from './remembered.js';

/**
 * GraphWalker compares every fulfilment with this threshold rather than with 1, so that a ratio such as
 * 2/3 / (200/3/100) that floating point lands just below 1 still counts as reached.
 */
export const FULFILLED = 0.999999;

/** How many names an "unknown name" message lists before it says how many more there are. */
const MAX_LISTED_NAMES = 10;
/** How many element ids an unreachable message lists. */
export const MAX_LISTED_IDS = 5;


/**
 * The argument of an `integer` condition. The machine has already checked that it is a non-negative
 * integer; the check is repeated because library users may call `create` directly.
 */
export function integerArgument(condition: string, argument: ConditionArgumentValue): number {
  if (typeof argument !== 'number' || !Number.isSafeInteger(argument) || argument < 0) {
    throw invalidGenerator(`${condition} takes a non-negative integer, got ${String(argument)}`);
  }
  return argument;
}

/** The argument of a coverage condition: an integer percentage from 0 to 100. */
export function percentageArgument(condition: string, argument: ConditionArgumentValue, what = 'a percentage'): number {
  if (typeof argument !== 'number' || !Number.isInteger(argument) || argument < 0 || argument > 100) {
    throw invalidGenerator(`${condition} takes ${what} from 0 to 100, got ${String(argument)}`);
  }
  return argument;
}

/** The argument of a `name` condition: a non-empty name. */
export function nameArgument(condition: string, argument: ConditionArgumentValue): string {
  if (typeof argument !== 'string' || argument === '') {
    throw invalidGenerator(`${condition} takes the name of an element, got ${String(argument)}`);
  }
  return argument;
}

/**
 * GraphWalker's fulfilment of "at least `percent` % of `total` done", uncapped (it exceeds 1 once the goal is
 * passed). Nothing to cover, or a goal of 0 %, counts as done: GraphWalker divides by zero there and, for a model
 * without edges, walks forever, which no user wants.
 */
export function coverageFulfilment(done: number, total: number, percent: number): number {
  if (total === 0 || percent === 0) return 1;
  return done / total / (percent / 100);
}

/**
 * The fewest of `total` that {@link coverageFulfilment} counts as `percent` % done: what a coverage goal asks of
 * the walk, for the load-time check that one walk can do it. 0 when nothing is needed.
 */
export function leastForCoverage(total: number, percent: number): number {
  if (total === 0 || percent === 0) return 0;
  let least = Math.max(0, Math.floor((total * percent) / 100) - 1);
  while (coverageFulfilment(least, total, percent) < FULFILLED) least++;
  return least;
}

/** How a model is named in messages: its name, or its id when it has none. */
export function modelLabel(graph: Graph, model: number): string {
  const info = graph.models[model];
  return info.name ?? info.id;
}

/** `a, b, c and 4 more`: the first names of a list, for messages that must stay readable on huge models. */
export function listNames(names: readonly string[]): string {
  if (names.length === 0) return '(none)';
  return abbreviate(names, MAX_LISTED_NAMES);
}

/** `e1, e2, e3, e4, e5 and 2 more`: the ids of the first elements of a list. */
export function listIds(graph: Graph, elements: readonly number[]): string {
  const ids = elements.slice(0, MAX_LISTED_IDS).map((e) => graph.ids[e]);
  return abbreviate(ids, MAX_LISTED_IDS, elements.length);
}


/** The distinct names of some elements, in declaration order (unnamed elements left out). */
export function distinctNames(graph: Graph, elements: readonly number[]): string[] {
  const names = new Set<string>();
  for (const e of elements) {
    const name = graph.names[e];
    if (name) names.add(name);
  }
  return [...names];
}

/**
 * The elements of a list that cannot be reached from the start (guards ignored); worked out once per list and
 * walk, since conditions written alike share their lists.
 */
export function unreachableOf(scope: WalkScope, elements: readonly number[]): readonly number[] {
  return remembered(scope.reachable, elements, () => elements.filter((e) => scope.reachable[e] !== 1));
}
