import { readFile } from 'node:fs/promises';
import { createRequire } from 'node:module';
import { newQuickJSWASMModule, newVariant, RELEASE_SYNC } from 'quickjs-emscripten';
import { INITIAL_MEMORY_BYTES, MemoryGate } from './memory.js';
import type { QuickJsModule } from './runtime.js';
import { wasm, type WasmCode } from './wasm.js';

/**
 * Spare modules an engine keeps ready. Opening a walk is synchronous and making a module is not (about 2 ms),
 * so the next walks take spares and the pool refills in the background; two cover a load that replaces the
 * walk it ends, and the validation of a draft in between.
 */
export const SPARE_MODULES = 2;

/** A QuickJS module lent to one sandbox, with the gate of its memory. */
export interface ModuleLease {
  readonly module: QuickJsModule;
  readonly gate: MemoryGate;
  /** True when the sandbox has the module to itself; false when it shares the engine's overflow module. */
  readonly own: boolean;
  /**
   * What the memory may hold beyond the sandbox's limit: 0 for a module of its own, whose whole memory is the
   * walk's; QuickJS's initial memory for the pool's overflow, so that the limit bounds that shared memory as a
   * whole (a baseline taken at each lease would let every walk that comes grow it by one more limit, and a
   * WebAssembly memory never shrinks); the memory's size at the lease for a module given to the engine.
   */
  readonly baselineBytes: number;
  /** Gives the module back; `reusable` is false when a runtime in it had to be abandoned. */
  release(reusable: boolean): void;
}

/** Where sandboxes get their modules from. */
export interface ModuleSource {
  lease(): ModuleLease;
  /** A module to try something in without taking a spare (the engine's self-test). */
  readonly sample: QuickJsModule;
}

let compiledCode: Promise<WasmCode> | undefined;

/**
 * The release build's WebAssembly code, compiled once per process: code is immutable, so every module shares
 * it, while each instance has a memory of its own. A failed compile is forgotten, so that a later call retries.
 */
function compiledQuickJs(): Promise<WasmCode> {
  compiledCode ??= (async () => {
    // The build is a dependency of quickjs-emscripten, so it is found from there, whatever the layout of node_modules.
    const fromEmscripten = createRequire(createRequire(import.meta.url).resolve('quickjs-emscripten'));
    return wasm.compile(await readFile(fromEmscripten.resolve('@jitl/quickjs-wasmfile-release-sync/wasm')));
  })();
  compiledCode.catch(() => (compiledCode = undefined));
  return compiledCode;
}

/** A release-build module with a WebAssembly memory of its own, dropped (and its memory freed) with its last reference. */
export async function newOwnModule(): Promise<QuickJsModule> {
  const wasmModule = await compiledQuickJs();
  return newQuickJSWASMModule(newVariant(RELEASE_SYNC, { wasmModule, wasmMemory: MemoryGate.newMemory() }));
}

function gateOf(module: QuickJsModule): MemoryGate {
  return MemoryGate.of(module.getWasmMemory());
}

/** A sandbox shares `module` (a module given to the engine, or the pool's overflow); its limit counts from `baselineBytes`. */
function sharedLease(module: QuickJsModule, baselineBytes: number): ModuleLease {
  return { module, gate: gateOf(module), own: false, baselineBytes, release: () => undefined };
}

/** A source that lends every sandbox the same module: for tests and custom builds given to the engine. */
export function sharedModule(module: QuickJsModule): ModuleSource {
  // Each sandbox may grow the memory by its own limit beyond what it holds when the sandbox comes: a module
  // given to the engine (a debug build in tests) serves sandboxes of different limits one after another.
  return { lease: () => sharedLease(module, gateOf(module).memory.buffer.byteLength), sample: module };
}

/**
 * Modules of their own for sandboxes, so that a script that fills its memory fills only its walk's, and the
 * memory goes back to the system when the walk is dropped (a WebAssembly memory can grow but never shrink).
 * A module whose memory never grew is kept for the next sandbox; one that grew is dropped. When more
 * sandboxes are opened at once than there are spares, the extra ones share the overflow module, whose memory
 * as a whole is held to one limit. An overflow module whose memory grew is retired as soon as a fresh module
 * is ready: the walks in it keep it until they end, and then its memory goes back to the system too.
 */
export class ModulePool implements ModuleSource {
  private readonly spares: QuickJsModule[];
  private pending = 0;

  private constructor(
    private overflow: QuickJsModule,
    spares: QuickJsModule[],
    private readonly make: () => Promise<QuickJsModule>,
  ) {
    this.spares = spares;
  }

  /** A pool with its spares and overflow module made. */
  static async create(make: () => Promise<QuickJsModule> = newOwnModule): Promise<ModulePool> {
    const [overflow, ...spares] = await Promise.all(Array.from({ length: SPARE_MODULES + 1 }, make));
    return new ModulePool(overflow, spares, make);
  }

  get sample(): QuickJsModule {
    return this.overflow;
  }

  /** Spares ready now (tests and measurements). */
  get ready(): number {
    return this.spares.length;
  }

  lease(): ModuleLease {
    const module = this.spares.pop();
    this.refill();
    // A walk in the overflow that ends may leave it grown: that is when a fresh one is worth making.
    if (module === undefined) return { ...sharedLease(this.overflow, INITIAL_MEMORY_BYTES), release: () => this.refill() };
    return { module, gate: gateOf(module), own: true, baselineBytes: 0, release: (reusable) => this.giveBack(module, reusable) };
  }

  private giveBack(module: QuickJsModule, reusable: boolean): void {
    if (reusable && gateOf(module).pristine) this.keep(module);
    this.refill();
  }

  /** A pristine module: the overflow's place first, when the overflow's memory grew; else a spare, if one is missing. */
  private keep(module: QuickJsModule): void {
    if (!gateOf(this.overflow).pristine) this.overflow = module;
    else if (this.spares.length < SPARE_MODULES) this.spares.push(module);
  }

  /**
   * Makes modules in the background until the spares are complete again and the overflow's memory is its
   * initial one; a failure leaves the overflow to cope.
   */
  private refill(): void {
    const wanted = (): number => SPARE_MODULES - this.spares.length + (gateOf(this.overflow).pristine ? 0 : 1);
    while (this.pending < wanted()) {
      this.pending++;
      this.make().then(
        (module) => {
          this.pending--;
          this.keep(module);
        },
        () => this.pending--,
      );
    }
  }
}
