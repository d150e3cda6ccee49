import { describe, expect, it } from 'vitest';
import type { ModelFileJson } from '../../../../core/model/types.js';
import { dotFormat } from '../../../../plugins/formats/dot/index.js';
import { LINEAR_RATIO, timeDoubling } from '../../../support/scaling.js';

const write = dotFormat.write as NonNullable<typeof dotFormat.write>;

describe('DOT', () => {
  it('joins the vertices of a shared state in time proportional to their number', () => {
    const sharing = (n: number): ModelFileJson => ({
      models: [
        { id: 'm1', vertices: Array.from({ length: n }, (_, i) => ({ id: `v${i}`, name: `v_${i}`, sharedState: 'S' })), edges: [] },
        { id: 'm2', vertices: [{ id: 'w', name: 'v_W', sharedState: 'S' }], edges: [] },
      ],
    });
    expect(write(sharing(2))).toContain('  "m1/v0" -> "m2/w" [style=dashed, dir=none, constraint=false, label="S"];');
    // Old code copied the list of the state's vertices for each vertex: 20,000 and 40,000 took 6.9 s and 35 s.
    const timing = timeDoubling(sharing, write, 10_000);
    expect(timing.ratio, JSON.stringify(timing)).toBeLessThan(LINEAR_RATIO);
  }, 60_000);
});
