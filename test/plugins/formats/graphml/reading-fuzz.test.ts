import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { WalkerError } from '../../../../core/errors.js';
import { graphmlFormat } from '../../../../plugins/formats/graphml/index.js';
import { LINEAR_RATIO, timeGrowth } from '../../../support/growth.js';
import { documentOf, PARTS } from './yed-documents.js';

/** Reads a document as a load does; a refusal is an answer like any other, and costs its time too. */
function read(text: string): void {
  try {
    (graphmlFormat.read as NonNullable<typeof graphmlFormat.read>)(text, { path: 'm.graphml' });
  } catch (error) {
    if (!(error instanceof WalkerError)) throw error;
  }
}

// A part at this scale takes some 15 ms to read: enough to measure, few enough to measure many mixes.
const SCALE = 1_000;

describe('reading GraphML, fuzzed for scaling', () => {
  it('takes at most about twice the time for any mix of parts twice as large', () => {
    const mixes = fc.uniqueArray(fc.constantFrom(...Object.keys(PARTS)), { minLength: 1, maxLength: 3 });
    fc.assert(
      fc.property(mixes, (parts) => {
        const timing = timeGrowth((s) => documentOf(parts, s), read, SCALE, { rounds: 3 });
        expect(timing.ratio, `${parts.join(', ')}: ${JSON.stringify(timing)}`).toBeLessThan(LINEAR_RATIO);
      }),
      { numRuns: 12 },
    );
  }, 300_000);
});
