import { describe, expect, it } from 'vitest';
import type { GraphShape } from '../../server/view/messages.js';
import { arrange } from '../../web/arrange.js';
import { ElementNames } from '../../web/names.js';

/** The scale at which a pane of this width and height shows the whole arrangement. */
function scaleIn(pane: { width: number; height: number }, arranged: { width: number; height: number }): number {
  return Math.min(pane.width / arranged.width, pane.height / arranged.height);
}

describe('the arrangement of several models', () => {
  const five = Array.from({ length: 5 }, () => ({ width: 400, height: 300 }));

  it('puts them in the rows a pane of its shape shows largest, better than any other break', () => {
    for (const pane of [{ width: 2400, height: 400 }, { width: 960, height: 720 }, { width: 500, height: 1600 }]) {
      const chosen = arrange(five, pane.width / pane.height);
      // Every other way to break the rows: one row of all, down to one model a row.
      for (let perRow = 1; perRow <= 5; perRow++) {
        const rows = Math.ceil(5 / perRow);
        const other = { width: 20 + perRow * 400 + (perRow - 1) * 120 + 20, height: 20 + rows * 300 + (rows - 1) * 60 + 20 };
        expect(scaleIn(pane, chosen), `${perRow} a row in ${pane.width} × ${pane.height}`).toBeGreaterThanOrEqual(scaleIn(pane, other) - 1e-9);
      }
    }
  });

  it('puts five models side by side in a wide pane, and one above the other in a tall one', () => {
    const wide = arrange(five, 6);
    expect(new Set(wide.corners.map((c) => c.y)).size).toBe(1);
    const tall = arrange(five, 0.3);
    expect(new Set(tall.corners.map((c) => c.x)).size).toBe(1);
  });
});

describe('the names of elements', () => {
  const graph: GraphShape = {
    size: 7,
    models: [
      {
        id: 'a',
        name: 'Alpha',
        startElement: 2,
        vertices: [
          { index: 0, id: 'v0', name: 'v_Home' },
          { index: 1, id: 'v1', name: '' },
        ],
        edges: [
          { index: 2, id: 'e-start', name: '', source: -1, target: 0 },
          { index: 3, id: 'e-uuid', name: '', source: 0, target: 1 },
        ],
      },
      { id: 'b', startElement: -1, vertices: [{ index: 4, id: 'w0', name: 'v_Home' }], edges: [{ index: 5, id: 'f0', name: 'e_Go', source: 4, target: 4 }, { index: 6, id: 'f1', name: 'e_Go', source: 4, target: 4 }] },
    ],
  };
  const names = new ElementNames(graph);

  it('reads an unnamed edge by the vertices it joins, a start edge from "start", an unnamed vertex by its id', () => {
    expect(names.label(2)).toBe('Alpha › start → v_Home');
    expect(names.label(3)).toBe('Alpha › v_Home → v1');
    expect(names.label(1)).toBe('Alpha › v1');
  });

  it('puts the model first when there are several, by its id when it has no name', () => {
    expect(names.label(0)).toBe('Alpha › v_Home');
    expect(names.label(4)).toBe('b › v_Home');
    expect(new ElementNames({ size: 1, models: [graph.models[1]] }).label(4)).toBe('v_Home');
  });

  it('tells apart by id the elements that read the same', () => {
    expect(names.distinctLabel(5)).toBe('b › e_Go (f0)');
    expect(names.distinctLabel(0)).toBe('Alpha › v_Home');
    expect(names.label(-1)).toBe('–');
  });
});
