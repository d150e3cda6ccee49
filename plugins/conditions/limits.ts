import type { StopCondition, StopConditionFactory } from '../../core/condition.js';
import { integerArgument } from './common.js';

/** A fraction done, capped at 1; a goal of 0 is done from the start. */
function ratio(done: number, goal: number): number {
  return goal === 0 ? 1 : Math.min(1, done / goal);
}

/**
 * `length(n)`: at least n steps taken since load or restart, counted over all models as GraphWalker does
 * (a walk that jumps through shared states spends one budget).
 */
export const length: StopConditionFactory = {
  name: 'length',
  argument: 'integer',
  endsOnVertex: true,
  create(argument): StopCondition {
    const steps = integerArgument('length', argument);
    return {
      isFulfilled: (walk) => walk.steps >= steps,
      fulfilment: (walk) => ratio(walk.steps, steps),
    };
  },
};

/**
 * `time_duration(s)`: at least s seconds since load or restart. The clock is the walk's, not the
 * condition's (GraphWalker's starts when the condition is built and keeps running over a restart).
 */
export const timeDuration: StopConditionFactory = {
  name: 'time_duration',
  aliases: ['timeduration'],
  argument: 'integer',
  endsOnVertex: true,
  create(argument): StopCondition {
    const ms = integerArgument('time_duration', argument) * 1000;
    return {
      isFulfilled: (walk) => walk.elapsedMs() >= ms,
      fulfilment: (walk) => ratio(walk.elapsedMs(), ms),
    };
  },
};

const NEVER: StopCondition = Object.freeze({
  isFulfilled: () => false,
  fulfilment: () => 0,
});

/**
 * `never`: never fulfilled, for walks that a client ends itself. It has no `unreachable`: walking forever is
 * what the user asked for, not a mistake to report at load.
 */
export const never: StopConditionFactory = {
  name: 'never',
  argument: 'none',
  endsOnVertex: false,
  create: () => NEVER,
};
