import { describe, expect, it } from 'vitest';
import { collectModelIssues, type ModelFileJson } from '../../../core/model/index.js';

/**
 * Normalises a file that must have no issues but unnamed vertices (the files here leave vertices unnamed for
 * brevity, which is a warning of its own) and the `also` ones, and returns the result.
 */
function normalise(value: unknown, options?: { blocked?: boolean }, also: readonly string[] = []): ModelFileJson {
  const { file, issues } = collectModelIssues(value, options);
  expect(issues.filter((i) => i.code !== 'unnamed_vertex' && !also.includes(i.code))).toEqual([]);
  return file!;
}

/** Models that only give ids something to do are never entered: neither start element nor shared state. */
const NEVER_ENTERED = ['no_start_nor_shared_state'];

/** One model around the given elements, started by its first edge. */
function oneModel(model: Record<string, unknown>): unknown {
  return { models: [{ id: 'M', startElementId: 'e0', ...model }] };
}

const twoVertices = [{ id: 'v1' }, { id: 'v2' }];
const ring = [
  { id: 'e0', targetVertexId: 'v1' },
  { id: 'e1', sourceVertexId: 'v1', targetVertexId: 'v2' },
  { id: 'e2', sourceVertexId: 'v2', targetVertexId: 'v1' },
];

describe('normalisation of what GraphWalker accepts', () => {
  it('keeps a canonical file as it is', () => {
    const file: ModelFileJson = {
      name: 'Project',
      seed: 42,
      models: [
        {
          id: 'M',
          name: 'Login',
          generator: 'random(edge_coverage(100))',
          startElementId: 'e0',
          actions: ['x = 0;'],
          requirements: ['REQ-1'],
          properties: { color: 'grey' },
          vertices: [
            { id: 'v1', name: 'v_One', sharedState: 'S', actions: ['y = 1;'], requirements: ['R2'], properties: {} },
            { id: 'v2', name: 'v_Two' },
          ],
          edges: [
            { id: 'e0', name: 'e_Init', targetVertexId: 'v1', weight: 0.5, dependency: 80 },
            { id: 'e1', sourceVertexId: 'v1', targetVertexId: 'v2', guard: 'x > 0', actions: ['x++;'] },
            { id: 'e2', sourceVertexId: 'v2', targetVertexId: 'v1', requirements: ['R3'], properties: { p: 1 } },
          ],
          predefinedPathEdgeIds: ['e0', 'e1', 'e2'],
        },
      ],
    };
    expect(normalise(structuredClone(file))).toStrictEqual(file);
  });

  it('ignores unknown members at every level', () => {
    const file = normalise({
      extra: true,
      models: [{ id: 'M', startElementId: 'e0', colour: 1, vertices: [{ id: 'v1', x: 1 }], edges: [{ id: 'e0', targetVertexId: 'v1', y: [] }] }],
    });
    expect(file).toStrictEqual({
      models: [{ id: 'M', startElementId: 'e0', vertices: [{ id: 'v1' }], edges: [{ id: 'e0', targetVertexId: 'v1' }] }],
    });
  });

  it('treats missing vertices and edges lists as empty', () => {
    const file = normalise({ models: [{ id: 'M', startElementId: 'v1', vertices: [{ id: 'v1' }] }] });
    expect(file.models[0].edges).toStrictEqual([]);
  });

  it('reads properties given as [] as an empty object', () => {
    const file = normalise(oneModel({ properties: [], vertices: [{ id: 'v1', properties: [] }], edges: [{ id: 'e0', targetVertexId: 'v1', properties: [] }] }));
    expect(file.models[0].properties).toStrictEqual({});
    expect(file.models[0].vertices[0].properties).toStrictEqual({});
    expect(file.models[0].edges[0].properties).toStrictEqual({});
  });

  it('reads numbers written as numeric strings', () => {
    const file = normalise({
      seed: '16436238642755',
      models: [{ id: 'M', startElementId: 'e0', vertices: [{ id: 'v1' }], edges: [{ id: 'e0', targetVertexId: 'v1', dependency: '100', weight: ' 0.5 ' }] }],
    });
    expect(file.seed).toBe(16436238642755);
    expect(file.models[0].edges[0]).toStrictEqual({ id: 'e0', targetVertexId: 'v1', weight: 0.5, dependency: 100 });
  });

  it('reads numbers and booleans in string fields as their text, as Gson does', () => {
    const file = normalise(oneModel({ name: 7, vertices: [{ id: 1, name: true }], edges: [{ id: 'e0', targetVertexId: 1 }] }));
    expect(file.models[0].name).toBe('7');
    expect(file.models[0].vertices[0]).toStrictEqual({ id: '1', name: 'true' });
    expect(file.models[0].edges[0].targetVertexId).toBe('1');
  });

  it.each([null, ''])('reads sourceVertexId %j as a start edge', (source) => {
    const file = normalise(oneModel({ vertices: [{ id: 'v1' }], edges: [{ id: 'e0', sourceVertexId: source, targetVertexId: 'v1' }] }));
    expect(file.models[0].edges[0]).toStrictEqual({ id: 'e0', targetVertexId: 'v1' });
  });

  it.each([null, '', '   '])('reads guard %j as no guard', (guard) => {
    const file = normalise(oneModel({ vertices: [{ id: 'v1' }], edges: [{ id: 'e0', targetVertexId: 'v1', guard }] }));
    expect(file.models[0].edges[0]).not.toHaveProperty('guard');
  });

  it('reads null for any optional field as absent', () => {
    const file = normalise({
      name: null,
      seed: null,
      models: [
        {
          id: 'M', name: null, generator: null, startElementId: 'e0', actions: null, requirements: null, properties: null,
          predefinedPathEdgeIds: null,
          vertices: [{ id: 'v1', name: null, sharedState: null, actions: null, requirements: null, properties: null }],
          edges: [{ id: 'e0', name: null, targetVertexId: 'v1', weight: null, dependency: null, guard: null }],
        },
      ],
    });
    expect(file).toStrictEqual({
      models: [{ id: 'M', startElementId: 'e0', vertices: [{ id: 'v1' }], edges: [{ id: 'e0', targetVertexId: 'v1' }] }],
    });
  });

  it('drops an empty shared state but keeps an empty name', () => {
    const file = normalise(oneModel({ vertices: [{ id: 'v1', name: '', sharedState: '' }], edges: [{ id: 'e0', targetVertexId: 'v1' }] }));
    expect(file.models[0].vertices[0]).toStrictEqual({ id: 'v1', name: '' });
  });

  it('keeps requirements of models, vertices and edges', () => {
    const file = normalise(
      oneModel({ requirements: ['A'], vertices: [{ id: 'v1', requirements: ['B'] }], edges: [{ id: 'e0', targetVertexId: 'v1', requirements: ['C', 'D'] }] }),
    );
    expect(file.models[0].requirements).toEqual(['A']);
    expect(file.models[0].vertices[0].requirements).toEqual(['B']);
    expect(file.models[0].edges[0].requirements).toEqual(['C', 'D']);
  });

  it('accepts the same element id in two models', () => {
    const file = normalise({
      models: [
        { id: 'A', startElementId: 'e0', vertices: [{ id: 'v1', sharedState: 'S' }, { id: 'v2' }], edges: ring },
        { id: 'B', vertices: [{ id: 'v1', name: 'v_B1', sharedState: 'S' }], edges: [] },
      ],
    });
    expect(file.models.map((m) => m.vertices[0].id)).toEqual(['v1', 'v1']);
  });

  it('accepts a vertex as start element and weight and dependency at their bounds', () => {
    const edges = [
      { id: 'e1', sourceVertexId: 'v1', targetVertexId: 'v2', weight: 0, dependency: 0 },
      { id: 'e2', sourceVertexId: 'v2', targetVertexId: 'v1', weight: 1, dependency: 100 },
    ];
    const file = normalise({ models: [{ id: 'M', startElementId: 'v1', vertices: twoVertices, edges }] });
    expect(file.models[0].edges.map((e) => [e.weight, e.dependency])).toEqual([[0, 0], [1, 100]]);
  });
});

describe('deterministic ids', () => {
  it('names a model without id after its name, else after its position', () => {
    const file = normalise({
      models: [
        { name: 'Login', startElementId: 'v1', vertices: [{ id: 'v1' }] },
        { vertices: [] },
        { id: '', vertices: [] },
      ],
    }, {}, NEVER_ENTERED);
    expect(file.models.map((m) => m.id)).toEqual(['Login', 'model-1', 'model-2']);
  });

  it('never gives a model an id that another model has or states later', () => {
    const file = normalise({
      models: [
        { name: 'Login', startElementId: 'v1', vertices: [{ id: 'v1' }] },
        { name: 'Login', vertices: [] },
        { id: 'model-3', vertices: [] },
        { vertices: [] },
        { id: 'Login-3', vertices: [] },
      ],
    }, {}, NEVER_ENTERED);
    expect(file.models.map((m) => m.id)).toEqual(['Login', 'Login-2', 'model-3', 'model-3-2', 'Login-3']);
  });

  it('gives elements without id <model>-v<index> and <model>-e<index>, avoiding ids in use', () => {
    const file = normalise({
      models: [
        {
          id: 'M',
          startElementId: 'M-e0-2',
          vertices: [{ name: 'a' }, { id: 'M-e0' }],
          edges: [{ targetVertexId: 'M-v0' }, { id: '', sourceVertexId: 'M-v0', targetVertexId: 'M-e0' }],
        },
      ],
    });
    const model = file.models[0];
    expect(model.vertices.map((v) => v.id)).toEqual(['M-v0', 'M-e0']);
    expect(model.edges.map((e) => e.id)).toEqual(['M-e0-2', 'M-e1']);
  });

  it('gives the same ids on every load', () => {
    const edges = [{ targetVertexId: 'X-v0' }, { sourceVertexId: 'X-v0', targetVertexId: 'X-v1' }];
    const value = { models: [{ name: 'X', startElementId: 'X-e0', vertices: [{}, {}], edges }] };
    expect(normalise(structuredClone(value))).toStrictEqual(normalise(structuredClone(value)));
  });
});
