import { describe, expect, it } from 'vitest';
import type { ModelFileJson } from '../../../../core/model/types.js';
import { dotFormat } from '../../../../plugins/formats/dot/index.js';
import { LINEAR_RATIO, timeGrowth } from '../../../support/growth.js';

const write = dotFormat.write as NonNullable<typeof dotFormat.write>;

describe('DOT', () => {
  it('draws a name the label grammar would read as more than a name as a JSON string, and a plain name as it is', () => {
    const file: ModelFileJson = {
      models: [
        {
          id: 'm',
          name: 'm',
          vertices: [
            { id: 'a', name: 'v_Home SHARED: HOME' },
            { id: 'Start', name: 'v_Plain', sharedState: 'S 1' },
          ],
          edges: [
            { id: 'e0', name: 'e_Logout [false]', targetVertexId: 'a' },
            { id: 'e1', name: 'e_Quit / signedIn = true;', sourceVertexId: 'a', targetVertexId: 'Start', guard: 'ok', actions: ['x++;'] },
          ],
        },
      ],
    };
    expect(write(file)).toBe(
      [
        'digraph "m" {',
        '  "a" [label="\\"v_Home SHARED: HOME\\""];',
        '  "Start" [label="v_Plain\\nSHARED: \\"S 1\\""];',
        // A vertex has the id Start: the start point takes another.
        '  "Start_" [label="Start", shape=point];',
        '  "Start_" -> "a" [label="\\"e_Logout [false]\\""];',
        '  "a" -> "Start" [label="\\"e_Quit / signedIn = true;\\"\\n[ok]\\n/x++;"];',
        '}',
        '',
      ].join('\n'),
    );
  });

  it('joins the vertices of a shared state in time proportional to their number', () => {
    const sharing = (n: number): ModelFileJson => ({
      models: [
        { id: 'm1', vertices: Array.from({ length: n }, (_, i) => ({ id: `v${i}`, name: `v_${i}`, sharedState: 'S' })), edges: [] },
        { id: 'm2', vertices: [{ id: 'w', name: 'v_W', sharedState: 'S' }], edges: [] },
      ],
    });
    expect(write(sharing(2))).toContain('  "m1/v0" -> "m2/w" [style=dashed, dir=none, constraint=false, label="S"];');
    // Old code copied the list of the state's vertices for each vertex: 20,000 and 40,000 took 6.9 s and 35 s.
    const timing = timeGrowth(sharing, write, 10_000);
    expect(timing.ratio, JSON.stringify(timing)).toBeLessThan(LINEAR_RATIO);
  }, 60_000);
});
