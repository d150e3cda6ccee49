import type { MemoryGate } from './memory.js';
import type { QuickJsModule } from './runtime.js';

/**
 * A QuickJS module lent to one sandbox, with the gate of its memory. The sandboxes of one walk (its own and
 * its planner's, opened beside it) hold leases of one module: one memory, and one limit for all of them.
 */
export interface ModuleLease {
  readonly module: QuickJsModule;
  readonly gate: MemoryGate;
  /** True when the walk has the module to itself; false when it shares the engine's overflow module. */
  readonly own: boolean;
  /**
   * What the memory may hold beyond the sandbox's limit: 0 for a module of its own, whose whole memory is the
   * walk's; QuickJS's initial memory for the pool's overflow, so that the limit bounds that shared memory as a
   * whole (a baseline taken at each lease would let every walk that comes grow it by one more limit, and a
   * WebAssembly memory never shrinks); the memory's size at the lease for a module given to the engine.
   */
  readonly baselineBytes: number;
  /** True while another sandbox holds a lease of the same module for the same walk. */
  readonly shared: boolean;
  /** True once a runtime of some sandbox holding the module was abandoned: the module is never used again. */
  readonly abandoned: boolean;
  /** A lease of the same module for a sandbox opened beside this one; the module goes back when both are released. */
  share(): ModuleLease;
  /** Gives the lease back (once; again does nothing); `reusable` is false when a runtime in it had to be abandoned. */
  release(reusable: boolean): void;
}

/** What a module is, for its leases: the fields of {@link ModuleLease} that every lease of it has alike. */
export interface LentModule {
  readonly module: QuickJsModule;
  readonly gate: MemoryGate;
  readonly own: boolean;
  readonly baselineBytes: number;
}

/**
 * Lends `lent` to one walk: the lease answered and every {@link ModuleLease.share} of it count as holders,
 * and `giveBack` is called once the last lets go, with whether the module may be used again.
 */
export function lendModule(lent: LentModule, giveBack: (reusable: boolean) => void): ModuleLease {
  let holders = 0;
  let abandoned = false;
  const lease = (): ModuleLease => {
    holders++;
    let held = true;
    return {
      ...lent,
      get shared() {
        return holders > 1;
      },
      get abandoned() {
        return abandoned;
      },
      share: lease,
      release(reusable: boolean): void {
        if (!held) return;
        held = false;
        abandoned ||= !reusable;
        if (--holders === 0) giveBack(!abandoned);
      },
    };
  };
  return lease();
}
