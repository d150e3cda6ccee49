import { describe, expect, it } from 'vitest';
import type { JournalRecord } from '../../core/journal.js';
import { createRegistries, installPlugins } from '../../core/plugin.js';
import { ExecutionSession, replayJournal } from '../../core/session.js';
import { Walker } from '../../core/walker.js';
import { generatorsPlugin } from '../../plugins/generators/index.js';
import { stopConditionsPlugin } from '../../plugins/conditions/index.js';
import { builtinPlugins } from '../../plugins/index.js';
import { vmEngine } from '../support/vm-engine.js';
import { loop } from '../server/models.js';

async function session(journal: boolean): Promise<ExecutionSession> {
  const registries = createRegistries();
  const vm = { meta: { name: 'vm', version: '0' }, setup: (r: typeof registries) => r.scriptEngines.register(vmEngine()) };
  await installPlugins(registries, [generatorsPlugin(), stopConditionsPlugin(), vm]);
  return new ExecutionSession(new Walker(registries), { journal });
}

/** A walk rebuilt from a journal in a fresh session, as a worker thread rebuilds it. */
async function rebuilt(record: JournalRecord): Promise<{ copy: ExecutionSession; fingerprint: number }> {
  const copy = await session(false);
  const options = { ...record.start.options, seed: record.start.seed };
  if ('text' in record.start.source) copy.load(record.start.source.text, options);
  else copy.loadModel(record.start.source.value, options);
  return { copy, fingerprint: replayJournal(copy, record) };
}

describe('the journal of a walk', () => {
  it('rebuilds the very walk: same fingerprint, variables, statistics and next steps', async () => {
    const original = await session(true);
    original.load(JSON.stringify(loop('random(never)')));
    for (let i = 0; i < 7; i++) original.next();
    original.setData('count = 40;');
    expect(() => original.setData('nope(')).toThrow();
    original.hasNext();
    original.variables();
    for (let i = 0; i < 5; i++) original.next();
    original.fail('flaky');
    const record = original.journal?.snapshot() as JournalRecord;
    expect(Array.from(record.ops)).toEqual([2, 2, 2, 2, 2, 2, 2, 4, 4, 1, 3, 2, 2, 2, 2, 2, 6]);
    expect(record.texts).toEqual(['count = 40;', 'nope(', 'flaky']);

    const { copy, fingerprint } = await rebuilt(record);
    expect(fingerprint).toBe(record.fingerprint);
    expect(copy.variables()).toEqual(original.variables());
    expect(copy.statistics()).toEqual(original.statistics());
    expect(copy.hasNext()).toBe(original.hasNext());
  });

  it('tells a replay that went elsewhere by its fingerprint', async () => {
    const original = await session(true);
    original.load(JSON.stringify(loop('random(never)', 1)));
    for (let i = 0; i < 20; i++) original.next();
    const record = original.journal?.snapshot() as JournalRecord;
    const elsewhere = { ...record, start: { ...record.start, seed: record.start.seed + 1 } };
    const steps = (s: JournalRecord) => rebuilt(s).then((r) => r.fingerprint);
    expect(await steps(record)).toBe(record.fingerprint);
    expect(await steps(elsewhere)).not.toBe(record.fingerprint);
  });

  it('starts afresh at a load and at a restart, and records nothing for a walk it cannot replay', async () => {
    const original = await session(true);
    expect(original.journal?.snapshot()).toBeUndefined();
    original.load(JSON.stringify(loop('random(never)', 3)));
    original.next();
    original.restart();
    expect(original.journal?.snapshot()?.ops).toEqual(new Uint8Array([]));
    original.next();
    original.loadModel(loop('random(never)', 4));
    const record = original.journal?.snapshot() as JournalRecord;
    expect(record.ops).toEqual(new Uint8Array([]));
    expect(record.start).toEqual({ source: { value: loop('random(never)', 4) }, options: {}, seed: 4 });
    original.open(await loaded(), {});
    expect(original.journal?.snapshot()).toBeUndefined();
  });

  it('leaves out a script a time limit cut short, whose work depends on the machine’s pace, and restores the walk without it', async () => {
    // Replayed, `n` would count to another number under the same fingerprint, and the replay would take the
    // whole limit again while the request that waits for it waits too.
    const walker = await Walker.create(builtinPlugins({ scriptLimits: { timeoutMs: 20 } }));
    const original = new ExecutionSession(walker, { journal: true });
    original.load(JSON.stringify(loop('random(never)', 2)));
    original.next();
    original.setData('n = 5;');
    const variablesBefore = original.variables();
    const before = original.journal?.snapshot() as JournalRecord;
    expect(() => original.setData('n = n + 1; count = Math.random(); for (;;) n++;')).toThrow('Script exceeded the time limit of 20 ms');
    expect(original.journal?.cutShort).toBe(true);
    // The journal still holds the walk as it was before the cut request.
    expect(original.journal?.snapshot()).toEqual(before);
    original.restore();
    expect(original.journal?.cutShort).toBe(false);
    const variablesAfter = original.variables();
    expect(variablesAfter).toEqual(variablesBefore);
    expect(new Map(variablesAfter).get('n')).toBe('5');
    // Recording goes on from there, and a rebuild from it arrives where the walk is.
    original.next();
    const record = original.journal?.snapshot() as JournalRecord;
    expect(Array.from(record.ops)).toEqual([2, 4, 3, 3, 2]);
    const { copy, fingerprint } = await rebuilt(record);
    expect(fingerprint).toBe(record.fingerprint);
    expect(copy.variables()).toEqual(original.variables());
    original.dispose();
  });

  it('rebuilds no walk once anything was asked of a walk a script cut short, until the next restart', async () => {
    const walker = await Walker.create(builtinPlugins({ scriptLimits: { timeoutMs: 20 } }));
    const original = new ExecutionSession(walker, { journal: true });
    original.load(JSON.stringify(loop('random(never)', 2)));
    original.next();
    expect(() => original.setData('n = 0; for (;;) n++;')).toThrow('Script exceeded the time limit of 20 ms');
    original.next();
    expect(original.journal?.cutShort).toBe(true);
    expect(original.journal?.snapshot()).toBeUndefined();
    expect(() => original.restore()).toThrow('its journal does not hold the walk as it was');
    original.restart();
    original.next();
    expect(original.journal?.cutShort).toBe(false);
    expect(original.journal?.snapshot()?.ops).toEqual(new Uint8Array([2]));
    original.dispose();
  });
});

/** A loaded model file, for the open without a source. */
async function loaded() {
  const s = await session(false);
  s.load(JSON.stringify(loop()));
  if (s.model === undefined) throw new Error('no model');
  return s.model;
}
