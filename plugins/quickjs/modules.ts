import { readFile } from 'node:fs/promises';
import { createRequire } from 'node:module';
import { newQuickJSWASMModule, newVariant, RELEASE_SYNC } from 'quickjs-emscripten';
import { ErrorCodes, WalkerError } from '../../core/errors.js';
import type { SandboxReservation } from '../../core/scripting.js';
import { lendModule, type ModuleLease } from './lease.js';
import { INITIAL_MEMORY_BYTES, MemoryGate } from './memory.js';
import type { QuickJsModule } from './runtime.js';
import { wasm, type WasmCode } from './wasm.js';

/**
 * Spare modules an engine keeps ready beyond those reserved. Opening a walk is synchronous and making a module
 * is not, so walks opened without a reservation take spares and the pool refills in the
 * background; two cover a load that replaces the walk it ends, and the validation of a draft in between.
 */
export const SPARE_MODULES = 2;

/** Where sandboxes get their modules from. */
export interface ModuleSource {
  /** A module for a new walk: the reserved one when `reservation` is this source's and still held. */
  lease(reservation?: SandboxReservation): ModuleLease;
  /** Sets a module aside for a walk about to be opened (ScriptEngine.reserve); absent when every walk shares one. */
  reserve?(): Promise<SandboxReservation>;
  /** A module to try something in without taking a spare (the engine's self-test). */
  readonly sample: QuickJsModule;
  /** Lets go of every module not lent to a walk; afterwards every call but this one throws. */
  dispose?(): void;
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

/** A source that lends every sandbox the same module: for tests and custom builds given to the engine. */
export function sharedModule(module: QuickJsModule): ModuleSource {
  // Each walk may grow the memory by its own limit beyond what it holds when the walk comes: a module given
  // to the engine (a debug build in tests) serves sandboxes of different limits one after another.
  const lease = (): ModuleLease => {
    const gate = gateOf(module);
    return lendModule({ module, gate, own: false, baselineBytes: gate.memory.buffer.byteLength }, () => undefined);
  };
  return { lease, sample: module };
}

/** A reservation of a {@link ModulePool}: one of its spares is the reservation's until it is taken or given back. */
class PoolReservation implements SandboxReservation {
  private held = true;

  constructor(
    private readonly pool: ModulePool,
    private readonly giveBack: () => void,
  ) {}

  /** Takes the spare for a lease of `pool`: false when the reservation is another pool's, taken or given back. */
  take(pool: ModulePool): boolean {
    if (!this.held || pool !== this.pool) return false;
    this.held = false;
    return true;
  }

  release(): void {
    if (!this.held) return;
    this.held = false;
    this.giveBack();
  }
}

/** A reservation waiting for a module to be made for it. */
interface Waiting {
  resolve(reservation: SandboxReservation): void;
  reject(error: Error): void;
}

/**
 * Modules of their own for walks, so that a script that fills its memory fills only its walk's, and the
 * memory goes back to the system when the walk is dropped (a WebAssembly memory can grow but never shrink).
 * A module whose memory never grew is kept for the next walk; one that grew is dropped.
 *
 * A walk opened with a reservation always gets a module of its own: {@link reserve} sets a spare aside, or
 * waits until one is made for it, and no walk opened without a reservation takes a spare set aside. Walks
 * opened without a reservation while no unreserved spare is ready (more than two in one synchronous run)
 * share the overflow module, whose memory as a whole is held to one limit. An overflow module whose memory
 * grew is retired as soon as a fresh module is ready: the walks in it keep it until they end, and then its
 * memory goes back to the system too.
 */
export class ModulePool implements ModuleSource {
  private readonly spares: QuickJsModule[];
  /** Reservations granted and not yet taken or given back: that many of the spares are theirs. */
  private reserved = 0;
  private readonly waiting: Waiting[] = [];
  private pending = 0;
  private disposed = false;

  /** The module walks share when no spare is ready; undefined once disposed. */
  private overflowModule: QuickJsModule | undefined;

  private constructor(
    overflow: QuickJsModule,
    spares: QuickJsModule[],
    private readonly make: () => Promise<QuickJsModule>,
  ) {
    this.overflowModule = overflow;
    this.spares = spares;
  }

  private get overflow(): QuickJsModule {
    if (this.overflowModule === undefined) throw disposedEngine();
    return this.overflowModule;
  }

  private set overflow(module: QuickJsModule) {
    this.overflowModule = module;
  }

  /** A pool with its spares and overflow module made; `make` makes a module (tests give one they control). */
  static async create(make: () => Promise<QuickJsModule> = newOwnModule): Promise<ModulePool> {
    const [overflow, ...spares] = await Promise.all(Array.from({ length: SPARE_MODULES + 1 }, make));
    return new ModulePool(overflow, spares, make);
  }

  get sample(): QuickJsModule {
    return this.overflow;
  }

  /** Spares ready now that no reservation holds. */
  get ready(): number {
    return this.spares.length - this.reserved;
  }

  /** Reservations granted and not yet taken or given back, and those waiting for a module (tests). */
  get reservations(): { readonly held: number; readonly waiting: number } {
    return { held: this.reserved, waiting: this.waiting.length };
  }

  /** Resolves at once while an unreserved spare is ready, else once a module was made for it. */
  reserve(): Promise<SandboxReservation> {
    if (this.disposed) return Promise.reject(disposedEngine());
    if (this.ready > 0) return Promise.resolve(this.grant());
    const granted = new Promise<SandboxReservation>((resolve, reject) => this.waiting.push({ resolve, reject }));
    this.refill();
    return granted;
  }

  lease(reservation?: SandboxReservation): ModuleLease {
    this.checkOpen();
    const reserved = reservation instanceof PoolReservation && reservation.take(this);
    if (reserved) this.reserved--;
    const module = reserved || this.ready > 0 ? this.spares.pop() : undefined;
    this.refill();
    if (module === undefined) {
      // A walk in the overflow that ends may leave it grown: that is when a fresh one is worth making.
      const overflow = this.overflow;
      return lendModule({ module: overflow, gate: gateOf(overflow), own: false, baselineBytes: INITIAL_MEMORY_BYTES }, () => this.refill());
    }
    return lendModule({ module, gate: gateOf(module), own: true, baselineBytes: 0 }, (reusable) => this.giveBack(module, reusable));
  }

  /**
   * Drops the spares and the overflow, and makes no more: a WebAssembly memory cannot be freed, only dropped, so
   * what the walks still open hold goes with them. Reservations waiting are refused; a module still being
   * made is dropped when it comes.
   */
  dispose(): void {
    if (this.disposed) return;
    this.disposed = true;
    this.overflowModule = undefined;
    this.spares.length = 0;
    this.reserved = 0;
    for (const waiting of this.waiting.splice(0)) waiting.reject(disposedEngine());
  }

  private checkOpen(): void {
    if (this.disposed) throw disposedEngine();
  }

  /** Sets one of the spares aside for a reservation. */
  private grant(): PoolReservation {
    this.reserved++;
    return new PoolReservation(this, () => this.unreserve());
  }

  /** A reservation given back unused: its spare goes to a reservation waiting, if any. */
  private unreserve(): void {
    this.reserved--;
    this.serveWaiting();
  }

  private serveWaiting(): void {
    while (this.waiting.length > 0 && this.ready > 0) this.waiting.shift()?.resolve(this.grant());
  }

  private giveBack(module: QuickJsModule, reusable: boolean): void {
    if (this.disposed) return;
    if (reusable && gateOf(module).pristine) this.keep(module);
    this.refill();
  }

  /**
   * A pristine module: a spare for a reservation waiting first, then the overflow's place when the overflow's
   * memory grew, else a spare, if one is missing.
   */
  private keep(module: QuickJsModule): void {
    if (this.disposed) return;
    if (this.waiting.length > 0) {
      this.spares.push(module);
      this.serveWaiting();
    } else if (!gateOf(this.overflow).pristine) this.overflow = module;
    else if (this.ready < SPARE_MODULES) this.spares.push(module);
  }

  /**
   * Makes modules in the background until every waiting reservation has one, the unreserved spares are
   * complete again, and the overflow's memory is its initial one. A failure is the failure of the oldest
   * waiting reservation; without one, the overflow copes.
   */
  private refill(): void {
    if (this.disposed) return;
    const wanted = (): number =>
      this.waiting.length + Math.max(0, SPARE_MODULES - this.ready) + (gateOf(this.overflow).pristine ? 0 : 1);
    while (this.pending < wanted()) {
      this.pending++;
      this.make().then(
        (module) => {
          this.pending--;
          this.keep(module);
        },
        (error: unknown) => {
          this.pending--;
          const why = error instanceof Error ? error.message : String(error);
          this.waiting.shift()?.reject(new Error(`No QuickJS module could be made for the walk: ${why}`));
        },
      );
    }
  }
}

function disposedEngine(): WalkerError {
  return new WalkerError(
    ErrorCodes.DISPOSED,
    'The QuickJS script engine was disposed (Walker.dispose): make a new Walker to open more walks.',
  );
}
