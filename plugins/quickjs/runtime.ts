import type { QuickJSRuntime, QuickJSWASMModule } from 'quickjs-emscripten';
import type { ScriptLimitKind } from '../../core/errors.js';
import type { ScriptLimits } from '../../core/scripting.js';
import type { RequestBudget } from './budget.js';
import type { FfiSource } from './calls.js';
import type { MemoryGate } from './memory.js';

/**
 * What the engine needs of a QuickJS WebAssembly module: a release module of the engine's pool, or in tests a
 * debug build wrapped for leak checking. Its memory is where the memory limit is enforced.
 */
export type QuickJsModule = Pick<QuickJSWASMModule, 'newRuntime' | 'getWasmMemory'> & FfiSource;

/**
 * QuickJS's own stack limit. QuickJS measures the WebAssembly shadow stack, but its parser and some
 * built-ins use far more of the host's native stack per level than of the shadow stack: with 64 KiB, a
 * script like `eval("[".repeat(1e5))` overflows Node's stack before QuickJS notices, and a host stack
 * overflow in the middle of QuickJS leaves the runtime corrupt. 24 KiB was measured safe for every such
 * script we found, with 4000 host frames below the call, in release and debug builds, baseline and
 * optimised WebAssembly tiers. It still allows about 120 levels of recursion in a script.
 */
export const DEFAULT_MAX_STACK_BYTES = 24 * 1024;

/** The limit that stopped a script. */
export type LimitKind = ScriptLimitKind;

/**
 * Host calls of one call between two readings of the clock by {@link GuestLimits.hostCalled}: a reading costs
 * up to a tenth of a host call (Math.random, about 5 µs), and 16 of them bound what a limit's stop waits for.
 */
export const HOST_CALLS_PER_READING = 16;

/**
 * The limits of every call into one runtime. QuickJS polls the interrupt handler every few thousand
 * instructions, also inside promise jobs and regular expressions; the handler stops the script when
 *
 * - the memory gate refused to grow the memory (a script that catches its out-of-memory error is stopped
 *   anyway, at its next poll);
 * - the call's deadline passed: it is re-armed before every host→guest call, so the time limit applies to each
 *   guard set, action (with its promise jobs) or getData separately, and never carries over;
 * - the request's budget is spent, or the time its host lets it run before it yields. The handler charges
 *   them with the time between its polls.
 *
 * Arming reads no clock: on a busy machine a clock read costs as much as a compiled action, and most calls
 * end before QuickJS polls even once (it polls every
 * 10,000 function calls and backward jumps of a context). A call's clock starts at its first poll, which sets
 * its deadline, and a call that polled reads the clock once more when it returns ({@link finish}), so that
 * its last stretch counts too. What a call runs before its first poll (less than one poll interval of its own
 * work) is neither held to the deadline nor charged to the budget; a call that never polls escapes time
 * limits. A poll interval is short for plain code, but a host call (Math.random, the run's Date) costs
 * microseconds, so host calls read the clock themselves ({@link hostCalled}); a built-in that works through
 * megabytes is one call too, with no poll inside (README.md, "Semantics").
 */
export class GuestLimits {
  /** The limit the handler stopped the current call at, if any. */
  fired: LimitKind | undefined;
  private deadline = Number.POSITIVE_INFINITY;
  private charged = 0;
  private armed = false;
  /** False from arming until the call's first poll read the clock. */
  private clocked = false;
  private stopping = false;
  /** Host calls of the current call since its last reading of the clock by {@link hostCalled}. */
  private hostCalls = 0;

  /** How far the memory may grow while this runtime's code runs. */
  private readonly memoryCeiling: number;

  constructor(
    private readonly limits: ScriptLimits,
    private readonly budget: RequestBudget,
    private readonly gate: MemoryGate,
    baselineBytes: number,
  ) {
    this.memoryCeiling = baselineBytes + limits.memoryBytes;
  }

  /** Before a call that runs model code (a script, its promise jobs, a getter the kit reads); `guards` for guard sets. */
  arm(guards = false): void {
    this.fired = undefined;
    this.armed = true;
    this.clocked = false;
    this.hostCalls = 0;
    this.gate.limitBytes = this.memoryCeiling;
    this.gate.refused = false;
    this.budget.enter(guards);
  }

  /**
   * No deadline and no budget, for walker's own guest code (the kit, compiling): it cannot loop, and in a slow
   * debug build it can take longer than a small time limit. The memory limit still holds.
   */
  disarm(): void {
    this.fired = undefined;
    this.armed = false;
    this.gate.limitBytes = this.memoryCeiling;
  }

  /** The limit the current call passed: one the handler stopped it at, or a refused growth it caught itself. */
  get exceeded(): LimitKind | undefined {
    return this.fired ?? (this.gate.refused ? 'memory' : undefined);
  }

  /** Growths of the memory refused so far, for telling whether code that ran in between passed the limit. */
  get memoryRefusals(): number {
    return this.gate.refusals;
  }

  /** True when the script's memory passed the limit; read after every call, so that catching the error does not hide it. */
  get overMemory(): boolean {
    return this.gate.refused;
  }

  /** From now until {@link resume}, every poll interrupts: for stopping the promise jobs a stopped script left. */
  stop(): void {
    this.stopping = true;
  }

  resume(): void {
    this.stopping = false;
  }

  readonly shouldInterrupt = (): boolean => {
    if (this.stopping) return true;
    if (this.gate.refused) return this.fire('memory');
    return this.armed && this.reading(Date.now());
  };

  /**
   * The script called the host. A loop that calls the host reaches QuickJS's polls seldom (a host call costs
   * microseconds, a poll comes every 10,000 calls and jumps): `a.push(Math.random())` polled only every few tens
   * of milliseconds, so its clock started that late and its stop came as late again.
   * Every {@link HOST_CALLS_PER_READING}th host call of a call reads the clock instead: the script stops within
   * that many host calls of its limit. Once a limit fired, every host call throws; a script that catches the
   * errors stops at the next poll.
   */
  hostCalled(): void {
    if (this.fired !== undefined) throw new Error('interrupted');
    if (!this.armed || ++this.hostCalls < HOST_CALLS_PER_READING) return;
    this.hostCalls = 0;
    this.readClock(Date.now());
  }

  /**
   * A script read the host's clock at `now` (`Date` served from the host, under realClock in a sandbox that
   * tells of time reads): a reading the handler can use, which starts the call's clock or charges the time
   * since the last reading. Past a limit, it throws into the script, which then stops.
   */
  readClock(now: number): void {
    if (this.armed && this.reading(now)) throw new Error('interrupted');
  }

  /**
   * The host between two batches of promise jobs: starts the call's clock if no poll has yet. A chain of short
   * jobs reaches QuickJS's polls seldom (each job is a call of a few instructions), so without it the chain's
   * clock started a whole poll interval late. Only a poll stops the chain: it interrupts the job under way,
   * which then queues no next one, where a stop between two jobs would leave the chain whole.
   */
  checkpoint(): void {
    if (this.armed && !this.clocked) this.startClock(Date.now());
  }

  /**
   * The call returned (its promise jobs included). A call that polled charges the time since its last reading:
   * in a slow build on a busy machine a poll interval is tens of milliseconds, and leaving the last one out of
   * every call let a request of several calls through its budget. A call that never polled reads no clock.
   */
  finish(): void {
    if (this.armed && this.clocked) this.reading(Date.now());
  }

  /** A reading of the clock during a call: starts the call's clock, or charges the time since the last; true past a limit. */
  private reading(now: number): boolean {
    if (!this.clocked) {
      this.startClock(now);
      // The calls before this one may have spent the budget in their last stretch.
      const spent = this.budget.charge(0);
      return spent === undefined ? false : this.fire(spent);
    }
    const spent = this.budget.charge(now - this.charged);
    this.charged = now;
    // A machine that kept the thread from its core between two readings may pass the yield and the time limit
    // at once: the yield wins, and the request runs again where its time limit is whole.
    if (spent === 'yield') return this.fire('yield');
    if (now > this.deadline) return this.fire('time');
    return spent === undefined ? false : this.fire(spent);
  }

  private startClock(now: number): void {
    this.clocked = true;
    this.deadline = now + this.limits.timeoutMs;
    this.charged = now;
  }

  private fire(kind: LimitKind): boolean {
    this.fired ??= kind;
    return true;
  }
}

/**
 * A runtime with the stack limit and the limits' interrupt handler installed. QuickJS's own memory limit is
 * left unset: it cannot count bytes in this build (see memory.ts); the gate does.
 */
export function newLimitedRuntime(module: QuickJsModule, limits: GuestLimits, maxStackBytes: number): QuickJSRuntime {
  const runtime = module.newRuntime();
  runtime.setMaxStackSize(maxStackBytes);
  runtime.setInterruptHandler(limits.shouldInterrupt);
  return runtime;
}
