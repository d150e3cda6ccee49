import { describe, expect, it } from 'vitest';
import { ErrorCodes } from '../../core/errors.js';
import { loadModelFile } from '../../core/model/load.js';
import { DEFAULT_SCRIPT_LIMITS } from '../../core/scripting.js';
import { DEFAULT_WALK_SETTINGS, walkSettings, withoutWalkSettings } from '../../core/walk-settings.js';
import { Walker } from '../../core/walker.js';
import { testRegistries } from '../support/walkers.js';

const ring = {
  models: [
    {
      id: 'ring',
      generator: 'first(length(3))',
      startElementId: 'a',
      vertices: [{ id: 'a', name: 'v_A' }],
      edges: [{ id: 'e', name: 'e_Loop', sourceVertexId: 'a', targetVertexId: 'a' }],
    },
  ],
};

/** What a refusal of a wrong setting is: a generator error, with the message given. */
const refused = (message: string) => expect.objectContaining({ code: ErrorCodes.GENERATOR_INVALID, message });

describe('walkSettings', () => {
  it('fills every default, and keeps a fixed seed only when one is given', () => {
    expect(walkSettings()).toEqual(DEFAULT_WALK_SETTINGS);
    expect(DEFAULT_WALK_SETTINGS).toEqual({ blocked: true, scriptLimits: DEFAULT_SCRIPT_LIMITS, planStates: 100_000, planTimeMs: 10_000 });
    expect('seed' in walkSettings({})).toBe(false);
    expect(walkSettings({ seed: 0 }).seed).toBe(0);
  });

  it('takes script limits field by field; a field given as undefined (an option not given) keeps its default', () => {
    const settings = walkSettings({ scriptLimits: { timeoutMs: 50, budgetMs: undefined, realClock: true }, planStates: undefined, blocked: false });
    expect(settings).toEqual({
      blocked: false,
      scriptLimits: { ...DEFAULT_SCRIPT_LIMITS, timeoutMs: 50, realClock: true },
      planStates: 100_000,
      planTimeMs: 10_000,
    });
    // Built once, a value is handed on whole: building it again changes nothing.
    expect(walkSettings(settings)).toEqual(settings);
  });

  it('refuses a planning bound that is no whole number of states, or a safety stop that is not above 0, naming the field', () => {
    for (const planStates of [-1, 1.5, Number.NaN]) {
      expect(() => walkSettings({ planStates })).toThrow(refused(`planStates must be a whole number of states, 0 or more; got ${planStates}.`));
    }
    for (const planTimeMs of [0, -5, Number.NaN]) {
      expect(() => walkSettings({ planTimeMs })).toThrow(refused(`planTimeMs must be a number of milliseconds above 0; got ${planTimeMs}.`));
    }
    expect(walkSettings({ planStates: 0, planTimeMs: 0.5 })).toMatchObject({ planStates: 0, planTimeMs: 0.5 });
  });

  it('leaves the other fields of a larger options value with withoutWalkSettings', () => {
    const options = { seed: 3, blocked: false, scriptLimits: {}, planStates: 1, planTimeMs: 2, nodeId: 'a', maxModelBytes: 9 };
    expect(withoutWalkSettings(options)).toEqual({ nodeId: 'a', maxModelBytes: 9 });
  });

  it('is the one check a walk is opened with: a wrong value is refused before the walk opens', async () => {
    const walker = new Walker(await testRegistries());
    const loaded = loadModelFile(ring);
    expect(() => walker.walk(loaded, { planStates: -1 })).toThrow(refused('planStates must be a whole number of states, 0 or more; got -1.'));
    // A whole value walks as its fields given one by one would.
    const walk = walker.walk(loaded, { ...walkSettings({ seed: 7, planStates: 0 }) });
    try {
      expect(walk.seed).toBe(7);
      const path: string[] = [];
      while (walk.hasNext()) path.push(walk.next().id);
      expect(path).toEqual(['a', 'e', 'a']);
    } finally {
      walk.dispose();
    }
  });
});
