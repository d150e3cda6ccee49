import { describe, expect, it } from 'vitest';
import { generateModel } from '../../../core/model/generate.js';
import { loadModelFile } from '../../../core/model/load.js';
import { Graph } from '../../../core/model/graph.js';
import { graphShape } from '../../../core/machine/walk-view.js';
import { serialiseGraph } from '../../../server/view/graph-json.js';
import { eventFrame, jsonOf, jsonWith } from '../../../server/view/frame.js';

describe('serialiseGraph', () => {
  it('writes the JSON of the shape in parts, over several turns of the event loop', async () => {
    const file = generateModel({ vertices: 3_000, edges: 6_000, seed: 21 });
    const shape = graphShape(new Graph(loadModelFile(file).file));
    let turns = 0;
    const counting = setInterval(() => turns++, 0);
    const parts = await serialiseGraph(shape);
    clearInterval(counting);
    expect(JSON.parse(Buffer.concat(parts).toString())).toEqual(JSON.parse(JSON.stringify(shape)));
    // 9,000 elements: parts of a thousand, and the loop turned between them.
    expect(parts.length).toBeGreaterThanOrEqual(9);
    expect(turns).toBeGreaterThan(0);
  });

  it('writes a shape without models, and members besides the models', async () => {
    const shape = { size: 0, models: [] };
    expect(JSON.parse(Buffer.concat(await serialiseGraph(shape)).toString())).toEqual(shape);
  });
});

describe('frames', () => {
  it('place a shared part inside a message, by reference', () => {
    const shared = [Buffer.from('{"a":[1,2]}')];
    const parts = jsonWith({ kind: 'walk', load: 3 }, 'graph', shared, { walk: null });
    expect(JSON.parse(Buffer.concat(parts).toString())).toEqual({ kind: 'walk', load: 3, graph: { a: [1, 2] }, walk: null });
    expect(parts).toContain(shared[0]);
    expect(JSON.parse(Buffer.concat(jsonWith({ kind: 'x' }, 'g', shared, {})).toString())).toEqual({ kind: 'x', g: { a: [1, 2] } });
  });

  it('make one data line of a message, joined when small', () => {
    const frame = eventFrame(jsonOf({ kind: 'gone', message: 'a\nb' }));
    expect(frame).toHaveLength(1);
    expect(frame[0].toString()).toBe('data: {"kind":"gone","message":"a\\nb"}\n\n');
    const large = eventFrame([Buffer.alloc(70_000, 0x20)]);
    expect(large.map((part) => part.length)).toEqual([6, 70_000, 2]);
  });
});
