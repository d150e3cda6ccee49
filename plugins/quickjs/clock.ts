import type { QuickJSContext } from 'quickjs-emscripten';

/** The run's clock starts within the year that begins at this instant (2024-01-01T00:00:00Z). */
export const CLOCK_EPOCH_MS = Date.UTC(2024, 0, 1);
const YEAR_SECONDS = 365 * 24 * 60 * 60;
/** How far the run's clock advances per step. */
export const CLOCK_STEP_MS = 1000;

/**
 * The time scripts read by default (docs/behaviour.md, "Scripts"): it starts at a whole second of 2024 fixed
 * by the seed and advances {@link CLOCK_STEP_MS} per step, standing still within a step. A guard that compares
 * dates therefore opens the same edges when the walk is replayed from its seed, on any day.
 */
export class RunClock {
  readonly startMs: number;

  /** `steps` counts the walk's steps since its load or restart, so the clock starts again with a restart. */
  constructor(
    seed: number,
    private readonly steps: () => number,
  ) {
    this.startMs = CLOCK_EPOCH_MS + (seed % YEAR_SECONDS) * 1000;
  }

  now(): number {
    return this.startMs + this.steps() * CLOCK_STEP_MS;
  }
}

/**
 * Replaces the context's `Date` by one that takes "now" from the host function it is given: `Date.now()`,
 * `new Date()` and `Date()` read the run's clock, every other use behaves as the built-in (same prototype,
 * `Date.UTC`, `Date.parse`, subclasses). The built-in constructor stays out of reach: the prototype's
 * `constructor` points at the replacement.
 */
const DATE_SOURCE = String.raw`(function (RealDate, clock) {
  'use strict';
  var S = String, construct = Reflect.construct, define = Object.defineProperty, slice = Array.prototype.slice, apply = Reflect.apply;
  function Date(year, monthIndex, day, hours, minutes, seconds, ms) {
    if (new.target === undefined) return S(construct(RealDate, [clock()]));
    var args = arguments.length === 0 ? [clock()] : apply(slice, arguments, []);
    return construct(RealDate, args, new.target);
  }
  function hidden(target, key, value) { define(target, key, { value: value, writable: true, enumerable: false, configurable: true }); }
  define(Date, 'prototype', { value: RealDate.prototype, writable: false, enumerable: false, configurable: false });
  hidden(RealDate.prototype, 'constructor', Date);
  hidden(Date, 'now', function now() { return clock(); });
  hidden(Date, 'UTC', RealDate.UTC);
  hidden(Date, 'parse', RealDate.parse);
  hidden(globalThis, 'Date', Date);
})`;

/** Installs the run's clock in a fresh context, before any model script runs. */
export function installRunClock(context: QuickJSContext, clock: Pick<RunClock, 'now'>): void {
  const install = context.unwrapResult(context.evalCode(DATE_SOURCE, 'clock', { type: 'global' }));
  const realDate = context.getProp(context.global, 'Date');
  const now = context.newFunction('now', () => context.newNumber(clock.now()));
  try {
    context.unwrapResult(context.callFunction(install, context.undefined, realDate, now)).dispose();
  } finally {
    now.dispose();
    realDate.dispose();
    install.dispose();
  }
}
