import type { QuickJSRuntime } from 'quickjs-emscripten';
import { ScriptError, type ScriptOrigin } from '../../core/errors.js';
import {
  SNAPSHOT_SEPARATOR,
  type GuardSet,
  type SandboxOptions,
  type SandboxReservation,
  type ScriptSandbox,
} from '../../core/scripting.js';
import type { RandomSource } from '../../core/random.js';
import { RequestBudget } from './budget.js';
import { RunClock } from './clock.js';
import { isBlank } from './compile.js';
import { mentionsGlobal, withoutGlobal } from './shared-scope.js';
import { QuickJsGuardSet, type GuardHost } from './guards.js';
import { LostJobsError, PromiseJobs } from './jobs.js';
import type { ModuleLease } from './lease.js';
import { FailureMessages, cut } from './messages.js';
import type { ModuleSource } from './modules.js';
import { GuestLimits, newLimitedRuntime } from './runtime.js';
import { GuestScope, type GuestFailure } from './scope.js';

/** How the engine builds sandboxes. */
export interface SandboxSettings {
  readonly modules: ModuleSource;
  readonly maxStackBytes: number;
  readonly fastCalls: boolean;
}

/**
 * The variables of one walk in one QuickJS runtime, in a module (a WebAssembly memory) of its own when it was
 * reserved or the engine has one ready, or in the module of the sandbox it was opened beside: a context per
 * model scope and one for `global.`, each created on first use (a context costs time and memory, and most
 * walks touch few models).
 */
export class QuickJsSandbox implements ScriptSandbox, GuardHost {
  generation = 0;
  private lease!: ModuleLease;
  private runtime!: QuickJSRuntime;
  private limits!: GuestLimits;
  private jobs!: PromiseJobs;
  private scopes: Array<GuestScope | undefined> = [];
  private shared: GuestScope | undefined;
  /** Why the runtime was abandoned, when it was: it is never touched again, and every call fails until reset(). */
  private poisoned: string | undefined;
  private disposed = false;
  private readonly messages: FailureMessages;
  private readonly budget: RequestBudget;
  private readonly clock: Pick<RunClock, 'now'> | undefined;
  /** What scripts read as `Math.random`: the walk's source, told to {@link SandboxOptions.onUnpredictable} when given. */
  private readonly random: RandomSource;
  /** Steps counted by {@link stepped}, for hosts that give no `stepCount`. */
  private ownSteps = 0;

  constructor(
    private readonly options: SandboxOptions,
    private readonly settings: SandboxSettings,
  ) {
    const steps = options.stepCount ?? (() => this.ownSteps);
    this.budget = new RequestBudget(options.limits.budgetMs, steps, options.yieldAfterMs);
    this.messages = new FailureMessages(options.limits, () => this.budget.yieldMs);
    const told = options.onUnpredictable;
    if (told === undefined) {
      this.random = options.random;
      this.clock = options.limits.realClock ? undefined : new RunClock(options.random.seed, steps);
    } else {
      // Every read of chance or time is told; under realClock time is the host's, read through the installed
      // clock rather than the built-in Date, so that no read goes untold.
      const random = options.random;
      const host = (): number => {
        const now = Date.now();
        this.limits.readClock(now);
        return now;
      };
      const clock: Pick<RunClock, 'now'> = options.limits.realClock ? { now: host } : new RunClock(random.seed, steps);
      this.random = { seed: random.seed, next: () => (told(), random.next()), int: (b) => (told(), random.int(b)) };
      this.clock = { now: () => (told(), clock.now()) };
    }
    this.start(this.firstLease(options));
  }

  /**
   * Runs on every step, so the way in allocates nothing (no split object, no closure: {@link guarded} is
   * written out) and takes an existing scope directly; measured, that is a tenth of scripted throughput.
   */
  run(scope: number, source: string, origin: ScriptOrigin): void {
    const shared = mentionsGlobal(source);
    const code = shared ? withoutGlobal(source) : source;
    if (isBlank(code)) return;
    const target = (shared ? this.shared : this.scopes[scope]) ?? this.scopeFor(shared ? 'shared' : scope, origin);
    this.checkUsable(origin);
    let failure: GuestFailure | undefined;
    try {
      failure = target.run(code, origin.field !== 'setData');
    } catch (error) {
      this.abandon(error, origin);
    }
    if (failure !== undefined) this.fail(failure, origin);
  }

  prepareGuards(scope: number, sources: readonly string[], origins: readonly ScriptOrigin[]): GuardSet {
    this.assertAlive();
    this.checkScope(scope);
    return new QuickJsGuardSet(this, scope, sources, origins);
  }

  /**
   * Scopes never used have no variables and are not created for asking. A failure while reading (a getter
   * or `toJSON` that exceeds the time limit) is a ScriptError naming `origin`; without one, the scope's number.
   */
  variables(scope: number, origin: ScriptOrigin = { modelId: `#${scope}`, field: 'getData' }): Array<[name: string, value: string]> {
    this.assertAlive();
    this.checkScope(scope);
    const own = this.read(this.scopes[scope], origin);
    const shared = this.read(this.shared, origin).map(([name, value]): [string, string] => [`global.${name}`, value]);
    return [...own, ...shared];
  }

  /**
   * The variables of every scope as one text, in the format of core/scripting.ts (each scope's copy made by
   * the kit). Undefined when some value cannot be copied faithfully.
   */
  snapshot(): string | undefined {
    this.assertAlive();
    const origin: ScriptOrigin = { modelId: 'planning', field: 'setData' };
    const parts: string[] = [];
    for (const scope of [...this.scopes, this.shared]) {
      const copy = scope === undefined ? '[]' : this.guarded(origin, () => scope.save());
      if (typeof copy !== 'string') this.fail(copy, origin);
      if (copy === '') return undefined;
      parts.push(copy === '[]' ? '' : copy);
    }
    return parts.join(SNAPSHOT_SEPARATOR);
  }

  /** Sets every scope's variables back to a {@link snapshot} of this engine's. */
  restore(state: string): void {
    this.assertAlive();
    const origin: ScriptOrigin = { modelId: 'planning', field: 'setData' };
    const parts = state.split(SNAPSHOT_SEPARATOR);
    if (parts.length !== this.options.scopes + 1) {
      throw new RangeError(`A snapshot of ${parts.length - 1} scopes cannot be restored into ${this.options.scopes}`);
    }
    parts.forEach((copy, i) => {
      const index = i < this.options.scopes ? i : 'shared';
      const existing = index === 'shared' ? this.shared : this.scopes[index];
      if (copy === '' && existing === undefined) return;
      const scope = existing ?? this.scopeFor(index, origin);
      const failure = this.guarded(origin, () => scope.load(copy === '' ? '[]' : copy));
      if (failure !== undefined) this.fail(failure, origin);
    });
  }

  stepped(): void {
    this.ownSteps++;
  }

  /**
   * A fresh runtime: every variable, compiled function and limit state of the old one is gone. A module
   * whose memory grew (or in which a runtime had to be abandoned) is exchanged for a fresh one, from
   * `reservation` when given, so that a restart gives the memory back too; but while another sandbox of the
   * walk (one opened beside) holds the module, the walk keeps its one memory.
   */
  reset(reservation?: SandboxReservation): void {
    this.assertAlive();
    this.stop();
    this.generation++;
    this.ownSteps = 0;
    this.budget.rewind();
    const lease = this.lease;
    const sound = this.poisoned === undefined && !lease.abandoned;
    const keep = sound && (lease.shared || (lease.own && lease.gate.pristine));
    if (!keep) lease.release(this.poisoned === undefined);
    this.start(keep ? lease : this.settings.modules.lease(reservation));
  }

  /** Also makes guard sets recompile, so that one used after dispose fails cleanly instead of calling freed code. */
  dispose(): void {
    if (this.disposed) return;
    this.stop();
    this.lease.release(this.poisoned === undefined);
    this.generation++;
    this.disposed = true;
  }

  scopeFor(index: number | 'shared', origin: ScriptOrigin): GuestScope {
    this.assertAlive();
    if (index !== 'shared') this.checkScope(index);
    const existing = index === 'shared' ? this.shared : this.scopes[index];
    if (existing !== undefined) return existing;
    const created = this.guarded(origin, () => this.createScope(origin));
    if (index === 'shared') this.shared = created;
    else this.scopes[index] = created;
    return created;
  }

  fail(failure: GuestFailure, origin: ScriptOrigin): never {
    throw this.messages.error(failure.text, failure.limit, origin, failure.verdict);
  }

  /**
   * Every call into QuickJS goes through here. A JavaScript exception from the host itself leaves QuickJS in
   * the middle of a C function — in practice V8's stack overflow, when a script nests deeper than the stack
   * limit could catch — and promise jobs that would not stop leave it unable to finish: in both cases the
   * runtime is abandoned, not disposed (disposing it would abort the whole WebAssembly module), and the sandbox
   * answers with a ScriptError until reset() builds a new one.
   */
  guarded<T>(origin: ScriptOrigin, call: () => T): T {
    this.checkUsable(origin);
    try {
      return call();
    } catch (error) {
      this.abandon(error, origin);
    }
  }

  private checkUsable(origin: ScriptOrigin): void {
    if (this.poisoned !== undefined) {
      throw new ScriptError(`The script sandbox was discarded after ${this.poisoned}; restart the walk`, origin);
    }
  }

  /** What {@link guarded} does with an exception from a call into QuickJS. */
  private abandon(error: unknown, origin: ScriptOrigin): never {
    if (error instanceof ScriptError) throw error;
    if (error instanceof LostJobsError) {
      this.poisoned = error.why;
      throw this.messages.error(undefined, error.limit, origin);
    }
    this.poisoned = 'a host stack overflow';
    if (error instanceof RangeError) throw new ScriptError('Script exceeded the stack limit of the host', origin);
    throw error;
  }

  private createScope(origin: ScriptOrigin): GuestScope {
    const { runtime, limits, jobs, clock, random } = this;
    const services = { module: this.lease.module, runtime, limits, jobs, random, clock, fastCalls: this.settings.fastCalls };
    try {
      return GuestScope.create(services);
    } catch (error) {
      if (error instanceof RangeError) throw error;
      if (limits.exceeded === 'memory') throw this.messages.error(undefined, 'memory', origin);
      const text = error instanceof Error ? error.message : String(error);
      throw new ScriptError(`The script scope could not be created: ${cut(text) || 'unknown error'}`, origin);
    }
  }

  private read(scope: GuestScope | undefined, origin: ScriptOrigin): Array<[string, string]> {
    if (scope === undefined) return [];
    const result = this.guarded(origin, () => scope.variables());
    if (!Array.isArray(result)) this.fail(result, origin);
    return result;
  }

  /**
   * The module of a new sandbox: a share of the module of the sandbox it is opened beside, when that one is
   * of this engine and its runtime sound; else one from the engine, the reserved one when reserved.
   */
  private firstLease(options: SandboxOptions): ModuleLease {
    const beside = options.beside;
    if (beside instanceof QuickJsSandbox && beside.settings === this.settings && beside.poisoned === undefined) {
      beside.assertAlive();
      return beside.lease.share();
    }
    return this.settings.modules.lease(options.reservation);
  }

  private start(lease: ModuleLease): void {
    const limits = this.options.limits;
    this.lease = lease;
    this.limits = new GuestLimits(limits, this.budget, lease.gate, lease.baselineBytes);
    this.runtime = newLimitedRuntime(lease.module, this.limits, this.settings.maxStackBytes);
    this.jobs = new PromiseJobs(this.runtime, this.limits, limits.timeoutMs);
    this.scopes = new Array<GuestScope | undefined>(this.options.scopes).fill(undefined);
    this.shared = undefined;
    this.poisoned = undefined;
  }

  private stop(): void {
    if (this.poisoned === undefined) {
      for (const scope of [...this.scopes, this.shared]) scope?.dispose();
      this.runtime.dispose();
    }
    this.scopes = [];
    this.shared = undefined;
  }

  private checkScope(scope: number): void {
    if (!Number.isInteger(scope) || scope < 0 || scope >= this.options.scopes) {
      throw new RangeError(`Script scope ${scope} does not exist; this sandbox has ${this.options.scopes} scopes`);
    }
  }

  private assertAlive(): void {
    if (this.disposed) throw new Error('The script sandbox was disposed');
  }
}
