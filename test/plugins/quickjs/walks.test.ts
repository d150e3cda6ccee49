import { describe, expect, it } from 'vitest';
import { ScriptError } from '../../../core/errors.js';
import type { ModelFileJson } from '../../../core/model/types.js';
import type { ScriptLimits } from '../../../core/scripting.js';
import { Walker } from '../../../core/walker.js';
import { builtinPlugins } from '../../../plugins/index.js';

/** Busy for `ms` milliseconds of the host's clock: a script that is slow, but under the time limit. */
const SPIN = 'spin = function (ms) { var end = Date.now() + ms; while (Date.now() < end) {} return true; };';

/** A hub with three guarded edges out to spokes, and back; the way back logs the time. */
function hub(guard: (spoke: number) => string, generator = 'random(length(12))'): ModelFileJson {
  const spokes = [1, 2, 3];
  return {
    models: [
      {
        id: 'hub',
        generator,
        startElementId: 'e0',
        actions: [SPIN],
        vertices: [{ id: 'h' }, ...spokes.map((i) => ({ id: `s${i}` }))],
        edges: [
          { id: 'e0', targetVertexId: 'h', actions: ['log = [];'] },
          ...spokes.map((i) => ({ id: `out${i}`, sourceVertexId: 'h', targetVertexId: `s${i}`, guard: guard(i) })),
          ...spokes.map((i) => ({ id: `back${i}`, sourceVertexId: `s${i}`, targetVertexId: 'h', actions: ['log.push(Date.now());'] })),
        ],
      },
    ],
  };
}

async function walkAll(model: ModelFileJson, seed: number, limits: Partial<ScriptLimits> = {}): Promise<{ path: string[]; data: string }> {
  const walker = await Walker.create(builtinPlugins({ scriptLimits: limits }));
  const walk = await walker.open({ model, seed });
  try {
    return { path: [...walk].map((step) => step.id), data: walk.data() };
  } finally {
    walk.dispose();
  }
}

describe('QuickJS in a walk', () => {
  it('replays guards that read the clock from the seed, a second per step', async () => {
    const timed = hub((i) => `new Date().getUTCSeconds() % 3 === ${i - 1}`, 'random(length(30))');
    const first = await walkAll(timed, 2024);
    expect(await walkAll(timed, 2024)).toEqual(first);
    const times = /log=\[(.*)\]/.exec(first.data)?.[1].split(',').map(Number) ?? [];
    // The clock starts at 2024-01-01T00:00:00Z plus the seed in seconds (below a year), and the first way
    // back is the fifth step (e0, h, out, spoke, back); every round after it takes four.
    expect(times[0]).toBe(Date.UTC(2024, 0, 1) + 2024 * 1000 + 5 * 1000);
    for (let i = 1; i < times.length; i++) expect(times[i] - times[i - 1]).toBe(4000);
  });

  it('gives each step of a walk driven in one go a budget of its own', async () => {
    // About 90 ms of guards a step, 1 s for the walk. Each read of the host's clock stops a script that passed
    // the budget, so a busy machine's stalls inside a step count at once: 400 ms leave each step room for them.
    const slow = hub(() => 'spin(30)');
    const { path } = await walkAll(slow, 1, { budgetMs: 400, realClock: true });
    expect(path).toHaveLength(12);
  });

  it('stops a step whose guards together exceed the budget, naming the budget and a guard', async () => {
    const slower = hub(() => 'spin(60)');
    const error = await walkAll(slower, 1, { budgetMs: 150, realClock: true }).catch((thrown: unknown) => thrown);
    expect(error).toBeInstanceOf(ScriptError);
    expect((error as ScriptError).message).toMatch(/^model 'hub', element 'out\d', guard: Scripts of one request exceeded the time budget of 150 ms$/);
  });

  it('stops a load whose model actions together exceed the budget', async () => {
    const model = hub(() => 'true');
    model.models[0].actions = [SPIN, 'spin(60);', 'spin(60);', 'spin(60);'];
    const walker = await Walker.create(builtinPlugins({ scriptLimits: { budgetMs: 150, realClock: true } }));
    await expect(walker.open({ model, seed: 1 })).rejects.toThrow("model 'hub', model actions: Scripts of one request exceeded the time budget of 150 ms");
  });
});
