import { expect } from 'vitest';
import { ScriptError, type ScriptOrigin } from '../../../core/errors.js';
import { createRandom, type RandomSource } from '../../../core/random.js';
import {
  DEFAULT_SCRIPT_LIMITS,
  type SandboxReservation,
  type ScriptEngine,
  type ScriptLimits,
  type ScriptSandbox,
} from '../../../core/scripting.js';

/** Where a test script comes from; element ids make origins easy to tell apart in assertions. */
export function origin(elementId = 'e0', field: ScriptOrigin['field'] = 'actions', modelId = 'm0'): ScriptOrigin {
  return { modelId, elementId, field };
}

/** Guard origins g0, g1, … for a list of guard sources. */
export function guardOrigins(count: number, modelId = 'm0'): ScriptOrigin[] {
  return Array.from({ length: count }, (_, i) => origin(`g${i}`, 'guard', modelId));
}

export interface SandboxSpec {
  readonly scopes?: number;
  readonly seed?: number;
  readonly random?: RandomSource;
  readonly limits?: Partial<ScriptLimits>;
  readonly reservation?: SandboxReservation;
}

/**
 * Makes sandboxes of one engine and remembers them, so that each test's sandboxes are disposed after it
 * even when an assertion failed half-way.
 */
export class SandboxPool {
  private readonly live: ScriptSandbox[] = [];
  private readonly reservations: SandboxReservation[] = [];
  engine: ScriptEngine | undefined;

  open(spec: SandboxSpec = {}): ScriptSandbox {
    const sandbox = this.created.createSandbox({
      scopes: spec.scopes ?? 2,
      random: spec.random ?? createRandom(spec.seed ?? 42),
      limits: { ...DEFAULT_SCRIPT_LIMITS, ...spec.limits },
      reservation: spec.reservation,
    });
    this.live.push(sandbox);
    return sandbox;
  }

  /** A reservation of the engine, when it makes them; given back after the test whether used or not. */
  async reserve(): Promise<SandboxReservation | undefined> {
    const reservation = await this.created.reserve?.();
    if (reservation !== undefined) this.reservations.push(reservation);
    return reservation;
  }

  disposeAll(): void {
    for (const sandbox of this.live.splice(0)) sandbox.dispose();
    for (const reservation of this.reservations.splice(0)) reservation.release();
  }

  private get created(): ScriptEngine {
    if (!this.engine) throw new Error('engine not created yet');
    return this.engine;
  }
}

/** Prepares and evaluates a guard set once; returns 1/0 per guard. */
export function evaluateGuards(sandbox: ScriptSandbox, scope: number, sources: readonly string[]): number[] {
  const set = sandbox.prepareGuards(scope, sources, guardOrigins(sources.length));
  const out = new Uint8Array(sources.length);
  set.evaluate(out);
  return [...out];
}

/** True when the single guard `source` is open in `scope`. */
export function holds(sandbox: ScriptSandbox, scope: number, source: string): boolean {
  return evaluateGuards(sandbox, scope, [source])[0] === 1;
}

/** The ScriptError `action` throws; fails the test when it throws nothing or something else. */
export function scriptErrorOf(action: () => unknown): ScriptError {
  try {
    action();
  } catch (error) {
    expect(error).toBeInstanceOf(ScriptError);
    return error as ScriptError;
  }
  throw new Error('expected a ScriptError, but nothing was thrown');
}

/** The sandbox still runs actions and guards after a failure. */
export function expectUsable(sandbox: ScriptSandbox): void {
  sandbox.run(0, 'afterFailure = 41; afterFailure++;', origin());
  expect(evaluateGuards(sandbox, 0, ['afterFailure === 42', 'afterFailure === 0'])).toEqual([1, 0]);
}

/** The variables of `scope` as an object, for assertions that do not care about order. */
export function variableMap(sandbox: ScriptSandbox, scope: number): Record<string, string> {
  return Object.fromEntries(sandbox.variables(scope));
}
