import type { QuickJSContext, QuickJSHandle, QuickJSRuntime } from 'quickjs-emscripten';
import type { RandomSource } from '../../core/random.js';
import { fastCaller, publicCaller, type GuestCaller } from './calls.js';
import { installRunClock, type RunClock } from './clock.js';
import { actionFactorySource, canWrapAsFunction } from './compile.js';
import type { PromiseJobs } from './jobs.js';
import { decodeVariables, KIT_SOURCE } from './kit.js';
import type { GuestLimits, LimitKind, QuickJsModule } from './runtime.js';

/** What a scope shares with the other scopes of its sandbox. */
export interface ScopeServices {
  readonly module: QuickJsModule;
  readonly runtime: QuickJSRuntime;
  readonly limits: GuestLimits;
  readonly jobs: PromiseJobs;
  readonly random: RandomSource;
  /** The run's clock; undefined when scripts read the host's. */
  readonly clock: Pick<RunClock, 'now'> | undefined;
  readonly fastCalls: boolean;
}

/** A failed evaluation: the guest's text of it (undefined when unreadable) and the limit it passed, if any. */
export interface GuestFailure {
  readonly text: string | undefined;
  readonly limit: LimitKind | undefined;
  /** True when the text is the sandbox's verdict on a guard's value rather than what the script threw. */
  readonly verdict: boolean;
}

/** How a call of model code ended badly: its failure marker (a number or string) or an escaped exception. */
export type FailedCall = number | string | QuickJSHandle;

/**
 * Distinct action sources compiled per scope. setData scripts are never cached (a client can send
 * any number of them); past this bound, further model sources are simply evaluated each time.
 */
const MAX_CACHED_SOURCES = 4096;

const GLOBAL_SCRIPT = { type: 'global' } as const;

/**
 * One variable scope: a QuickJS context with `Math.random` bound to the walk's random source, `Date` bound to
 * the run's clock, the kit (see kit.ts), and the functions compiled in it. Everything it holds is disposed
 * with it.
 */
export class GuestScope {
  private readonly actions = new Map<string, QuickJSHandle | null>();
  /** Compiled guard sets, keyed by their sources; filled and read by guards.ts. */
  readonly guardSets = new Map<string, QuickJSHandle>();
  private readonly owned: QuickJSHandle[] = [];
  readonly limits: GuestLimits;
  private readonly jobs: PromiseJobs;

  private constructor(
    readonly context: QuickJSContext,
    services: ScopeServices,
    readonly kit: QuickJSHandle,
    readonly caller: GuestCaller,
  ) {
    this.limits = services.limits;
    this.jobs = services.jobs;
  }

  /** Creates the context; throws the guest's text when even that fails (out of memory). */
  static create(services: ScopeServices): GuestScope {
    const context = services.runtime.newContext();
    try {
      const { limits, clock } = services;
      limits.disarm();
      bindRandom(context, services.random, limits);
      if (clock !== undefined) installRunClock(context, { now: () => (limits.hostCalled(), clock.now()) });
      const kit = context.unwrapResult(context.evalCode(KIT_SOURCE, 'kit', GLOBAL_SCRIPT));
      return new GuestScope(context, services, kit, chooseCaller(services, context));
    } catch (error) {
      context.dispose();
      throw error;
    }
  }

  /** Runs an action; `cacheable` is false for one-off scripts such as setData. */
  run(code: string, cacheable: boolean): GuestFailure | undefined {
    const fn = cacheable ? this.compiledAction(code) : null;
    if (fn === null) return this.evaluate(code);
    this.limits.arm();
    const result = this.caller.number(fn);
    return this.settle(result === 0 ? undefined : result);
  }

  /** Evaluates a script the slow way: parsed on every call, with global-script semantics. */
  evaluate(code: string): GuestFailure | undefined {
    this.limits.arm();
    const result = this.context.evalCode(code, 'script', GLOBAL_SCRIPT);
    if (result.error) return this.settle(result.error);
    result.value.dispose();
    return this.settle(undefined);
  }

  /**
   * After a call of model code returned (`failed` undefined when it reports success): its promise jobs run
   * under the same limits, then the verdict. A limit passed anywhere in the call or its jobs fails it, even
   * when the script caught the error.
   */
  settle(failed: FailedCall | undefined): GuestFailure | undefined {
    if (this.jobs.pending) this.jobs.run();
    this.limits.finish();
    const limit = this.limits.exceeded;
    if (failed === undefined && limit === undefined) return undefined;
    return this.failure(failed, limit);
  }

  /**
   * Whether `code` parses as a script (compiled, not run): false for a syntax error, undefined when the
   * check itself failed (out of memory), so that callers do not remember a transient failure.
   */
  parses(code: string): boolean | undefined {
    this.limits.disarm();
    const result = this.context.evalCode(code, 'check', { ...GLOBAL_SCRIPT, compileOnly: true });
    if (!result.error) {
      result.value.dispose();
      return true;
    }
    const text = this.callKit('describe', result.error);
    result.error.dispose();
    return text?.startsWith('SyntaxError') ? false : undefined;
  }

  /**
   * Evaluates a factory source (see compile.ts) and calls it with the kit; neither runs model code, so
   * there is no deadline. The function it returns belongs to the scope until the scope is disposed.
   * Returns null when the factory does not compile.
   */
  instantiate(factorySource: string): QuickJSHandle | null {
    this.limits.disarm();
    const factory = this.context.evalCode(factorySource, 'compiled', GLOBAL_SCRIPT);
    if (factory.error) {
      factory.error.dispose();
      return null;
    }
    const made = this.context.callFunction(factory.value, this.context.undefined, this.kit);
    factory.value.dispose();
    if (made.error) {
      made.error.dispose();
      return null;
    }
    this.owned.push(made.value);
    return made.value;
  }

  /** The scope's variables in the order they were first assigned, or the failure of reading them. */
  variables(): Array<[string, string]> | GuestFailure {
    const encoded = this.callKit('vars');
    if (this.jobs.pending) this.jobs.run();
    this.limits.finish();
    const limit = this.limits.exceeded;
    if (encoded !== undefined && limit === undefined) return decodeVariables(encoded);
    return { text: undefined, limit, verdict: false };
  }

  /**
   * A copy of the variables as text, `''` when some value cannot be copied faithfully (a function, a class
   * instance, undefined, NaN), or the failure of reading them.
   */
  save(): string | GuestFailure {
    const text = this.callKit('save');
    this.limits.finish();
    const limit = this.limits.exceeded;
    if (text !== undefined && limit === undefined) return text;
    return { text: undefined, limit, verdict: false };
  }

  /** Replaces the variables by those of a {@link save}d copy; undefined when done, else the failure. */
  load(copy: string): GuestFailure | undefined {
    const argument = this.context.newString(copy);
    try {
      const done = this.callKit('load', argument);
      this.limits.finish();
      const limit = this.limits.exceeded;
      return done !== undefined && limit === undefined ? undefined : { text: undefined, limit, verdict: false };
    } finally {
      argument.dispose();
    }
  }

  dispose(): void {
    for (const handle of this.owned) handle.dispose();
    this.owned.length = 0;
    this.actions.clear();
    this.guardSets.clear();
    this.kit.dispose();
    this.context.dispose();
  }

  /** Reads the text of a failure; the limit is read before the kit runs, since arming for it clears the limits. */
  private failure(failed: FailedCall | undefined, limit: LimitKind | undefined): GuestFailure {
    let taken: string | undefined;
    if (typeof failed === 'object') {
      taken = limit === undefined ? this.callKit('describe', failed) : undefined;
      failed.dispose();
      if (taken !== undefined) taken = `E${taken}`;
    } else if (failed !== undefined) {
      taken = this.callKit('take');
    }
    const text = taken === undefined || taken === '' ? undefined : taken.slice(1);
    return {
      text,
      limit: limit ?? (taken === undefined ? this.limits.exceeded : undefined),
      verdict: text !== undefined && taken?.startsWith('V') === true,
    };
  }

  /** The compiled action, or null when it must be evaluated as a script (see compile.ts). */
  private compiledAction(code: string): QuickJSHandle | null {
    const cached = this.actions.get(code);
    if (cached !== undefined) return cached;
    if (this.actions.size >= MAX_CACHED_SOURCES) return null;
    const parses = canWrapAsFunction(code) ? this.parses(code) : false;
    const fn = parses === true ? this.instantiate(actionFactorySource(code)) : null;
    if (parses === false || fn !== null) this.actions.set(code, fn);
    return fn;
  }

  /** Calls a kit function and returns its string result, or undefined when even that failed. */
  private callKit(name: 'take' | 'describe' | 'vars' | 'save' | 'load', argument?: QuickJSHandle): string | undefined {
    const context = this.context;
    this.limits.arm();
    const fn = context.getProp(this.kit, name);
    const result = argument ? context.callFunction(fn, context.undefined, argument) : context.callFunction(fn, context.undefined);
    fn.dispose();
    if (result.error) {
      result.error.dispose();
      return undefined;
    }
    const text = context.typeof(result.value) === 'string' ? context.getString(result.value) : undefined;
    result.value.dispose();
    return text;
  }
}

/**
 * Replaces `Math.random` (not a global variable, so never listed by getData) by the walk's random source. A
 * call stopped by a limit throws before it draws, so it takes nothing from the walk's source.
 */
function bindRandom(context: QuickJSContext, random: RandomSource, limits: GuestLimits): void {
  const fn = context.newFunction('random', () => {
    limits.hostCalled();
    return context.newNumber(random.next());
  });
  const math = context.getProp(context.global, 'Math');
  context.setProp(math, 'random', fn);
  math.dispose();
  fn.dispose();
}

function chooseCaller(services: ScopeServices, context: QuickJSContext): GuestCaller {
  if (!services.fastCalls) return publicCaller(context);
  const probe = context.unwrapResult(context.evalCode('(function () { return 42; })', 'probe', GLOBAL_SCRIPT));
  try {
    return fastCaller(services.module, context, services.runtime, probe) ?? publicCaller(context);
  } finally {
    probe.dispose();
  }
}
