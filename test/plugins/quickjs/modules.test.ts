import { describe, expect, it } from 'vitest';
import { createRandom } from '../../../core/random.js';
import { DEFAULT_SCRIPT_LIMITS } from '../../../core/scripting.js';
import { createQuickJsEngine } from '../../../plugins/quickjs/index.js';
import { INITIAL_MEMORY_BYTES } from '../../../plugins/quickjs/memory.js';
import { ModulePool, SPARE_MODULES } from '../../../plugins/quickjs/modules.js';
import { DEFAULT_MAX_STACK_BYTES } from '../../../plugins/quickjs/runtime.js';
import { SyntaxChecker } from '../../../plugins/quickjs/syntax.js';
import { holds, origin, scriptErrorOf } from './contract-helpers.js';

const MiB = 1024 * 1024;
/** Fills the memory of a walk in 1 MiB strings. */
const BOMB = 'hog = []; for (;;) hog.push("x".repeat(1 << 20) + hog.length);';
/** Holds about 24 MiB: well under the default limit of 64 MiB, far over what a full shared memory leaves. */
const HOLD_24_MIB = 'held = []; while (held.length < 24) held.push("y".repeat(1 << 20) + held.length);';

/** Lets the background refills of a pool finish. */
const settle = (): Promise<void> => new Promise((resolve) => setTimeout(resolve, 50));

describe('QuickJS modules: a WebAssembly memory per walk', () => {
  it('keeps a walk that fills its memory from touching the memory of another walk', async () => {
    const engine = await createQuickJsEngine();
    const open = (seed: number) => engine.createSandbox({ scopes: 1, random: createRandom(seed), limits: DEFAULT_SCRIPT_LIMITS });
    const greedy = open(1);
    const modest = open(2);
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
    const pool = await ModulePool.create();
    expect(pool.ready).toBe(SPARE_MODULES);
    const calm = pool.lease();
    const grown = pool.lease();
    expect([calm.own, grown.own]).toEqual([true, true]);
    expect(calm.module).not.toBe(grown.module);
    grown.gate.limitBytes = 64 * MiB;
    grown.gate.memory.grow(16);
    expect(grown.gate.pristine).toBe(false);
    calm.release(true);
    grown.release(true);
    await settle();
    expect(pool.ready).toBe(SPARE_MODULES);
    const next = [pool.lease(), pool.lease()];
    expect(next.map((lease) => lease.module)).toContain(calm.module);
    expect(next.map((lease) => lease.module)).not.toContain(grown.module);
    for (const lease of next) expect(lease.gate.memory.buffer.byteLength).toBe(INITIAL_MEMORY_BYTES);
  });

  it('shares the overflow module when more walks open at once than there are spares', async () => {
    const pool = await ModulePool.create();
    const leases = Array.from({ length: SPARE_MODULES + 2 }, () => pool.lease());
    expect(leases.map((lease) => lease.own)).toEqual([...Array(SPARE_MODULES).fill(true), false, false]);
    expect(leases[SPARE_MODULES].module).toBe(leases[SPARE_MODULES + 1].module);
    await settle();
    expect(pool.ready).toBe(SPARE_MODULES);
    expect(pool.lease().own).toBe(true);
  });

  it('holds the overflow memory as a whole to one limit, however many walks come, and retires it once it grew', async () => {
    const pool = await ModulePool.create();
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
    await settle();
    const refilled = Array.from({ length: SPARE_MODULES }, () => pool.lease());
    const third = pool.lease();
    expect(third.own).toBe(false);
    expect(third.module).not.toBe(first.module);
    expect(third.gate.pristine).toBe(true);
    for (const lease of [first, third, ...spares, ...refilled]) lease.release(true);
  });

  it('parses in the module the pool names now, so that a retired overflow is not held by the syntax check', async () => {
    const pool = await ModulePool.create();
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
    await settle();
    expect(checker.check('y = 1;')).toBeUndefined();
    expect(used).toHaveLength(2);
    expect(used[1]).not.toBe(used[0]);
    for (const lease of spares) lease.release(true);
  });

  it('refuses to grow a memory past the limit of the script running in it, and says it did', async () => {
    const pool = await ModulePool.create();
    const { gate } = pool.lease();
    gate.limitBytes = INITIAL_MEMORY_BYTES + MiB;
    expect(() => gate.memory.grow(32)).toThrow(RangeError);
    expect(gate.refused).toBe(true);
    expect(gate.memory.buffer.byteLength).toBe(INITIAL_MEMORY_BYTES);
    expect(gate.memory.grow(16)).toBe(INITIAL_MEMORY_BYTES / (64 * 1024));
  });

  it('gives a restarted walk a fresh module when its memory grew', async () => {
    const engine = await createQuickJsEngine();
    const sandbox = engine.createSandbox({ scopes: 1, random: createRandom(1), limits: DEFAULT_SCRIPT_LIMITS });
    try {
      scriptErrorOf(() => sandbox.run(0, BOMB, origin()));
      sandbox.reset();
      sandbox.run(0, HOLD_24_MIB, origin());
      sandbox.run(0, 'held = null;', origin());
      expect(sandbox.variables(0)).toEqual([['held', 'null']]);
    } finally {
      sandbox.dispose();
    }
  });
});
