import { describe, expect, it, vi } from 'vitest';
import { ErrorCodes } from '../../../core/errors.js';
import { dependencyEdgeCoverage } from '../../../plugins/conditions/index.js';
import { FakeWalk, scopeOf } from './fake-walk.js';
import { LOGIN, SHOP, shopGraph } from './models.js';

const graph = shopGraph();
const scope = scopeOf(graph, LOGIN, ['n3', 'e5']);

describe('dependency_edge_coverage', () => {
  it('is fulfilled when every edge with at least the dependency has been visited', () => {
    const c = dependencyEdgeCoverage.create(90, scope);
    const walk = new FakeWalk(graph, [c]).walk('e0', 'n0', 'e1', 'n1');
    expect(c.isFulfilled(walk)).toBe(false);
    expect(c.fulfilment(walk)).toBe(0.5);
    walk.walk('e3', 'n2');
    expect(c.isFulfilled(walk)).toBe(true);
    expect(c.fulfilment(walk)).toBe(1);
  });

  it('takes every edge at 0 and only dependency 100 at 100', () => {
    const all = dependencyEdgeCoverage.create(0, scopeOf(graph, SHOP));
    const top = dependencyEdgeCoverage.create(100, scope);
    const walk = new FakeWalk(graph, [all, top]).walk('e0', 'n0', 'e1', 'n1', 's0', 's2', 's1');
    expect(top.isFulfilled(walk)).toBe(true);
    expect(all.fulfilment(walk)).toBe(0.5);
    walk.walk('s3');
    expect(all.isFulfilled(walk)).toBe(true);
  });

  it('keeps its count from onStep: a check reads no visit counts', () => {
    const c = dependencyEdgeCoverage.create(80, scope);
    const walk = new FakeWalk(graph, [c]).walk('e0', 'n0', 'e1', 'n1', 'e3', 'n2', 'e4', 'n0', 'e1');
    c.isFulfilled(walk);
    const visits = vi.spyOn(walk, 'visits');
    walk.walk('n1', 'e3', 'n2');
    expect(c.fulfilment(walk)).toBeCloseTo(2 / 3);
    expect(c.isFulfilled(walk)).toBe(false);
    expect(visits).not.toHaveBeenCalled();
  });

  it('recounts once when the walk moved without telling it', () => {
    const c = dependencyEdgeCoverage.create(90, scope);
    const walk = new FakeWalk(graph, [c]).walkUnseen('e0', 'n0', 'e1', 'n1', 'e3', 'n2');
    expect(c.isFulfilled(walk)).toBe(true);
    const late = dependencyEdgeCoverage.create(90, scope);
    const other = new FakeWalk(graph, [late]).walkUnseen('e0', 'n0', 'e1').walk('n1', 'e3');
    expect(late.fulfilment(other)).toBe(1);
  });

  it('is never fulfilled when no edge qualifies, and says so', () => {
    const s = scopeOf(graph, SHOP);
    const c = dependencyEdgeCoverage.create(1, s);
    const walk = new FakeWalk(graph, [c]).walk('s0', 's2', 's1', 's3', 's0');
    expect(c.isFulfilled(walk)).toBe(false);
    expect(c.fulfilment(walk)).toBe(0);
    expect(c.unreachable?.(s)).toBe(
      "dependency_edge_coverage(1) can never be fulfilled: no edge of model 'm_shop' has a dependency of at least 1",
    );
  });

  it('reports qualifying edges that cannot be reached', () => {
    expect(dependencyEdgeCoverage.create(90, scope).unreachable?.(scope)).toBeUndefined();
    expect(dependencyEdgeCoverage.create(80, scope).unreachable?.(scope)).toBe(
      "dependency_edge_coverage(80) can never be fulfilled: 1 of 3 edges of model 'Login' with a dependency of at " +
        'least 80 cannot be reached from the start element (e5)',
    );
  });

  it('ends only on a vertex and takes an integer', () => {
    expect(dependencyEdgeCoverage.endsOnVertex).toBe(true);
    expect(dependencyEdgeCoverage.argument).toBe('integer');
  });

  it('rejects a threshold above 100', () => {
    expect(() => dependencyEdgeCoverage.create(101, scope)).toThrowError(
      expect.objectContaining({
        code: ErrorCodes.GENERATOR_INVALID,
        message: 'dependency_edge_coverage takes a dependency threshold from 0 to 100, got 101',
      }),
    );
  });
});
