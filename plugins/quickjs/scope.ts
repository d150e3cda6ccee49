import type { QuickJSContext, QuickJSHandle, QuickJSRuntime } from 'quickjs-emscripten';
import type { RandomSource } from '../../core/random.js';
import { fastCaller, publicCaller, type GuestCaller } from './calls.js';
import { actionFactorySource, canWrapAsFunction } from './compile.js';
import { decodeVariables, KIT_SOURCE } from './kit.js';
import type { QuickJsModule, Watchdog } from './runtime.js';

/** What a scope shares with the other scopes of its sandbox. */
export interface ScopeServices {
  readonly module: QuickJsModule;
  readonly runtime: QuickJSRuntime;
  readonly watchdog: Watchdog;
  readonly random: RandomSource;
  readonly fastCalls: boolean;
}

/** A failed evaluation: the guest's text of it (undefined when unreadable) and whether it timed out. */
export interface GuestFailure {
  readonly text: string | undefined;
  readonly timedOut: boolean;
}

/**
 * Distinct action sources compiled per scope. setData scripts are never cached (a client can send
 * any number of them); past this bound, further model sources are simply evaluated each time.
 */
const MAX_CACHED_SOURCES = 4096;

const GLOBAL_SCRIPT = { type: 'global' } as const;

/**
 * One variable scope: a QuickJS context with `Math.random` bound to the walk's random source, the kit
 * (see kit.ts), and the functions compiled in it. Everything it holds is disposed with it.
 */
export class GuestScope {
  private readonly actions = new Map<string, QuickJSHandle | null>();
  /** Compiled guard sets, keyed by their sources; filled and read by guards.ts. */
  readonly guardSets = new Map<string, QuickJSHandle>();
  private readonly owned: QuickJSHandle[] = [];

  private constructor(
    readonly context: QuickJSContext,
    readonly watchdog: Watchdog,
    readonly kit: QuickJSHandle,
    readonly caller: GuestCaller,
  ) {}

  /** Creates the context; throws the guest's text when even that fails (a memory limit below the baseline). */
  static create(services: ScopeServices): GuestScope {
    const context = services.runtime.newContext();
    try {
      bindRandom(context, services.random);
      services.watchdog.disarm();
      const kit = context.unwrapResult(context.evalCode(KIT_SOURCE, 'kit', GLOBAL_SCRIPT));
      return new GuestScope(context, services.watchdog, kit, chooseCaller(services, context));
    } catch (error) {
      context.dispose();
      throw error;
    }
  }

  /** Runs an action; `cacheable` is false for one-off scripts such as setData. */
  run(code: string, cacheable: boolean): GuestFailure | undefined {
    const fn = cacheable ? this.compiledAction(code) : null;
    if (fn === null) return this.evaluate(code);
    this.watchdog.arm();
    const result = this.caller.number(fn);
    return result === 0 ? undefined : this.failure(result);
  }

  /** Evaluates a script the slow way: parsed on every call, with global-script semantics. */
  evaluate(code: string): GuestFailure | undefined {
    this.watchdog.arm();
    const result = this.context.evalCode(code, 'script', GLOBAL_SCRIPT);
    if (result.error) return this.failure(result.error);
    result.value.dispose();
    return undefined;
  }

  /**
   * Whether `code` parses as a script (compiled, not run): false for a syntax error, undefined when the
   * check itself failed (out of memory), so that callers do not remember a transient failure.
   */
  parses(code: string): boolean | undefined {
    this.watchdog.disarm();
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
    this.watchdog.disarm();
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

  /**
   * The failure after a call returned its failure marker (a number) or let an exception escape (a handle,
   * disposed here). The timeout flag is read before anything else runs in the guest.
   */
  failure(result: number | string | QuickJSHandle): GuestFailure {
    const timedOut = this.watchdog.fired;
    if (typeof result === 'object') {
      const text = timedOut ? undefined : this.callKit('describe', result);
      result.dispose();
      return { text, timedOut };
    }
    return { text: this.callKit('take'), timedOut };
  }

  /** The scope's variables in the order they were first assigned, or the failure of reading them. */
  variables(): Array<[string, string]> | GuestFailure {
    const encoded = this.callKit('vars');
    if (encoded === undefined) return { text: undefined, timedOut: this.watchdog.fired };
    return decodeVariables(encoded);
  }

  dispose(): void {
    for (const handle of this.owned) handle.dispose();
    this.owned.length = 0;
    this.actions.clear();
    this.guardSets.clear();
    this.kit.dispose();
    this.context.dispose();
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
  private callKit(name: 'take' | 'describe' | 'vars', argument?: QuickJSHandle): string | undefined {
    const context = this.context;
    this.watchdog.arm();
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

/** Replaces `Math.random` (not a global variable, so never listed by getData) by the walk's random source. */
function bindRandom(context: QuickJSContext, random: RandomSource): void {
  const fn = context.newFunction('random', () => context.newNumber(random.next()));
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
