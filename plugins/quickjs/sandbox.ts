import type { QuickJSRuntime } from 'quickjs-emscripten';
import { ScriptError, type ScriptOrigin } from '../../core/errors.js';
import type { GuardSet, SandboxOptions, ScriptSandbox } from '../../core/scripting.js';
import { isBlank, splitGlobal } from './compile.js';
import { QuickJsGuardSet, type GuardHost } from './guards.js';
import { FailureMessages, cut } from './messages.js';
import { newLimitedRuntime, type QuickJsModule, type Watchdog } from './runtime.js';
import { GuestScope, type GuestFailure } from './scope.js';

/** How the engine builds sandboxes. */
export interface SandboxSettings {
  readonly module: QuickJsModule;
  readonly maxStackBytes: number;
  readonly fastCalls: boolean;
}

/**
 * The variables of one walk in one QuickJS runtime: a context per model scope and one for `global.`, each
 * created on first use (a context costs about 0.3 ms and 35 KiB, and most walks touch few models).
 */
export class QuickJsSandbox implements ScriptSandbox, GuardHost {
  generation = 0;
  private runtime!: QuickJSRuntime;
  private watchdog!: Watchdog;
  private scopes: Array<GuestScope | undefined> = [];
  private shared: GuestScope | undefined;
  /** Set when the host's stack overflowed inside QuickJS: the runtime is then corrupt and never touched again. */
  private poisoned = false;
  private disposed = false;
  private readonly messages: FailureMessages;

  constructor(
    private readonly options: SandboxOptions,
    private readonly settings: SandboxSettings,
  ) {
    this.messages = new FailureMessages(options.limits);
    this.start();
  }

  run(scope: number, source: string, origin: ScriptOrigin): void {
    const { shared, code } = splitGlobal(source);
    if (isBlank(code)) return;
    const target = this.scopeFor(shared ? 'shared' : scope, origin);
    const failure = this.guarded(origin, () => target.run(code, origin.field !== 'setData'));
    if (failure !== undefined) this.fail(failure, origin);
  }

  prepareGuards(scope: number, sources: readonly string[], origins: readonly ScriptOrigin[]): GuardSet {
    this.assertAlive();
    this.checkScope(scope);
    return new QuickJsGuardSet(this, scope, sources, origins);
  }

  /**
   * Scopes never used have no variables and are not created for asking. A failure while reading (a getter
   * or `toJSON` that exceeds the time limit) is a ScriptError whose origin names the scope, since the
   * contract gives this method no origin.
   */
  variables(scope: number): Array<[name: string, value: string]> {
    this.assertAlive();
    this.checkScope(scope);
    const origin: ScriptOrigin = { modelId: `#${scope}`, field: 'setData' };
    const own = this.read(this.scopes[scope], origin);
    const shared = this.read(this.shared, origin).map(([name, value]): [string, string] => [`global.${name}`, value]);
    return [...own, ...shared];
  }

  /** A fresh runtime: every variable, compiled function and limit state of the old one is gone. */
  reset(): void {
    this.assertAlive();
    this.stop();
    this.generation++;
    this.start();
  }

  /** Also makes guard sets recompile, so that one used after dispose fails cleanly instead of calling freed code. */
  dispose(): void {
    if (this.disposed) return;
    this.stop();
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
    throw this.messages.error(failure.text, failure.timedOut, origin);
  }

  /**
   * Every call into QuickJS goes through here. A JavaScript exception from the host itself (in practice
   * V8's stack overflow, when a script nests deeper than the stack limit could catch) leaves QuickJS in
   * the middle of a C function: the runtime is abandoned, not disposed (disposing it would abort the
   * whole WebAssembly module), and the sandbox answers with a ScriptError until reset() builds a new one.
   */
  guarded<T>(origin: ScriptOrigin, call: () => T): T {
    if (this.poisoned) throw new ScriptError('The script sandbox was discarded after a host stack overflow; restart the walk', origin);
    try {
      return call();
    } catch (error) {
      if (error instanceof ScriptError) throw error;
      this.poisoned = true;
      if (error instanceof RangeError) throw new ScriptError('Script exceeded the stack limit of the host', origin);
      throw error;
    }
  }

  private createScope(origin: ScriptOrigin): GuestScope {
    const { module, fastCalls } = this.settings;
    try {
      return GuestScope.create({ module, runtime: this.runtime, watchdog: this.watchdog, random: this.options.random, fastCalls });
    } catch (error) {
      if (error instanceof RangeError) throw error;
      const text = error instanceof Error ? error.message : String(error);
      if (text.includes('out of memory')) throw new ScriptError(this.messages.memoryLimit(), origin);
      throw new ScriptError(`The script scope could not be created: ${cut(text) || 'unknown error'}`, origin);
    }
  }

  private read(scope: GuestScope | undefined, origin: ScriptOrigin): Array<[string, string]> {
    if (scope === undefined) return [];
    const result = this.guarded(origin, () => scope.variables());
    if (!Array.isArray(result)) this.fail(result, origin);
    return result;
  }

  private start(): void {
    const { runtime, watchdog } = newLimitedRuntime(this.settings.module, this.options.limits, this.settings.maxStackBytes);
    this.runtime = runtime;
    this.watchdog = watchdog;
    this.scopes = new Array<GuestScope | undefined>(this.options.scopes).fill(undefined);
    this.shared = undefined;
    this.poisoned = false;
  }

  private stop(): void {
    if (!this.poisoned) {
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
