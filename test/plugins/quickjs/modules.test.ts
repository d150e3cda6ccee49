import { describe, expect, it } from 'vitest';
import { ErrorCodes } from '../../../core/errors.js';
import { createRandom } from '../../../core/random.js';
import { DEFAULT_SCRIPT_LIMITS, type SandboxReservation, type ScriptEngine } from '../../../core/scripting.js';
import { createQuickJsEngine, type QuickJsModule } from '../../../plugins/quickjs/index.js';
import { INITIAL_MEMORY_BYTES } from '../../../plugins/quickjs/memory.js';
import { ModulePool, newOwnModule, SPARE_MODULES } from '../../../plugins/quickjs/modules.js';
import { DEFAULT_MAX_STACK_BYTES } from '../../../plugins/quickjs/runtime.js';
import { SyntaxChecker } from '../../../plugins/quickjs/syntax.js';
import { holds, origin, scriptErrorOf } from './contract-helpers.js';

const MiB = 1024 * 1024;
/** Fills the memory of a walk in 1 MiB strings. */
const BOMB = 'hog = []; for (;;) hog.push("x".repeat(1 << 20) + hog.length);';
/** Holds about 24 MiB: well under the default limit of 64 MiB, far over what a full shared memory leaves. */
const HOLD_24_MIB = 'held = []; while (held.length < 24) held.push("y".repeat(1 << 20) + held.length);';
/** Holds about 20 MiB: more than half of a limit of 32 MiB, so two walks in one memory cannot both hold it. */
const HOLD_20_MIB = 'held = []; while (held.length < 20) held.push("y".repeat(1 << 20) + held.length);';

/**
 * Makes the pool's modules when the test says so: every module asked for waits until {@link finish}. The
 * pool's own callback on a module was attached before any the test attaches, so once {@link finish} resolves
 * the pool has every module made: no timer decides when the background work is done.
 */
class Maker {
  /** Modules asked for so far. */
  calls = 0;
  private asked: Array<{ made: Promise<QuickJsModule>; resolve(module: QuickJsModule): void; reject(error: Error): void }> = [];

  readonly make = (): Promise<QuickJsModule> => {
    this.calls++;
    let resolve!: (module: QuickJsModule) => void;
    let reject!: (error: Error) => void;
    const made = new Promise<QuickJsModule>((res, rej) => ([resolve, reject] = [res, rej]));
    this.asked.push({ made, resolve, reject });
    return made;
  };

  /** Modules asked for and not made yet. */
  get waiting(): number {
    return this.asked.length;
  }

  /** Makes every module asked for; resolves once the pool has taken each. */
  async finish(): Promise<void> {
    const batch = this.asked.splice(0);
    for (const one of batch) one.resolve(await newOwnModule());
    await Promise.all(batch.map((one) => one.made));
  }

  /** Fails the oldest module asked for; resolves once the pool heard of it. */
  async fail(error: Error): Promise<void> {
    const one = this.asked.shift();
    if (one === undefined) throw new Error('no module was asked for');
    one.reject(error);
    await one.made.catch(() => undefined);
  }
}

/** A pool made by `maker`, its first modules made. */
async function poolOf(maker: Maker): Promise<ModulePool> {
  const creating = ModulePool.create(maker.make);
  await maker.finish();
  return creating;
}

/** Settles `promise` into a flag the test can read without waiting for it. */
function watch<T>(promise: Promise<T>): { settled: boolean } {
  const state = { settled: false };
  promise.then(
    () => (state.settled = true),
    () => (state.settled = true),
  );
  return state;
}

function openOn(engine: ScriptEngine, reservation?: SandboxReservation, memoryBytes = DEFAULT_SCRIPT_LIMITS.memoryBytes) {
  return engine.createSandbox({ scopes: 1, random: createRandom(1), limits: { ...DEFAULT_SCRIPT_LIMITS, memoryBytes }, reservation });
}

describe('QuickJS modules: a WebAssembly memory per walk', () => {
  it('keeps a walk that fills its memory from touching the memory of another walk', async () => {
    const engine = await createQuickJsEngine();
    const greedy = openOn(engine);
    const modest = openOn(engine);
    try {
      expect(scriptErrorOf(() => greedy.run(0, BOMB, origin())).scriptMessage).toBe('Script exceeded the memory limit of 64 MiB');
      modest.run(0, HOLD_24_MIB, origin());
      expect(holds(modest, 0, 'held.length === 24 && held[23].length === (1 << 20) + 2')).toBe(true);
    } finally {
      greedy.dispose();
      modest.dispose();
    }
  });

  it('lends spares, takes back a module whose memory never grew, drops one that grew, and refills', async () => {
    const maker = new Maker();
    const pool = await poolOf(maker);
    expect(pool.ready).toBe(SPARE_MODULES);
    const calm = pool.lease();
    const grown = pool.lease();
    expect([calm.own, grown.own]).toEqual([true, true]);
    expect(calm.module).not.toBe(grown.module);
    // One module asked for each spare taken.
    expect(maker.waiting).toBe(2);
    grown.gate.limitBytes = 64 * MiB;
    grown.gate.memory.grow(16);
    expect(grown.gate.pristine).toBe(false);
    calm.release(true);
    grown.release(true);
    await maker.finish();
    expect(pool.ready).toBe(SPARE_MODULES);
    const next = [pool.lease(), pool.lease()];
    expect(next.map((lease) => lease.module)).toContain(calm.module);
    expect(next.map((lease) => lease.module)).not.toContain(grown.module);
    for (const lease of next) expect(lease.gate.memory.buffer.byteLength).toBe(INITIAL_MEMORY_BYTES);
  });

  it('at dispose refuses reservations waiting and walks to come, makes no more, and lets the walks it lent finish', async () => {
    const maker = new Maker();
    const pool = await poolOf(maker);
    const lent = pool.lease();
    // The last spare goes to the first reservation; the second waits for a module to be made.
    await pool.reserve();
    const waiting = pool.reserve();
    const asked = maker.calls;
    pool.dispose();
    await expect(waiting).rejects.toMatchObject({ code: ErrorCodes.DISPOSED });
    await expect(pool.reserve()).rejects.toMatchObject({ code: ErrorCodes.DISPOSED });
    expect(() => pool.lease()).toThrow(expect.objectContaining({ code: ErrorCodes.DISPOSED }));
    expect(() => pool.sample).toThrow(expect.objectContaining({ code: ErrorCodes.DISPOSED }));
    // Modules asked for before the dispose are dropped when they come; none is asked for after it.
    await maker.finish();
    lent.release(true);
    expect(maker.calls).toBe(asked);
    expect(pool.ready).toBe(0);
    pool.dispose();
  });

  it('shares the overflow module when more walks open at once than there are spares', async () => {
    const maker = new Maker();
    const pool = await poolOf(maker);
    const leases = Array.from({ length: SPARE_MODULES + 2 }, () => pool.lease());
    expect(leases.map((lease) => lease.own)).toEqual([...Array(SPARE_MODULES).fill(true), false, false]);
    expect(leases[SPARE_MODULES].module).toBe(leases[SPARE_MODULES + 1].module);
    await maker.finish();
    expect(pool.ready).toBe(SPARE_MODULES);
    expect(pool.lease().own).toBe(true);
  });

  it('holds the overflow memory as a whole to one limit, however many walks come, and retires it once it grew', async () => {
    const maker = new Maker();
    const pool = await poolOf(maker);
    const spares = Array.from({ length: SPARE_MODULES }, () => pool.lease());
    const first = pool.lease();
    expect(first.own).toBe(false);
    // The memory grows while the first walk runs; the next walk's limit counts from the initial memory, not from there.
    first.gate.limitBytes = INITIAL_MEMORY_BYTES + first.baselineBytes + 32 * MiB;
    first.gate.memory.grow(256);
    const second = pool.lease();
    expect(second.module).toBe(first.module);
    expect(second.baselineBytes).toBe(INITIAL_MEMORY_BYTES);
    // Once a fresh module is made, new walks get it; the grown one stays with the walks it has.
    second.release(true);
    await maker.finish();
    const refilled = Array.from({ length: SPARE_MODULES }, () => pool.lease());
    const third = pool.lease();
    expect(third.own).toBe(false);
    expect(third.module).not.toBe(first.module);
    expect(third.gate.pristine).toBe(true);
    for (const lease of [first, third, ...spares, ...refilled]) lease.release(true);
  });

  it('parses in the module the pool names now, so that a retired overflow is not held by the syntax check', async () => {
    const maker = new Maker();
    const pool = await poolOf(maker);
    const used: unknown[] = [];
    const source = {
      get sample() {
        used.push(pool.sample);
        return pool.sample;
      },
    };
    const checker = new SyntaxChecker(source, DEFAULT_MAX_STACK_BYTES, 64 * MiB);
    expect(checker.check('x = ;')?.message).toMatch(/^SyntaxError/);
    await Promise.resolve();
    // The overflow grows and a fresh module is made: the next load's checks run in the fresh one.
    const spares = Array.from({ length: SPARE_MODULES }, () => pool.lease());
    const overflow = pool.lease();
    overflow.gate.limitBytes = Number.POSITIVE_INFINITY;
    overflow.gate.memory.grow(16);
    overflow.release(true);
    await maker.finish();
    expect(checker.check('y = 1;')).toBeUndefined();
    expect(used).toHaveLength(2);
    expect(used[1]).not.toBe(used[0]);
    for (const lease of spares) lease.release(true);
  });

  it('refuses to grow a memory past the limit of the script running in it, and says it did', async () => {
    const pool = await poolOf(new Maker());
    const { gate } = pool.lease();
    gate.limitBytes = INITIAL_MEMORY_BYTES + MiB;
    expect(() => gate.memory.grow(32)).toThrow(RangeError);
    expect(gate.refused).toBe(true);
    expect(gate.memory.buffer.byteLength).toBe(INITIAL_MEMORY_BYTES);
    expect(gate.memory.grow(16)).toBe(INITIAL_MEMORY_BYTES / (64 * 1024));
  });

  it('gives a restarted walk a fresh module when its memory grew', async () => {
    const engine = await createQuickJsEngine();
    const sandbox = openOn(engine);
    try {
      scriptErrorOf(() => sandbox.run(0, BOMB, origin()));
      sandbox.reset(await engine.reserve?.());
      sandbox.run(0, HOLD_24_MIB, origin());
      sandbox.run(0, 'held = null;', origin());
      expect(sandbox.variables(0)).toEqual([['held', 'null']]);
    } finally {
      sandbox.dispose();
    }
  });
});

describe('QuickJS modules: reservations', () => {
  it('grants reservations at once while unreserved spares are ready, and lends no walk without one a reserved spare', async () => {
    const maker = new Maker();
    const pool = await poolOf(maker);
    const reserved = [await pool.reserve(), await pool.reserve()];
    expect(pool.ready).toBe(0);
    expect(pool.reservations).toEqual({ held: SPARE_MODULES, waiting: 0 });
    // A walk opened without a reservation now shares the overflow, and asks for no module for itself.
    const stray = pool.lease();
    expect(stray.own).toBe(false);
    expect(stray.module).toBe(pool.sample);
    const [first, second] = reserved.map((reservation) => pool.lease(reservation));
    expect([first.own, second.own]).toEqual([true, true]);
    expect(new Set([first.module, second.module, stray.module]).size).toBe(3);
    expect(pool.reservations).toEqual({ held: 0, waiting: 0 });
    // The spares the reservations took are made again in the background.
    expect(maker.waiting).toBe(SPARE_MODULES);
  });

  it('makes a module for a reservation that finds no spare, and grants it only once the module is there', async () => {
    const maker = new Maker();
    const pool = await poolOf(maker);
    await pool.reserve();
    await pool.reserve();
    const asked = maker.calls;
    const third = pool.reserve();
    const state = watch(third);
    // Its module, and the two spares the pool keeps beyond those reserved.
    expect(maker.calls - asked).toBe(1 + SPARE_MODULES);
    expect(pool.reservations).toEqual({ held: SPARE_MODULES, waiting: 1 });
    // The modules are held back by the maker: nothing can have granted the reservation.
    await Promise.resolve();
    expect(state.settled).toBe(false);
    await maker.finish();
    const lease = pool.lease(await third);
    expect(lease.own).toBe(true);
    expect(lease.module).not.toBe(pool.sample);
    expect(pool.ready).toBe(SPARE_MODULES);
  });

  it('hands a reservation given back unused to the one waiting, once, however often it is given back', async () => {
    const maker = new Maker();
    const pool = await poolOf(maker);
    const first = await pool.reserve();
    await pool.reserve();
    const third = pool.reserve();
    first.release();
    // Granted from the spare given back, with no module made.
    const granted = await third;
    expect(maker.waiting).toBe(1 + SPARE_MODULES);
    expect(pool.reservations).toEqual({ held: SPARE_MODULES, waiting: 0 });
    first.release();
    expect(pool.reservations).toEqual({ held: SPARE_MODULES, waiting: 0 });
    // A reservation given back takes nothing: the walk shares the overflow.
    expect(pool.lease(first).own).toBe(false);
    expect(pool.lease(granted).own).toBe(true);
  });

  it('lets a reservation be taken once: giving it back afterwards changes nothing', async () => {
    const pool = await poolOf(new Maker());
    const reservation = await pool.reserve();
    expect(pool.lease(reservation).own).toBe(true);
    expect(pool.ready).toBe(SPARE_MODULES - 1);
    reservation.release();
    expect(pool.ready).toBe(SPARE_MODULES - 1);
    expect(pool.reservations).toEqual({ held: 0, waiting: 0 });
  });

  it('fails the reservation waiting for a module that could not be made, saying why', async () => {
    const maker = new Maker();
    const pool = await poolOf(maker);
    await pool.reserve();
    await pool.reserve();
    const third = pool.reserve();
    await maker.fail(new Error('out of memory'));
    await expect(third).rejects.toThrow('No QuickJS module could be made for the walk: out of memory');
    expect(pool.reservations).toEqual({ held: SPARE_MODULES, waiting: 0 });
  });

  it('lends the module of a walk to a sandbox beside it, and takes it back when both let go, unless one was abandoned', async () => {
    const maker = new Maker();
    const pool = await poolOf(maker);
    const walk = pool.lease();
    const beside = walk.share();
    expect(beside.module).toBe(walk.module);
    expect([walk.shared, beside.shared]).toEqual([true, true]);
    beside.release(true);
    beside.release(false);
    expect([walk.shared, walk.abandoned]).toEqual([false, false]);
    expect(pool.ready).toBe(SPARE_MODULES - 1);
    walk.release(true);
    expect(pool.ready).toBe(SPARE_MODULES);

    const next = pool.lease();
    next.share().release(false);
    expect(next.abandoned).toBe(true);
    next.release(true);
    await maker.finish();
    expect(Array.from({ length: SPARE_MODULES }, () => pool.lease().module)).not.toContain(next.module);
  });
});

describe('QuickJS engine: a memory per walk, however many are opened at once', () => {
  const LIMIT = 32 * MiB;

  it('gives every walk opened with a reservation a memory and a limit of its own', async () => {
    const engine = await createQuickJsEngine();
    // Twice the spares: the last walks wait for modules made for them.
    const reservations = await Promise.all(Array.from({ length: 2 * SPARE_MODULES }, () => engine.reserve!()));
    const walks = reservations.map((reservation) => openOn(engine, reservation, LIMIT));
    try {
      for (const walk of walks) walk.run(0, HOLD_20_MIB, origin());
      for (const walk of walks) expect(holds(walk, 0, 'held.length === 20')).toBe(true);
    } finally {
      for (const walk of walks) walk.dispose();
    }
  });

  it('opens a sandbox beside a walk in its memory, under its one limit, and leaves the memory to the walk', async () => {
    const engine = await createQuickJsEngine();
    const walk = openOn(engine, await engine.reserve!(), LIMIT);
    const beside = engine.createSandbox({ scopes: 1, random: createRandom(2), limits: { ...DEFAULT_SCRIPT_LIMITS, memoryBytes: LIMIT }, beside: walk });
    try {
      walk.run(0, HOLD_20_MIB, origin());
      expect(scriptErrorOf(() => beside.run(0, HOLD_20_MIB, origin('beside'))).scriptMessage).toBe('Script exceeded the memory limit of 32 MiB');
      beside.dispose();
      // The walk's memory stays the walk's: what it holds is there, and it goes on.
      expect(holds(walk, 0, 'held.length === 20 && held[19].length === (1 << 20) + 2')).toBe(true);
      walk.run(0, 'held = null; more = 1;', origin());
      expect(walk.variables(0)).toEqual([
        ['held', 'null'],
        ['more', '1'],
      ]);
    } finally {
      beside.dispose();
      walk.dispose();
    }
  });
});
