import { wasm, type WasmMemory } from './wasm.js';

/** Size of a WebAssembly memory page. */
const PAGE_BYTES = 64 * 1024;

/**
 * The memory QuickJS's WebAssembly module starts with (it declares 256 pages): its static data, its stack and
 * the first part of its heap. A walk's memory limit cannot be below it.
 */
export const INITIAL_MEMORY_BYTES = 256 * PAGE_BYTES;

/** The largest memory Emscripten's allocator can address (32-bit pointers). */
export const MAX_MEMORY_PAGES = 32 * 1024;

/**
 * Enforces a walk's memory limit on the WebAssembly memory its QuickJS runtime lives in.
 *
 * QuickJS's own limit (`JS_SetMemoryLimit`) cannot do it in this build: under Emscripten QuickJS does not
 * know the size of an allocation and counts 8 bytes for each, so a runtime limited to 64 MiB held 240 MiB of
 * arrays, and a shared module grew to 2 GiB and never gave it back. The allocator asks for more memory by
 * calling `grow` on the memory object; the gate refuses when the memory would pass the limit, the allocation
 * fails, QuickJS throws its out-of-memory error, and the gate remembers that it refused, so the sandbox can
 * stop the script and name the limit without trusting any text the script could forge.
 *
 * Emscripten grows in steps of at least 5 % of the current size, so the last step may be refused a little
 * before the limit is reached; the memory never passes it.
 */
export class MemoryGate {
  private static readonly gates = new WeakMap<WasmMemory, MemoryGate>();

  /** Bytes the memory may grow to; set by the sandbox whose script runs next. */
  limitBytes = Number.POSITIVE_INFINITY;
  /** Set when a growth was refused; the sandbox clears it before each script. */
  refused = false;
  /** Growths refused so far, never cleared: tells a refusal within a stretch of code from one before it. */
  refusals = 0;

  private constructor(readonly memory: WasmMemory) {
    const grow = wasm.Memory.prototype.grow;
    Object.defineProperty(memory, 'grow', {
      configurable: true,
      value: (pages: number): number => {
        if (memory.buffer.byteLength + pages * PAGE_BYTES > this.limitBytes) {
          this.refused = true;
          this.refusals++;
          throw new RangeError(`WebAssembly memory limit of ${this.limitBytes} bytes`);
        }
        return grow.call(memory, pages);
      },
    });
  }

  /** The gate of a memory, installed on first use: every module sharing the memory shares the gate. */
  static of(memory: WasmMemory): MemoryGate {
    let gate = MemoryGate.gates.get(memory);
    if (gate === undefined) MemoryGate.gates.set(memory, (gate = new MemoryGate(memory)));
    return gate;
  }

  /** A memory of its own for one QuickJS module: the initial pages QuickJS needs, growable as far as it can address. */
  static newMemory(): WasmMemory {
    return new wasm.Memory({ initial: INITIAL_MEMORY_BYTES / PAGE_BYTES, maximum: MAX_MEMORY_PAGES });
  }

  /** True while the memory is still at its initial size: nothing ever needed more. */
  get pristine(): boolean {
    return this.memory.buffer.byteLength <= INITIAL_MEMORY_BYTES;
  }
}
