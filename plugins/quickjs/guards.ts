import type { QuickJSHandle } from 'quickjs-emscripten';
import type { ScriptOrigin } from '../../core/errors.js';
import type { GuardSet } from '../../core/scripting.js';
import {
  expressionProbe,
  guardExpression,
  guardFactorySource,
  GUARDS_PER_BITMASK,
  isBlank,
  type GuardCode,
} from './compile.js';
import { splitGlobal } from './shared-scope.js';
import type { GuestFailure, GuestScope } from './scope.js';

/** What a guard set needs from its sandbox. */
export interface GuardHost {
  /** Bumped by every reset: guard sets compiled before it recompile on their next evaluation. */
  readonly generation: number;
  /** The scope `index` (or the shared scope), created on first use. */
  scopeFor(index: number | 'shared', origin: ScriptOrigin): GuestScope;
  /** Throws the ScriptError for a failure. */
  fail(failure: GuestFailure, origin: ScriptOrigin): never;
  /** Runs a call into the guest, turning a host stack overflow into a ScriptError (see sandbox.ts). */
  guarded<T>(origin: ScriptOrigin, call: () => T): T;
}

/** A run of consecutive guards that live in the same scope: one compiled function, one call. */
interface Segment {
  readonly scope: GuestScope;
  readonly fn: QuickJSHandle;
  /** Where each guard's result goes in the output array. */
  readonly positions: readonly number[];
  readonly origins: readonly ScriptOrigin[];
}

interface Planned {
  readonly shared: boolean;
  readonly code: string;
  readonly position: number;
  readonly origin: ScriptOrigin;
}

/**
 * The guards of one edge set. Usually all of them run in the model's scope and the whole set costs one call;
 * guards that mention `global.` run in the shared scope, so a mixed set is split into runs that keep the
 * order of evaluation (which matters when guards draw from `Math.random`). Blank guards are always open.
 */
export class QuickJsGuardSet implements GuardSet {
  private readonly planned: Planned[] = [];
  private readonly open: number[] = [];
  private segments: Segment[] = [];
  private compiledFor = -1;

  constructor(
    private readonly host: GuardHost,
    private readonly scope: number,
    sources: readonly string[],
    origins: readonly ScriptOrigin[],
  ) {
    sources.forEach((source, position) => {
      const { shared, code } = splitGlobal(source);
      if (isBlank(code)) this.open.push(position);
      else this.planned.push({ shared, code, position, origin: origins[position] });
    });
  }

  evaluate(out: Uint8Array): void {
    if (this.compiledFor !== this.host.generation) this.compile();
    for (const position of this.open) out[position] = 1;
    for (const segment of this.segments) this.evaluateSegment(segment, out);
  }

  private evaluateSegment(segment: Segment, out: Uint8Array): void {
    const { positions } = segment;
    if (positions.length > GUARDS_PER_BITMASK) return this.evaluateLong(segment, out);
    const outcome = this.host.guarded(segment.origins[0], () => callSegment(segment));
    if (typeof outcome !== 'number') this.raise(segment, outcome);
    for (let k = 0; k < positions.length; k++) out[positions[k]] = (outcome >>> k) & 1;
  }

  /** More than 31 guards: the result is a string of '1'/'0', read through the public API (rare). */
  private evaluateLong(segment: Segment, out: Uint8Array): void {
    const { positions } = segment;
    const outcome = this.host.guarded(segment.origins[0], () => callLongSegment(segment));
    if (typeof outcome !== 'string') this.raise(segment, outcome);
    for (let k = 0; k < positions.length; k++) out[positions[k]] = outcome.charCodeAt(k) === 49 ? 1 : 0;
  }

  private raise(segment: Segment, failure: GuestFailure): never {
    const index = this.host.guarded(segment.origins[0], () => failedGuard(segment));
    this.host.fail(failure, segment.origins[index] ?? segment.origins[0]);
  }

  private compile(): void {
    const generation = this.host.generation;
    this.segments = [];
    let start = 0;
    for (let i = 1; i <= this.planned.length; i++) {
      if (i < this.planned.length && this.planned[i].shared === this.planned[start].shared) continue;
      this.segments.push(this.compileSegment(this.planned.slice(start, i)));
      start = i;
    }
    this.compiledFor = generation;
  }

  private compileSegment(run: readonly Planned[]): Segment {
    const origins = run.map((p) => p.origin);
    const scope = this.host.scopeFor(run[0].shared ? 'shared' : this.scope, origins[0]);
    const fn = this.host.guarded(origins[0], () => compiledGuards(scope, run.map((p) => p.code)));
    if (fn === null) {
      this.host.fail({ text: 'The guards could not be compiled', limit: scope.limits.exceeded, verdict: true }, origins[0]);
    }
    return { scope, fn, positions: run.map((p) => p.position), origins };
  }
}

/**
 * The compiled function of a guard list in a scope, shared by every guard set with the same sources.
 * Guards that are not plain expressions (statements, syntax errors, `var`…) are evaluated by eval inside the
 * same function, so their errors surface when they are evaluated, with their own origin. Null when the
 * runtime could not compile even that (out of memory).
 */
function compiledGuards(scope: GuestScope, codes: readonly string[]): QuickJSHandle | null {
  const key = JSON.stringify(codes);
  const cached = scope.guardSets.get(key);
  if (cached !== undefined) return cached;
  const planned = codes.map((code) => guardCode(scope, code));
  const fn =
    scope.instantiate(guardFactorySource(planned.map((p, i) => p ?? { script: codes[i] }))) ??
    scope.instantiate(guardFactorySource(codes.map((code) => ({ script: code }))));
  if (fn !== null && !planned.includes(undefined)) scope.guardSets.set(key, fn);
  return fn;
}

/** How to compile a guard; undefined when that could not be decided (out of memory): eval it this time. */
function guardCode(scope: GuestScope, code: string): GuardCode | undefined {
  const expression = guardExpression(code);
  if (expression === undefined) return { script: code };
  const checks = [scope.parses(code), scope.parses(expressionProbe(expression))];
  if (checks.includes(undefined)) return undefined;
  return checks.every(Boolean) ? { expression } : { script: code };
}

/** Calls the function of a segment of up to 31 guards: their bitmask, or how the call failed. */
function callSegment(segment: Segment): number | GuestFailure {
  const scope = segment.scope;
  scope.limits.arm(true);
  const result = scope.caller.number(segment.fn);
  const failure = scope.settle(typeof result === 'number' && result >= 0 ? undefined : result);
  return failure ?? (result as number);
}

function callLongSegment(segment: Segment): string | GuestFailure {
  const { scope, positions } = segment;
  const context = scope.context;
  scope.limits.arm(true);
  const result = context.callFunction(segment.fn, context.undefined);
  if (result.error) return scope.settle(result.error) as GuestFailure;
  const bits = context.getString(result.value);
  result.value.dispose();
  return scope.settle(bits.length === positions.length ? undefined : bits) ?? bits;
}

/**
 * Which guard of the segment was running when it failed (the compiled function's `w()`); for a failure in
 * the promise jobs after the guards, the last one.
 */
function failedGuard(segment: Segment): number {
  const context = segment.scope.context;
  segment.scope.limits.disarm();
  const where = context.getProp(segment.fn, 'w');
  const result = context.callFunction(where, context.undefined);
  where.dispose();
  if (result.error) {
    result.error.dispose();
    return 0;
  }
  const index = context.getNumber(result.value);
  result.value.dispose();
  return index;
}
