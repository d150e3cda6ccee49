import { describe, expect, it } from 'vitest';
import { ErrorCodes, WalkerError } from '../../core/errors.js';
import { createRegistries, installPlugins } from '../../core/plugin.js';
import { ExecutionSession, NOT_LOADED_MESSAGE } from '../../core/session.js';
import { Walker } from '../../core/walker.js';
import { generatorsPlugin } from '../../plugins/generators/index.js';
import { stopConditionsPlugin } from '../../plugins/conditions/index.js';
import { vmEngine } from '../support/vm-engine.js';
import { deadEnd, loop, withoutGenerator } from './models.js';

/** A session on the real generators and conditions, with the node:vm engine: no QuickJS needed. */
async function session(defaults: ConstructorParameters<typeof ExecutionSession>[1] = {}): Promise<ExecutionSession> {
  const registries = createRegistries();
  const vm = { meta: { name: 'vm', version: '0' }, setup: (r: typeof registries) => r.scriptEngines.register(vmEngine()) };
  await installPlugins(registries, [generatorsPlugin(), stopConditionsPlugin(), vm]);
  return new ExecutionSession(new Walker(registries), defaults);
}

function path(s: ExecutionSession): string[] {
  return [...s.machine].map((step) => step.id);
}

describe('ExecutionSession', () => {
  it('answers NOT_LOADED before the first load', async () => {
    const s = await session();
    expect(s.loaded).toBe(false);
    expect(() => s.machine).toThrowError(new WalkerError(ErrorCodes.NOT_LOADED, NOT_LOADED_MESSAGE));
  });

  it('loads model text and reports the seed that replays the walk', async () => {
    const s = await session();
    const { seed } = s.load(JSON.stringify(loop()));
    const first = path(s);
    const again = await session();
    again.load(JSON.stringify(loop()));
    expect(again.machine.seed).not.toBeUndefined();
    const replay = await session({ seed });
    replay.load(JSON.stringify(loop()));
    expect(path(replay)).toEqual(first);
  });

  it('takes the seed from the options first, then from the model file', async () => {
    const s = await session({ seed: 7 });
    expect(s.load(JSON.stringify(loop(undefined, 99))).seed).toBe(7);
    const t = await session();
    expect(t.load(JSON.stringify(loop(undefined, 99))).seed).toBe(99);
  });

  it('keeps the previous walk when a load fails', async () => {
    const s = await session();
    s.load(JSON.stringify(loop()));
    const before = s.machine;
    before.next();
    expect(() => s.load(JSON.stringify(withoutGenerator()))).toThrow('Model has no generator specified');
    expect(() => s.load('{ not json')).toThrow(WalkerError);
    expect(s.machine).toBe(before);
    expect(s.machine.steps).toBe(1);
  });

  it('disposes the replaced machine', async () => {
    const s = await session();
    s.load(JSON.stringify(loop()));
    const old = s.machine;
    let disposed = false;
    const dispose = old.dispose.bind(old);
    old.dispose = () => {
      disposed = true;
      dispose();
    };
    s.load(JSON.stringify(deadEnd()));
    expect(disposed).toBe(true);
    expect(s.machine === old).toBe(false);
  });

  it('uses the generators given per model instead of the file’s', async () => {
    const s = await session();
    s.load(JSON.stringify(loop()), { generators: ['random(length(4))'] });
    expect(path(s)).toHaveLength(4);
  });
});
