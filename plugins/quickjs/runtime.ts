import type { QuickJSRuntime, QuickJSWASMModule } from 'quickjs-emscripten';
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
export type LimitKind = 'time' | 'budget' | 'memory';

/**
 * The limits of every call into one runtime. QuickJS polls the interrupt handler every few thousand
 * instructions, also inside promise jobs and long built-ins; the handler stops the script when
 *
 * - the memory gate refused to grow the memory (a script that catches its out-of-memory error is stopped
 *   anyway, at its next poll);
 * - the call's deadline passed: it is re-armed before every host→guest call, so the time limit applies to each
 *   guard set, action (with its promise jobs) or getData separately, and never carries over;
 * - the request's budget is spent. The handler charges it with the time between its polls.
 *
 * Arming reads no clock: a clock read costs about 50 ns, a sixth of a compiled action, and most calls end
 * before QuickJS polls even once (it polls every 10,000 function calls and backward jumps of a context). A
 * call's clock starts at its first poll, which sets its deadline. What a call runs before its first poll and
 * after its last (each less than one poll interval, usually microseconds) is neither held to the deadline nor
 * charged to the budget. With a clock read at arming only the stretch after the last poll would escape them,
 * so each limit's slack grows by at most one poll interval per call; a call that never polls escapes time
 * limits either way.
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
    if (!this.armed) return false;
    const now = Date.now();
    if (!this.clocked) {
      this.startClock(now);
      return false;
    }
    const spent = this.budget.charge(now - this.charged);
    this.charged = now;
    if (now > this.deadline) return this.fire('time');
    return spent ? this.fire('budget') : false;
  };

  /**
   * A script read the host's clock at `now` (`Date` served from the host, under realClock in a sandbox that
   * tells of time reads). A script whose loop calls into the host reaches QuickJS's interrupt checks far less
   * often (a host call costs microseconds, the checks come every few thousand calls and jumps), so the
   * stretches before the first check and after the last would escape the limits; the read is a reading of the
   * clock the handler can use: it starts the call's clock, or charges the time since the last reading. The
   * next check stops the script if that passed a limit.
   */
  readClock(now: number): void {
    if (!this.armed) return;
    if (!this.clocked) {
      this.startClock(now);
      return;
    }
    this.budget.charge(now - this.charged);
    this.charged = now;
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
