import { describe, expect, it } from 'vitest';
import { ExecutionSession } from '../../core/session.js';
import { Walker } from '../../core/walker.js';
import { builtinPlugins } from '../../plugins/index.js';
import { loop } from '../server/models.js';

/** A getter that counts its reads in `reads`, then loops until the time limit stops it. */
const FAILING_GETTER =
  'reads = 0; Object.defineProperty(globalThis, "broken", { get() { reads++; for (;;) {} }, enumerable: true, configurable: true });';

describe("a session's picture of its walk", () => {
  it('shows variables that could not be read without reading them again until the walk changes', async () => {
    const walker = await Walker.create(builtinPlugins({ scriptLimits: { timeoutMs: 50 } }));
    const session = new ExecutionSession(walker, { journal: false });
    try {
      session.load(JSON.stringify(loop('random(never)')));
      session.next();
      session.setData(FAILING_GETTER);
      const first = session.view().progress;
      expect(first?.variables).toEqual([]);
      expect(first?.variablesUnavailable).toContain('Script exceeded the time limit of 50 ms');
      for (let i = 0; i < 5; i++) expect(session.view().progress?.variablesUnavailable).toBe(first?.variablesUnavailable);
      session.next();
      session.view();
      // One read for the five pictures of one state, and one after the step.
      session.setData('delete globalThis.broken;');
      expect(session.variables()).toContainEqual(['reads', '2']);
    } finally {
      session.dispose();
      walker.dispose();
    }
  });
});
