import { fileURLToPath } from 'node:url';
import { describe, expect, it } from 'vitest';
import { collectModelIssues, loadModelFile, readModelFile } from '../../../core/model/index.js';
import { withInferredStarts } from '../../../core/model/start-element.js';
import { ErrorCodes, WalkerError } from '../../../core/errors.js';
import { Walker } from '../../../core/walker.js';
import { testRegistries } from '../../support/walkers.js';

const peer = fileURLToPath(new URL('../../fixtures/models/graphwalker/peer/', import.meta.url));

/** A model without startElementId: v_A ⇄ v_B, plus the given extra vertices and edges. */
function unstarted(vertices: unknown[], edges: unknown[], changes: Record<string, unknown> = {}): { models: unknown[] } {
  return {
    models: [
      {
        id: 'M',
        generator: 'first(vertex_coverage(100))',
        vertices: [{ id: 'a', name: 'v_A' }, { id: 'b', name: 'v_B' }, ...vertices],
        edges: [
          { id: 'ab', name: 'e_AB', sourceVertexId: 'a', targetVertexId: 'b' },
          { id: 'ba', name: 'e_BA', sourceVertexId: 'b', targetVertexId: 'a' },
          ...edges,
        ],
        ...changes,
      },
    ],
  };
}

function codes(value: unknown): string[] {
  return collectModelIssues(value).issues.map((i) => `${i.code} ${i.elementId ?? i.field ?? ''}`.trim());
}

describe('the start element of a model that names none', () => {
  it('is its one edge without a source, put where startElementId belongs', () => {
    const { file } = loadModelFile(unstarted([], [{ id: 'init', name: 'e_Init', targetVertexId: 'a' }]));
    expect(file.models[0].startElementId).toBe('init');
    expect(Object.keys(file.models[0])).toEqual(['id', 'generator', 'startElementId', 'vertices', 'edges']);
  });

  it('is its one edge whose source names no vertex, which loses that source', () => {
    const { file, warnings } = loadModelFile(unstarted([], [{ id: 'init', sourceVertexId: 'Start', targetVertexId: 'a' }]));
    expect(file.models[0].startElementId).toBe('init');
    expect(file.models[0].edges[2]).toEqual({ id: 'init', targetVertexId: 'a' });
    expect(warnings).toEqual([]);
  });

  it("is the out-edge of a vertex named 'Start' in any case that nothing enters; the vertex is left out", () => {
    for (const name of ['Start', 'START', 'start']) {
      const value = unstarted([{ id: 's', name }], [{ id: 'go', name: 'e_Go', sourceVertexId: 's', targetVertexId: 'a' }]);
      const { file, graph, warnings } = loadModelFile(value);
      expect(file.models[0].startElementId).toBe('go');
      expect(file.models[0].vertices.map((v) => v.id)).toEqual(['a', 'b']);
      expect(file.models[0].edges[2]).toEqual({ id: 'go', name: 'e_Go', targetVertexId: 'a' });
      // Two vertices to cover, not three: the Start vertex is no state of the system.
      expect(graph.vertexCount).toBe(2);
      expect(warnings).toEqual([]);
    }
  });

  it("walks from the Start vertex's out-edge, and covers every vertex without it", async () => {
    const value = unstarted([{ id: 's', name: 'Start' }], [{ id: 'go', name: 'e_Go', sourceVertexId: 's', targetVertexId: 'a' }]);
    const machine = new Walker(await testRegistries()).walk(loadModelFile(value), { seed: 1 });
    const path: string[] = [];
    while (machine.hasNext()) path.push(machine.next().id);
    // first() takes the first open out-edge; 100 % vertex coverage holds on v_B, the second of two vertices.
    expect(path).toEqual(['go', 'a', 'ab', 'b']);
    expect(machine.statistics().vertexCoverage).toBe(100);
    machine.dispose();
  });

  it("is not inferred from a 'Start' vertex that an edge enters: it is a state like any other", () => {
    const value = unstarted(
      [{ id: 's', name: 'Start' }],
      [
        { id: 'go', sourceVertexId: 's', targetVertexId: 'a' },
        { id: 'back', sourceVertexId: 'b', targetVertexId: 's' },
      ],
    );
    expect(codes(value)).toEqual(['no_start_element']);
  });

  it('is not guessed among several candidates: a warning names them, and the file has no start', () => {
    const value = unstarted(
      [{ id: 's', name: 'Start' }],
      [
        { id: 'go', sourceVertexId: 's', targetVertexId: 'a' },
        { id: 'init', targetVertexId: 'b' },
      ],
    );
    const { issues } = collectModelIssues(value);
    expect(issues.map((i) => [i.severity, i.code])).toEqual([
      ['error', 'no_start_element'],
      ['warning', 'ambiguous_start'],
    ]);
    expect(issues[1].message).toBe(
      "model 'M', field 'startElementId': is not set, and 2 edges could start the walk ('go', 'init'): edges " +
        "without a source or leaving a vertex named 'Start'; set it to the id of the one to start from",
    );
  });

  it("keeps a 'Start' vertex when the model names its start element, as GraphWalker's JSON reader does", () => {
    const value = unstarted(
      [{ id: 's', name: 'Start' }],
      [{ id: 'go', name: 'e_Go', sourceVertexId: 's', targetVertexId: 'a' }],
      { startElementId: 'a' },
    );
    const { file, warnings } = loadModelFile(value);
    expect(file.models[0].vertices.map((v) => v.id)).toEqual(['a', 'b', 's']);
    expect(warnings.map((w) => `${w.code} ${w.elementId}`)).toEqual(['unreachable_element s', 'unreachable_element go']);
  });

  it('ignores blocked candidates', () => {
    const value = unstarted(
      [],
      [
        { id: 'init', targetVertexId: 'a' },
        { id: 'old', targetVertexId: 'b', properties: { blocked: true } },
      ],
    );
    expect(loadModelFile(value).file.models[0].startElementId).toBe('init');
    expect(codes(value)).toEqual([]);
    expect(collectModelIssues(value, { blocked: false }).issues.map((i) => i.code)).toEqual([
      'no_start_element',
      'ambiguous_start',
    ]);
  });
});

describe("GraphWalker's Java test models", () => {
  it("Login loads: its start edge's sourceVertexId 'Start' names no vertex", async () => {
    const { file, graph, warnings } = await readModelFile(`${peer}java-Login.json`);
    expect(graph.models[0].startElement).toBe(graph.elementById(0, 'e0'));
    expect(file.models[0].edges[0]).not.toHaveProperty('sourceVertexId');
    expect([graph.vertexCount, graph.edgeCount]).toEqual([3, 9]);
    expect(warnings).toEqual([]);
  });

  it('SimpleModel loads', async () => {
    const { graph, warnings } = await readModelFile(`${peer}java-SimpleModel.json`);
    expect([graph.vertexCount, graph.edgeCount, graph.models[0].startElement]).toEqual([2, 1, 0]);
    expect(warnings).toEqual([]);
  });
});

describe('a startElementId that names nothing in its own model', () => {
  const linked = (second: Record<string, unknown>) => ({
    models: [
      {
        id: 'A',
        startElementId: 'a1',
        vertices: [{ id: 'a1', name: 'v_A1' }, { id: 'a2', name: 'v_A2', sharedState: 'S' }],
        edges: [{ id: 'a12', name: 'e_A12', sourceVertexId: 'a1', targetVertexId: 'a2' }],
      },
      { id: 'B', startElementId: 'a1', vertices: [{ id: 'b1', name: 'v_B1' }], edges: [], ...second },
    ],
  });

  it('is ignored, with no issue, when the model has a shared state to be entered through', () => {
    const value = linked({ vertices: [{ id: 'b1', name: 'v_B1', sharedState: 'S' }] });
    expect(codes(value)).toEqual([]);
    expect(loadModelFile(value).file.models[1].startElementId).toBeUndefined();
  });

  it('is an error in a model without a shared state, and so is one that names a blocked element', () => {
    expect(codes(linked({}))).toContain('unknown_start_element startElementId');
    const blocked = linked({
      startElementId: 'b2',
      vertices: [{ id: 'b1', name: 'v_B1', sharedState: 'S' }, { id: 'b2', name: 'v_B2', properties: { blocked: true } }],
    });
    expect(codes(blocked)).toContain('unknown_start_element startElementId');
  });
});

describe('--start-element, settled by the load on the elements it keeps', () => {
  const named = (name: string, value: unknown, blocked = true) =>
    loadModelFile(value, { source: 'm.json', startElement: name, blocked }).file.models[0];

  it('replaces startElementId, in its canonical place, and keeps a Start vertex as a model that names its start does', () => {
    const value = unstarted([{ id: 's', name: 'Start' }], [{ id: 'go', name: 'e_Go', sourceVertexId: 's', targetVertexId: 'a' }]);
    const model = named('v_B', value);
    expect([model.startElementId, model.vertices.map((v) => v.id)]).toEqual(['b', ['a', 'b', 's']]);
    expect(Object.keys(model)).toEqual(['id', 'generator', 'startElementId', 'vertices', 'edges']);
    expect(named('e_AB', unstarted([], [], { startElementId: 'a' })).startElementId).toBe('ab');
  });

  it('finds an element without an id of its own by the id the load gives it', () => {
    const value = unstarted([{ name: 'v_New' }], []);
    expect(named('v_New', value).startElementId).toBe('M-v2');
  });

  it('does not find a blocked element, nor an edge of a blocked vertex, unless blocked elements are kept', () => {
    const value = unstarted(
      [{ id: 'c', name: 'v_C', properties: { blocked: true } }],
      [{ id: 'bc', name: 'e_BC', sourceVertexId: 'b', targetVertexId: 'c' }],
    );
    for (const name of ['v_C', 'e_BC']) {
      let thrown: unknown;
      try {
        named(name, value);
      } catch (error) {
        thrown = error;
      }
      expect(thrown).toBeInstanceOf(WalkerError);
      expect([(thrown as WalkerError).code, (thrown as WalkerError).modelId, (thrown as WalkerError).message]).toEqual([
        ErrorCodes.MODEL_INVALID,
        'M',
        `--start-element Did not find matching element in the model: 'm.json'. No vertex or edge of the first model is named '${name}'.`,
      ]);
      expect(named(name, value, false).startElementId).toBe(name === 'v_C' ? 'c' : 'bc');
    }
  });
});

describe('withInferredStarts, for what answers a read model file as it is', () => {
  it('gives each model that names no start the one a load of all its elements takes, and leaves the rest', () => {
    const named = { id: 'N', startElementId: 'x', vertices: [{ id: 's', name: 'Start' }], edges: [{ id: 'x', sourceVertexId: 's', targetVertexId: 's' }] };
    const file = unstarted([{ id: 's', name: 'Start' }], [{ id: 'go', name: 'e_Go', sourceVertexId: 's', targetVertexId: 'a' }]);
    file.models.push(structuredClone(named));
    const answered = withInferredStarts(file);
    expect(answered.models[0]).toMatchObject({ startElementId: 'go', vertices: [{ id: 'a' }, { id: 'b' }] });
    expect(answered.models[0]).toMatchObject({ edges: expect.arrayContaining([{ id: 'go', name: 'e_Go', targetVertexId: 'a' }]) });
    expect(answered.models[1]).toEqual(named);
    // The same start as a load's, which settles it once blocked elements are out.
    expect(loadModelFile(unstarted([{ id: 's', name: 'Start' }], [{ id: 'go', name: 'e_Go', sourceVertexId: 's', targetVertexId: 'a' }])).file.models[0].startElementId).toBe('go');
  });

  it('answers what is no list of drawn models as it is, whatever a lenient file holds', () => {
    for (const value of [null, 5, 'x', {}, { models: 3 }]) expect(withInferredStarts(value)).toEqual(value);
    const odd = { models: [null, { vertices: [{ id: 1, name: 7 }], edges: [null] }, { vertices: [{ id: 1, name: 7 }], edges: [{ id: 2, targetVertexId: 1 }] }] };
    const answered = withInferredStarts(structuredClone(odd));
    expect(answered.models.slice(0, 2)).toEqual(odd.models.slice(0, 2));
    expect(answered.models[2]).toMatchObject({ startElementId: 2 });
  });
});
