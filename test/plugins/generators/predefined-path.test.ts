import { describe, expect, it } from 'vitest';
import { ErrorCodes } from '../../../core/errors.js';
import type { ModelJson } from '../../../core/model/types.js';
import { predefinedPathGenerator } from '../../../plugins/generators/index.js';
import { createGenerator, idsOf, run } from './harness.js';
import { at, graphOf, model } from './models.js';

const triangle = (extra: Partial<ModelJson> = {}) =>
  graphOf(
    model(
      ['a', 'b', 'c'],
      [['ab', 'a', 'b'], ['ac', 'a', 'c'], ['bc', 'b', 'c'], ['ca', 'c', 'a'], ['ba', 'b', 'a']],
      extra,
    ),
  );

const asCondition = { conditionName: 'predefined_path' };

describe('predefined_path', () => {
  it('walks the predefined edges in order, then has no way on', () => {
    const graph = triangle({ predefinedPathEdgeIds: ['ac', 'ca', 'ab', 'ba', 'ab', 'bc'] });
    const result = run(predefinedPathGenerator, graph, asCondition);
    expect(idsOf(graph, result.path)).toEqual(['a', 'ac', 'c', 'ca', 'a', 'ab', 'b', 'ba', 'a', 'ab', 'b', 'bc', 'c']);
    expect(result.deadEnd).toBe(true);
  });

  it('answers -1 when the next path edge is closed or does not leave from where the walk stands', () => {
    const graph = triangle({ predefinedPathEdgeIds: ['ab', 'ca'] });
    expect(idsOf(graph, run(predefinedPathGenerator, graph, asCondition).path)).toEqual(['a', 'ab', 'b']);
    const ab = at(graph, 'ab');
    const closed = run(predefinedPathGenerator, graph, { ...asCondition, guard: (e) => e !== ab });
    expect(closed.deadEnd).toBe(true);
    expect(closed.path).toEqual([at(graph, 'a')]);
  });

  it('continues after the first path edge when the model starts on it', () => {
    const graph = graphOf(
      model(['a', 'b'], [['start', null, 'a'], ['ab', 'a', 'b'], ['ba', 'b', 'a']], {
        startElementId: 'start',
        predefinedPathEdgeIds: ['start', 'ab', 'ba'],
      }),
    );
    expect(idsOf(graph, run(predefinedPathGenerator, graph, asCondition).path)).toEqual(['start', 'a', 'ab', 'b', 'ba', 'a']);
  });

  it('accepts the condition in any case and by its alias', () => {
    const graph = triangle({ predefinedPathEdgeIds: ['ab'] });
    for (const conditionName of ['PREDEFINED_PATH', 'PredefinedPath']) {
      expect(() => createGenerator(predefinedPathGenerator, graph, { conditionName })).not.toThrow();
    }
  });

  it('refuses a model without a predefined path', () => {
    expect(() => createGenerator(predefinedPathGenerator, triangle(), asCondition)).toThrow(
      "The model 'm' has no predefinedPathEdgeIds; predefined_path needs them",
    );
  });

  it('refuses any other stop condition', () => {
    const graph = triangle({ predefinedPathEdgeIds: ['ab'] });
    for (const conditionName of ['edge_coverage', 'length', 'never']) {
      expect(() => createGenerator(predefinedPathGenerator, graph, { conditionName })).toThrow(
        expect.objectContaining({ code: ErrorCodes.GENERATOR_INVALID, message: expect.stringContaining('predefined_path(predefined_path)') }),
      );
    }
  });
});
