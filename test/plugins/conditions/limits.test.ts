import { describe, expect, it } from 'vitest';
import { ErrorCodes } from '../../../core/errors.js';
import { length, never, predefinedPath, timeDuration } from '../../../plugins/conditions/index.js';
import { FakeWalk, scopeOf } from './fake-walk.js';
import { LOGIN, SHOP, shopGraph } from './models.js';

const graph = shopGraph();
const scope = scopeOf(graph, LOGIN, ['n3', 'e5']);

describe('length', () => {
  it('counts the steps of every model', () => {
    const c = length.create(4, scope);
    const walk = new FakeWalk(graph).walk('e0', 'n0', 's0');
    expect(c.isFulfilled(walk)).toBe(false);
    expect(c.fulfilment(walk)).toBe(0.75);
    walk.walk('s2');
    expect(c.isFulfilled(walk)).toBe(true);
    expect(c.fulfilment(walk)).toBe(1);
  });

  it('is fulfilled at once with length 0', () => {
    const c = length.create(0, scope);
    expect(c.isFulfilled(new FakeWalk(graph))).toBe(true);
    expect(c.fulfilment(new FakeWalk(graph))).toBe(1);
  });

  it('rejects what is not a non-negative integer', () => {
    expect(() => length.create(-3, scope)).toThrowError(
      expect.objectContaining({
        code: ErrorCodes.GENERATOR_INVALID,
        message: 'length takes a non-negative integer, got -3',
      }),
    );
    expect(() => length.create(undefined, scope)).toThrow('length takes a non-negative integer, got undefined');
  });
});

describe('time_duration', () => {
  it('compares the walk clock with the seconds given', () => {
    const c = timeDuration.create(2, scope);
    const walk = new FakeWalk(graph);
    walk.elapsed = 1000;
    expect(c.isFulfilled(walk)).toBe(false);
    expect(c.fulfilment(walk)).toBe(0.5);
    walk.elapsed = 2000;
    expect(c.isFulfilled(walk)).toBe(true);
    walk.elapsed = 9000;
    expect(c.fulfilment(walk)).toBe(1);
  });

  it('rejects a fraction of a second', () => {
    expect(() => timeDuration.create(1.5, scope)).toThrow('time_duration takes a non-negative integer, got 1.5');
  });
});

describe('never', () => {
  it('is never fulfilled and never reported as unreachable', () => {
    const c = never.create(undefined, scope);
    const walk = new FakeWalk(graph).walk('e0', 'n0');
    walk.elapsed = 1e9;
    expect(c.isFulfilled(walk)).toBe(false);
    expect(c.fulfilment(walk)).toBe(0);
    expect(c.unreachable).toBeUndefined();
  });
});

describe('predefined_path', () => {
  it('is fulfilled on the vertex after the last of the path edges', () => {
    const c = predefinedPath.create(undefined, scope);
    const walk = new FakeWalk(graph, [c]).walk('e0', 'n0', 'e1', 'n1', 'e2');
    expect(c.isFulfilled(walk)).toBe(false);
    walk.walk('n0');
    expect(c.isFulfilled(walk)).toBe(true);
  });

  it('measures progress in half steps, as GraphWalker does', () => {
    const c = predefinedPath.create(undefined, scope);
    const walk = new FakeWalk(graph, [c]);
    expect(c.fulfilment(walk)).toBe(0);
    walk.walk('e0');
    expect(c.fulfilment(walk)).toBeCloseTo(2 / 7);
    walk.walk('n0');
    expect(c.fulfilment(walk)).toBeCloseTo(3 / 7);
    walk.walk('e1', 'n1', 'e2', 'n0');
    expect(c.fulfilment(walk)).toBe(1);
  });

  it('counts only edges of its own model', () => {
    const c = predefinedPath.create(undefined, scope);
    const walk = new FakeWalk(graph, [c]).walk('e0', 'n0', 'e1', 'n1', 's0', 's2', 's1');
    expect(c.isFulfilled(walk)).toBe(false);
    walk.walk('s3', 's0', 'n1', 'e2', 'n0');
    expect(c.isFulfilled(walk)).toBe(true);
  });

  it('counts only steps that follow the path in order', () => {
    const c = predefinedPath.create(undefined, scope);
    const walk = new FakeWalk(graph, [c]).walk('e0', 'n0', 'e1', 'n1', 'e3', 'n2', 'e4', 'n0', 'e1', 'n1');
    expect(c.isFulfilled(walk)).toBe(false);
    expect(c.fulfilment(walk)).toBeCloseTo(5 / 7);
    walk.walk('e2', 'n0');
    expect(c.isFulfilled(walk)).toBe(true);
  });

  it('needs a model with a predefined path', () => {
    expect(() => predefinedPath.create(undefined, scopeOf(graph, SHOP))).toThrowError(
      expect.objectContaining({
        code: ErrorCodes.GENERATOR_INVALID,
        message:
          "predefined_path: model 'm_shop' has no predefinedPathEdgeIds, so there is no path to walk; list the edge " +
          'ids in the model or choose another stop condition',
      }),
    );
  });
});

describe('vertex rule and argument kinds', () => {
  it.each([
    ['length', length, 'integer', true],
    ['time_duration', timeDuration, 'integer', true],
    ['never', never, 'none', false],
    ['predefined_path', predefinedPath, 'none', true],
  ] as const)('%s', (_name, factory, argument, endsOnVertex) => {
    expect(factory.argument).toBe(argument);
    expect(factory.endsOnVertex).toBe(endsOnVertex);
  });
});
