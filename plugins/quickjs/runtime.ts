import type { QuickJSRuntime, QuickJSWASMModule } from 'quickjs-emscripten';
import type { ScriptLimits } from '../../core/scripting.js';
import type { FfiSource } from './calls.js';

/**
 * What the engine needs of a QuickJS WebAssembly module: a release module from `getQuickJS()`, or in tests
 * a debug build wrapped for leak checking.
 */
export type QuickJsModule = Pick<QuickJSWASMModule, 'newRuntime'> & FfiSource;

/**
 * QuickJS's own stack limit. QuickJS measures the WebAssembly shadow stack, but its parser and some
 * built-ins use far more of the host's native stack per level than of the shadow stack: with 64 KiB, a
 * script like `eval("[".repeat(1e5))` overflows Node's stack before QuickJS notices, and a host stack
 * overflow in the middle of QuickJS leaves the runtime corrupt. 24 KiB was measured safe for every such
 * script we found, with 4000 host frames below the call, in release and debug builds, baseline and
 * optimised WebAssembly tiers. It still allows about 120 levels of recursion in a script.
 */
export const DEFAULT_MAX_STACK_BYTES = 24 * 1024;

/**
 * The per-evaluation time limit. QuickJS polls the interrupt handler every few thousand instructions; the
 * deadline is re-armed before every host→guest call, so the limit applies to each guard set, action or
 * getData separately and a timeout never carries over to the next evaluation.
 */
export class Watchdog {
  private deadline = Number.POSITIVE_INFINITY;
  /** True when the handler interrupted the guest since the last {@link arm}. */
  fired = false;

  constructor(private readonly timeoutMs: number) {}

  arm(): void {
    this.fired = false;
    this.deadline = Date.now() + this.timeoutMs;
  }

  /**
   * No deadline, for walker's own guest code (the kit, compiling): it cannot loop, and in a slow debug
   * build it can take longer than a small time limit.
   */
  disarm(): void {
    this.fired = false;
    this.deadline = Number.POSITIVE_INFINITY;
  }

  readonly shouldInterrupt = (): boolean => {
    if (Date.now() <= this.deadline) return false;
    this.fired = true;
    return true;
  };
}

/** A runtime with the walk's memory limit, the stack limit and the watchdog installed. */
export function newLimitedRuntime(
  module: QuickJsModule,
  limits: ScriptLimits,
  maxStackBytes: number,
): { runtime: QuickJSRuntime; watchdog: Watchdog } {
  const runtime = module.newRuntime();
  const watchdog = new Watchdog(limits.timeoutMs);
  runtime.setMemoryLimit(limits.memoryBytes);
  runtime.setMaxStackSize(maxStackBytes);
  runtime.setInterruptHandler(watchdog.shouldInterrupt);
  return { runtime, watchdog };
}
