import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { setFlagsFromString } from 'node:v8';
import { runInNewContext } from 'node:vm';
import { format } from '@vitest/pretty-format';
import { describe, expect, it } from 'vitest';
import { ErrorCodes } from '../../core/errors.js';
import type { Machine } from '../../core/machine/machine.js';
import { Walker } from '../../core/walker.js';
import { builtinPlugins } from '../../plugins/index.js';

const LOGIN = join(import.meta.dirname, '..', '..', 'examples', 'models', 'login.json');
const MODEL = JSON.parse(readFileSync(LOGIN, 'utf8'));
const MB = 1024 * 1024;

// Each test file runs in a process of its own (vitest's forks), so the process's memory is this file's.
setFlagsFromString('--expose-gc');
const collect = runInNewContext('gc') as () => void;

/** Heap and resident memory after full collections: WebAssembly memories are freed only when collected. */
function settled(): { heap: number; rss: number; external: number } {
  for (let i = 0; i < 3; i++) collect();
  const { heapUsed, rss, external } = process.memoryUsage();
  return { heap: heapUsed, rss, external };
}

async function walkOnce(walker: Walker, seed: number): Promise<Machine> {
  const walk = await walker.open({ model: MODEL, seed, generator: 'random(length(5))' });
  for (const _step of walk);
  walk.dispose();
  return walk;
}

/** A walker made and walked once, not disposed. */
async function walkerCycle(seed: number): Promise<Walker> {
  const walker = await Walker.create(builtinPlugins());
  await walkOnce(walker, seed);
  return walker;
}

describe('dispose', () => {
  it('keeps heap and RSS flat within 20 MB over 1,000 walks opened and disposed', async () => {
    const walker = await Walker.create(builtinPlugins());
    try {
      // RSS grows for the first several hundred walks as V8 sizes its young generation to the allocation rate,
      // then stays: 21 MB after 200 walks, 32 MB after 700 and 33 MB after 1,200 (docs/benchmarks.md, "Walks opened and disposed").
      for (let i = 0; i < 1000; i++) await walkOnce(walker, i);
      const before = settled();
      for (let i = 1000; i < 2000; i++) await walkOnce(walker, i);
      const after = settled();
      expect((after.heap - before.heap) / MB).toBeLessThan(20);
      expect((after.rss - before.rss) / MB).toBeLessThan(20);
    } finally {
      walker.dispose();
    }
  }, 120_000);

  it("gives a walk's WebAssembly memory back at dispose, while the walk object is still held", async () => {
    const walker = await Walker.create(builtinPlugins());
    // Held on purpose: a disposed walk that kept its module would leave the pool to make a 16 MiB memory per walk.
    const kept: Machine[] = [];
    try {
      for (let i = 0; i < 10; i++) kept.push(await walkOnce(walker, i));
      const before = settled().external;
      for (let i = 10; i < 210; i++) kept.push(await walkOnce(walker, i));
      expect((settled().external - before) / MB).toBeLessThan(20);
    } finally {
      walker.dispose();
    }
  }, 120_000);

  it('keeps heap and RSS flat within 20 MB over 200 walkers made, walked and disposed', async () => {
    for (let i = 0; i < 20; i++) (await walkerCycle(i)).dispose();
    const before = settled();
    for (let i = 20; i < 220; i++) (await walkerCycle(i)).dispose();
    const after = settled();
    expect((after.heap - before.heap) / MB).toBeLessThan(20);
    expect((after.rss - before.rss) / MB).toBeLessThan(20);
  }, 120_000);

  it("gives a walker's spare WebAssembly memories back at dispose, while the walker object is still held", async () => {
    // Held on purpose: each walker's engine makes three 16 MiB memories ahead of its walks, which only
    // dispose lets go of while the walker is referenced (a service that keeps a walker per tenant).
    const kept: Walker[] = [];
    for (let i = 0; i < 5; i++) kept.push(await walkerCycle(i));
    kept.forEach((walker) => walker.dispose());
    const before = settled().external;
    for (let i = 5; i < 45; i++) {
      const walker = await walkerCycle(i);
      walker.dispose();
      kept.push(walker);
    }
    expect((settled().external - before) / MB).toBeLessThan(20);
  }, 120_000);

  it('refuses a walk after dispose, and lets the walks already open go on', async () => {
    const walker = await Walker.create(builtinPlugins());
    const open = await walker.open({ model: MODEL, seed: 7, generator: 'random(edge_coverage(100))' });
    const loaded = await walker.read(LOGIN);
    walker.dispose();
    walker.dispose();
    await expect(walker.open({ model: MODEL, seed: 8 })).rejects.toMatchObject({
      code: ErrorCodes.DISPOSED,
      message: 'This Walker was disposed: make a new one with Walker.create to open more walks.',
    });
    expect(() => walker.walk(loaded)).toThrow(expect.objectContaining({ code: ErrorCodes.DISPOSED }));
    let steps = 0;
    for (const _step of open) steps++;
    expect(steps).toBeGreaterThan(0);
    expect(open.statistics().edgeCoverage).toBe(100);
    open.dispose();
  });

  it('shows a walk to a test runner as its seed and steps, not as its WebAssembly memory', async () => {
    const walker = await Walker.create(builtinPlugins());
    const walk = await walker.open({ model: MODEL, seed: 3, generator: 'random(length(4))' });
    try {
      for (const _step of walk);
      expect(JSON.parse(JSON.stringify(walk))).toEqual({ seed: 3, steps: 4 });
      // A walk that opened where a test awaited a refusal is printed in the runner's diff, formatted as vitest
      // formats values (depth 10): that text was gigabytes once, and the worker died of it.
      expect(format(walk, { maxDepth: 10 })).toBe('Object {\n  "seed": 3,\n  "steps": 4,\n}');
    } finally {
      walk.dispose();
      walker.dispose();
    }
  });
});
