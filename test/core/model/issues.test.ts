import { describe, expect, it } from 'vitest';
import { collectModelIssues, ModelIssueCodes, type ModelIssue } from '../../../core/model/index.js';

/** The issues of a value, as `code: message` lines, which show order and wording at a glance. */
function issueLines(value: unknown, options?: { blocked?: boolean }): string[] {
  return collectModelIssues(value, options).issues.map((issue) => `${issue.code}: ${issue.message}`);
}

/** A valid model `M` (v1 ⇄ v2, start edge e0, every vertex named) with the given changes. */
function modelWith(changes: Record<string, unknown> = {}): Record<string, unknown> {
  return {
    id: 'M',
    startElementId: 'e0',
    vertices: [{ id: 'v1', name: 'v1' }, { id: 'v2', name: 'v2' }],
    edges: [
      { id: 'e0', targetVertexId: 'v1' },
      { id: 'e1', sourceVertexId: 'v1', targetVertexId: 'v2' },
      { id: 'e2', sourceVertexId: 'v2', targetVertexId: 'v1' },
    ],
    ...changes,
  };
}

/** modelWith, with one more edge. */
function withEdge(edge: Record<string, unknown>): unknown {
  const model = modelWith();
  return { models: [{ ...model, edges: [...(model.edges as unknown[]), edge] }] };
}

const lead = 'The json file is not a valid GraphWalker model(s) file';

describe('issue codes and messages', () => {
  it.each([
    [42, `${lead}: expected a JSON object with a 'models' array, got 42`],
    [[], `${lead}: expected a JSON object with a 'models' array, got an array`],
    [null, `${lead}: expected a JSON object with a 'models' array, got null`],
    [{ name: 'x' }, `${lead}: it has no 'models' array`],
    [{ models: { a: 1 } }, `${lead}: 'models' must be an array of models, got an object`],
  ])('not_a_model_file for %j', (value, message) => {
    expect(issueLines(value)).toEqual([`not_a_model_file: ${message}`]);
  });

  it('invalid_field names the field, what it must be and what it got', () => {
    const value = {
      name: ['x'],
      seed: -1,
      models: [
        modelWith({ generator: {}, actions: 'x = 1;', requirements: ['a', 3, {}], properties: [1] }),
        'model',
        { id: 'N', vertices: { v: 1 }, edges: [7] },
      ],
    };
    expect(issueLines(value)).toEqual([
      "invalid_field: field 'name': must be a string, got an array",
      "invalid_field: field 'seed': must be a whole number from 0 to 9007199254740991, got -1",
      "invalid_field: model 'M', field 'generator': must be a string, got an object",
      "invalid_field: model 'M', field 'actions': must be a list of strings, got 'x = 1;'",
      "invalid_field: model 'M', field 'requirements[2]': must be a string, got an object",
      "invalid_field: model 'M', field 'properties': must be an object of named values, got an array",
      "invalid_field: field 'models[1]': must be an object, got 'model'",
      "invalid_field: model 'N', field 'vertices': must be a list, got an object",
      "invalid_field: model 'N', field 'edges[0]': must be an object, got 7",
      "no_start_nor_shared_state: model 'N': The model has neither a start element or a defined shared state, so " +
        "the walk never enters it; set its 'startElementId', or give one of its vertices the 'sharedState' of a " +
        'vertex in another model',
    ]);
  });

  it('invalid_field for element fields, and a generated id when the id itself is wrong', () => {
    const model = modelWith();
    const vertices = [{ id: 'v1', name: {}, sharedState: 1.5 }, { id: 'v2', name: 'v2' }, { id: ['x'] }];
    expect(issueLines({ models: [{ ...model, vertices }] })).toEqual([
      "invalid_field: model 'M', vertex 'v1', field 'name': must be a string, got an object",
      "invalid_field: model 'M', field 'vertices[2].id': must be a string, got an array",
      "unnamed_vertex: model 'M', vertex 'M-v2', field 'name': Name of vertex cannot be null; give it a name: " +
        'tests and generated code call a vertex by its name',
    ]);
    expect(issueLines(withEdge({ id: 'e3', targetVertexId: 'v1', sourceVertexId: {}, actions: [null] }))).toEqual([
      "invalid_field: model 'M', edge 'e3', field 'sourceVertexId': must be a string, got an object",
      "invalid_field: model 'M', edge 'e3', field 'actions[0]': must be a string, got null",
    ]);
  });

  it('duplicate_element_id, across vertices and edges of one model', () => {
    const model = modelWith();
    const vertices = [{ id: 'v1', name: 'v1' }, { id: 'v2', name: 'v2' }, { id: 'v1', name: 'v1' }];
    expect(issueLines({ models: [{ ...model, vertices }] })[0]).toBe(
      "duplicate_element_id: model 'M', vertex 'v1', field 'id': Id of the vertex is not unique: 'v1' is already " +
        'the id of a vertex of this model; ' +
        'element ids must be unique within a model',
    );
    expect(issueLines(withEdge({ id: 'v2', sourceVertexId: 'v1', targetVertexId: 'v2' }))).toEqual([
      "duplicate_element_id: model 'M', edge 'v2', field 'id': Id of the edge is not unique: 'v2' is already the " +
        'id of a vertex of this model; ' +
        'element ids must be unique within a model',
    ]);
    expect(issueLines(withEdge({ id: 'e1', sourceVertexId: 'v1', targetVertexId: 'v2' }))).toEqual([
      "duplicate_element_id: model 'M', edge 'e1', field 'id': Id of the edge is not unique: 'e1' is already the " +
        'id of an edge of this model; ' +
        'element ids must be unique within a model',
    ]);
  });

  it.each([
    [{ id: 'e3', sourceVertexId: 'v1' }, 'is missing'],
    [{ id: 'e3', sourceVertexId: 'v1', targetVertexId: null }, 'is missing'],
    [{ id: 'e3', sourceVertexId: 'v1', targetVertexId: '' }, 'is empty'],
  ])('missing_target_vertex for %j', (edge, what) => {
    expect(issueLines(withEdge(edge))).toEqual([
      `missing_target_vertex: model 'M', edge 'e3', field 'targetVertexId': Edge must have a target vertex: ` +
        `targetVertexId ${what}; give the id of the vertex it leads to`,
    ]);
  });

  it('unknown_vertex for an unknown target, or an end that names an edge', () => {
    expect(issueLines(withEdge({ id: 'e3', sourceVertexId: 'v1', targetVertexId: 'n9' }))).toEqual([
      "unknown_vertex: model 'M', edge 'e3', field 'targetVertexId': names no vertex of this model ('n9')",
    ]);
    expect(issueLines(withEdge({ id: 'e3', sourceVertexId: 'v1', targetVertexId: 'e1' }))).toEqual([
      "unknown_vertex: model 'M', edge 'e3', field 'targetVertexId': names an edge ('e1'), not a vertex",
    ]);
    expect(issueLines(withEdge({ id: 'e3', sourceVertexId: 'e1', targetVertexId: 'v1' }))).toEqual([
      "unknown_vertex: model 'M', edge 'e3', field 'sourceVertexId': names an edge ('e1'), not a vertex",
    ]);
  });

  it('unknown_source_vertex warns of a source that names no vertex on an edge that does not start the walk', () => {
    // GraphWalker reads such an edge without a source; only the start element may lack one.
    expect(issueLines(withEdge({ id: 'e3', sourceVertexId: 'n7', targetVertexId: 'v2' }))).toEqual([
      "unknown_source_vertex: model 'M', edge 'e3', field 'sourceVertexId': names no vertex of this model ('n7'), " +
        'so the edge has no source, as GraphWalker reads it, and only the start element may lack one: the walk ' +
        "never takes it. Give the id of the vertex it leaves, or make it the model's startElementId",
    ]);
    const edges = [{ id: 'e0', sourceVertexId: 'Start', targetVertexId: 'v1' }, ...(modelWith().edges as unknown[]).slice(1)];
    expect(issueLines({ models: [modelWith({ edges })] })).toEqual([]);
  });

  it('unknown_start_element', () => {
    expect(issueLines({ models: [modelWith({ startElementId: 'x' })] })).toEqual([
      "unknown_start_element: model 'M', field 'startElementId': names no vertex or edge of this model ('x')",
    ]);
  });

  it('no_start_element when no model has a start element', () => {
    // Without e0, nothing marks a start either: no edge lacks a source.
    const edges = (modelWith().edges as unknown[]).slice(1);
    const shared = (id: string) => ({ id, name: id, sharedState: 'S' });
    const noStart = modelWith({ startElementId: undefined, edges, vertices: [shared('v1'), shared('v2')] });
    const message =
      "No model has a start element; set 'startElementId' of at least one model to the id of a vertex or edge " +
      '(models reached only through shared states need none)';
    expect(issueLines({ models: [noStart] })).toEqual([`no_start_element: ${message}`]);
    expect(issueLines({ models: [noStart, { ...noStart, id: 'N' }] })).toEqual([`no_start_element: ${message}`]);
    const alone =
      "The model has neither a start element or a defined shared state; set 'startElementId' to the id of a " +
      "vertex or edge, or leave it out and give the model one edge without a source, or one vertex named 'Start'";
    expect(issueLines({ models: [modelWith({ startElementId: '', edges })] })).toEqual([`no_start_element: ${alone}`]);
    expect(issueLines({ models: [] })).toEqual([
      "no_models: The file has no models: its 'models' list is empty; add a model with a 'startElementId' to walk it",
    ]);
  });

  it('unknown_predefined_path_edge for an unknown id or a vertex', () => {
    expect(issueLines({ models: [modelWith({ predefinedPathEdgeIds: ['e0', 'v1', 'e1', 'e9'] })] })).toEqual([
      "unknown_predefined_path_edge: model 'M', field 'predefinedPathEdgeIds[1]': names a vertex ('v1'), not an edge",
      "unknown_predefined_path_edge: model 'M', field 'predefinedPathEdgeIds[3]': names no edge of this model ('e9')",
    ]);
  });

  it.each([1.5, -0.1, '2', 'heavy', true, {}])('invalid_weight for %j', (weight) => {
    const got = typeof weight === 'string' ? `'${weight}'` : typeof weight === 'object' ? 'an object' : String(weight);
    expect(issueLines(withEdge({ id: 'e3', sourceVertexId: 'v1', targetVertexId: 'v2', weight }))).toEqual([
      `invalid_weight: model 'M', edge 'e3', field 'weight': The weight must be a value between 0 and 1, got ${got}`,
    ]);
  });

  it.each([101, -1, 85.5, '85.5', 'x', false])('invalid_dependency for %j', (dependency) => {
    const got = typeof dependency === 'string' ? `'${dependency}'` : String(dependency);
    expect(issueLines(withEdge({ id: 'e3', sourceVertexId: 'v1', targetVertexId: 'v2', dependency }))).toEqual([
      `invalid_dependency: model 'M', edge 'e3', field 'dependency': must be a whole number from 0 to 100, got ${got}`,
    ]);
  });

  it('duplicate_model_id', () => {
    const other = { id: 'M', vertices: [] };
    expect(issueLines({ models: [modelWith(), other] }).slice(0, 1)).toEqual([
      "duplicate_model_id: model 'M', field 'id': Id of the model is not unique: models[0] has this id too; model " +
        'ids must be unique within a file',
    ]);
  });

  it('invalid_field for a seed that is not a safe non-negative integer', () => {
    for (const seed of [1.5, '9007199254740993', 'abc', {}]) {
      expect(collectModelIssues({ seed, models: [modelWith()] }).issues.map((i) => i.field)).toEqual(['seed']);
    }
  });

  it('sets modelId, elementId, field and severity on every issue', () => {
    const [issue] = collectModelIssues(withEdge({ id: 'e3', sourceVertexId: 'v1', targetVertexId: 'n9' })).issues;
    expect(issue).toStrictEqual<ModelIssue>({
      code: ModelIssueCodes.UNKNOWN_VERTEX,
      message: "model 'M', edge 'e3', field 'targetVertexId': names no vertex of this model ('n9')",
      severity: 'error',
      modelId: 'M',
      elementId: 'e3',
      field: 'targetVertexId',
    });
  });

  it('returns the file only when there is no error', () => {
    expect(collectModelIssues({ models: [modelWith()] }).file).toBeDefined();
    expect(collectModelIssues({ models: [modelWith({ startElementId: 'x' })] })).not.toHaveProperty('file');
  });
});

describe('issue order', () => {
  it('is file-level, then per model: model fields, vertices in order, edges in order', () => {
    const first = modelWith({
      startElementId: 'nope',
      vertices: [{ id: 'v1', name: [] }, { id: 'v2', name: 'v2' }, { id: 'v1', name: 'v1' }],
      edges: [
        { id: 'e0', targetVertexId: 'v1', weight: 2 },
        { id: 'e1', sourceVertexId: 'v1', targetVertexId: 'zz' },
        { id: 'e2', sourceVertexId: 'v2', targetVertexId: 'v1', dependency: -5 },
      ],
      predefinedPathEdgeIds: ['q'],
      generator: 5,
      actions: 'x',
    });
    const second = { id: 'M', vertices: [{}, 3] };
    const codes = collectModelIssues({ seed: 'x', models: [first, second] }).issues.map(
      (i) => `${i.modelId}/${i.elementId}/${i.field}`,
    );
    expect(codes).toEqual([
      'null/null/seed',
      'M/null/actions',
      'M/null/startElementId',
      'M/null/predefinedPathEdgeIds[0]',
      'M/v1/name',
      'M/v1/id',
      'M/e0/weight',
      'M/e1/targetVertexId',
      'M/e2/dependency',
      'M/null/id',
      'M/M-v0/name',
      'M/null/vertices[1]',
      // Last, what needs every model: the second has neither a start element nor a shared state.
      'M/null/null',
    ]);
  });

  it('is the same on every run', () => {
    const value = { models: [modelWith({ startElementId: 'x', vertices: [{ id: 'v1', name: 'v1' }, { id: 'v1', name: 'v1' }] })] };
    expect(collectModelIssues(value)).toStrictEqual(collectModelIssues(structuredClone(value)));
  });
});
