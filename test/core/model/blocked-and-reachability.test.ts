import { describe, expect, it } from 'vitest';
import { collectModelIssues, Graph, reachableElements, type ModelFileJson, type ModelIssue } from '../../../core/model/index.js';

/** v1 → v2 → v3 → v1 with start edge e0, and a blocked vertex vb hanging off v2 (eb1 in, eb2 out). */
function blockedModel(changes: Record<string, unknown> = {}): { models: unknown[] } {
  return {
    models: [
      {
        id: 'B',
        startElementId: 'e0',
        vertices: [
          { id: 'v1', name: 'v_1' },
          { id: 'v2', name: 'v_2' },
          { id: 'v3', name: 'v_3' },
          { id: 'vb', properties: { blocked: true } },
        ],
        edges: [
          { id: 'e0', targetVertexId: 'v1' },
          { id: 'e1', sourceVertexId: 'v1', targetVertexId: 'v2' },
          { id: 'eb1', sourceVertexId: 'v2', targetVertexId: 'vb' },
          { id: 'e2', sourceVertexId: 'v2', targetVertexId: 'v3' },
          { id: 'eb2', sourceVertexId: 'vb', targetVertexId: 'v3' },
          { id: 'e3', sourceVertexId: 'v3', targetVertexId: 'v1', properties: { blocked: 'true' } },
          { id: 'e4', sourceVertexId: 'v3', targetVertexId: 'v1', properties: { blocked: false } },
        ],
        ...changes,
      },
    ],
  };
}

/** The issues of one code, as `model/element`. */
function located(issues: readonly ModelIssue[], code: string): string[] {
  return issues.filter((i) => i.code === code).map((i) => `${i.modelId}/${i.elementId}`);
}

function ids(file: ModelFileJson | undefined): string[] {
  const model = file!.models[0];
  return [...model.vertices, ...model.edges].map((element) => element.id);
}

describe('blocked elements', () => {
  it('leaves out blocked elements, a blocked vertex with all its edges', () => {
    const { file, issues } = collectModelIssues(blockedModel());
    expect(issues).toEqual([]);
    expect(ids(file)).toEqual(['v1', 'v2', 'v3', 'e0', 'e1', 'e2', 'e4']);
  });

  it('keeps them all with blocked: false', () => {
    const { file } = collectModelIssues(blockedModel(), { blocked: false });
    expect(ids(file)).toEqual(['v1', 'v2', 'v3', 'vb', 'e0', 'e1', 'eb1', 'e2', 'eb2', 'e3', 'e4']);
  });

  it('does not check the vertex ids of a blocked edge', () => {
    const value = blockedModel();
    (value.models[0] as { edges: unknown[] }).edges.push({ id: 'x', targetVertexId: 'gone', properties: { blocked: true } });
    expect(collectModelIssues(value).issues).toEqual([]);
  });

  it('reports a start element that is left out, and why', () => {
    expect(collectModelIssues(blockedModel({ startElementId: 'eb2' })).issues.map((i) => i.message)).toEqual([
      "model 'B', field 'startElementId': names 'eb2', which is left out of the walk because its source vertex 'vb' " +
        'is blocked; choose another start element or unblock it',
    ]);
    expect(collectModelIssues(blockedModel({ startElementId: 'vb' })).issues.map((i) => i.message)).toEqual([
      "model 'B', field 'startElementId': names 'vb', which is left out of the walk because it is blocked " +
        '(properties.blocked); choose another start element or unblock it',
    ]);
  });

  it('reports a predefined path edge that is left out', () => {
    const { issues } = collectModelIssues(blockedModel({ predefinedPathEdgeIds: ['e0', 'eb1', 'e3'] }));
    expect(issues.map((i) => [i.code, i.field, i.message.split(': ')[1]])).toEqual([
      [
        'unknown_predefined_path_edge',
        'predefinedPathEdgeIds[1]',
        "names 'eb1', which is left out of the walk because its target vertex 'vb' is blocked; choose another " +
          'edge or unblock it',
      ],
      [
        'unknown_predefined_path_edge',
        'predefinedPathEdgeIds[2]',
        "names 'e3', which is left out of the walk because it is blocked (properties.blocked); choose another " +
          'edge or unblock it',
      ],
    ]);
  });
});

describe('reachability', () => {
  it('warns once per element that no start element reaches, vertices then edges, model by model', () => {
    const value = {
      models: [
        {
          id: 'A',
          startElementId: 'e0',
          vertices: [{ id: 'a1' }, { id: 'a2' }, { id: 'a3' }],
          edges: [
            { id: 'e0', targetVertexId: 'a1' },
            { id: 'e1', sourceVertexId: 'a2', targetVertexId: 'a1' },
            { id: 'e2', targetVertexId: 'a3' },
          ],
        },
        { id: 'Z', vertices: [{ id: 'z1' }], edges: [{ id: 'z2', sourceVertexId: 'z1', targetVertexId: 'z1' }] },
      ],
    };
    const { file, issues } = collectModelIssues(value);
    expect(file).toBeDefined();
    const unreachable = issues.filter((i) => i.code === 'unreachable_element');
    expect(unreachable.map((i) => [i.severity, i.code, i.modelId, i.elementId, i.field])).toEqual([
      ['warning', 'unreachable_element', 'A', 'a2', null],
      ['warning', 'unreachable_element', 'A', 'a3', null],
      ['warning', 'unreachable_element', 'A', 'e1', null],
      ['warning', 'unreachable_element', 'A', 'e2', null],
      ['warning', 'unreachable_element', 'Z', 'z1', null],
      ['warning', 'unreachable_element', 'Z', 'z2', null],
    ]);
    expect(unreachable[0].message).toBe(
      "model 'A', vertex 'a2': cannot be reached from any start element (following edges and shared states, " +
        'guards ignored), so the walk never visits it; connect it, or remove it if it is not needed',
    );
  });

  it('follows shared states into models without a start element, and ignores guards', () => {
    const value = {
      models: [
        {
          id: 'A',
          startElementId: 'a1',
          vertices: [{ id: 'a1' }, { id: 'a2', sharedState: 'S' }],
          edges: [{ id: 'g', sourceVertexId: 'a1', targetVertexId: 'a2', guard: 'false' }],
        },
        {
          id: 'B',
          vertices: [{ id: 'b1', sharedState: 'S' }, { id: 'b2' }, { id: 'b3', sharedState: 'T' }],
          edges: [{ id: 'b', sourceVertexId: 'b1', targetVertexId: 'b2' }],
        },
        { id: 'C', vertices: [{ id: 'c1', sharedState: 'T' }], edges: [] },
      ],
    };
    const { issues } = collectModelIssues(value);
    // b3 and c1 share T, but nothing reachable has T.
    expect(located(issues, 'unreachable_element')).toEqual(['B/b3', 'C/c1']);
  });

  it('jumps only between models: two vertices of one model that share a state are not connected by it', () => {
    const value = {
      models: [
        {
          id: 'A',
          startElementId: 'a1',
          vertices: [{ id: 'a1', name: 'v_a1', sharedState: 'S' }, { id: 'a2', name: 'v_a2', sharedState: 'S' }],
          edges: [{ id: 'a', sourceVertexId: 'a2', targetVertexId: 'a1' }],
        },
        {
          id: 'B',
          vertices: [{ id: 'b1', name: 'v_b1', sharedState: 'T' }, { id: 'b2', name: 'v_b2', sharedState: 'T' }],
          edges: [],
        },
      ],
    };
    const { issues } = collectModelIssues(value);
    expect(located(issues, 'unreachable_element')).toEqual(['A/a2', 'A/a', 'B/b1', 'B/b2']);
  });

  it("reaches every other model's vertex of a state, but no unnamed dead end", () => {
    const value = {
      models: [
        { id: 'A', startElementId: 'a1', vertices: [{ id: 'a1', name: 'v_a1', sharedState: 'S' }], edges: [] },
        { id: 'B', vertices: [{ id: 'b1', name: 'v_b1', sharedState: 'S' }, { id: 'b2', sharedState: 'S' }], edges: [] },
        {
          id: 'C',
          vertices: [{ id: 'c1', name: 'v_c1', sharedState: 'S' }, { id: 'c2', name: 'v_c2', sharedState: 'S' }],
          edges: [],
        },
      ],
    };
    const { issues } = collectModelIssues(value);
    // a1 reaches b1, c1 and c2; from them a1 again; b2 has neither name nor out-edge, so no jump lands there.
    expect(located(issues, 'unreachable_element')).toEqual(['B/b2']);
  });

  it('reaches the target of a start element that is an edge, and only that', () => {
    const file: ModelFileJson = {
      models: [
        {
          id: 'M',
          startElementId: 'e1',
          vertices: [{ id: 'v1' }, { id: 'v2' }],
          edges: [
            { id: 'e1', targetVertexId: 'v2' },
            { id: 'e2', targetVertexId: 'v1' },
          ],
        },
      ],
    };
    const graph = new Graph(file);
    expect(Array.from(reachableElements(graph))).toEqual([0, 1, 1, 0]);
  });
});
