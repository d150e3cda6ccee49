/**
 * The few WebAssembly APIs the engine uses, typed here: Node has them at run time, but its type definitions
 * leave the `WebAssembly` namespace to the DOM library, which walker does not load.
 */

/** A WebAssembly linear memory. */
export interface WasmMemory {
  readonly buffer: ArrayBuffer;
  /** Grows by `pages` pages of 64 KiB; answers the old size in pages, throws a RangeError past the maximum. */
  grow(pages: number): number;
}

/** Compiled WebAssembly code, instantiated any number of times. */
export interface WasmCode {
  readonly __brand?: 'WebAssembly.Module';
}

interface WasmApi {
  readonly Memory: { new (descriptor: { initial: number; maximum?: number }): WasmMemory; readonly prototype: WasmMemory };
  compile(bytes: Uint8Array): Promise<WasmCode>;
}

/** The host's `WebAssembly` object. */
export const wasm = (globalThis as unknown as { WebAssembly: WasmApi }).WebAssembly;
