import { describe, expect, it } from 'vitest';
import { ErrorCodes } from '../../../core/errors.js';
import { edgeCoverage, requirementCoverage, vertexCoverage } from '../../../plugins/conditions/index.js';
import { FakeWalk, scopeOf } from './fake-walk.js';
import { EMPTY, LOGIN, SHOP, shopGraph, starGraph } from './models.js';

const graph = shopGraph();
const scope = scopeOf(graph, LOGIN, ['n3', 'e5']);

describe('edge_coverage', () => {
  it('is fulfilled at 0 % before any step', () => {
    const c = edgeCoverage.create(0, scope);
    const walk = new FakeWalk(graph);
    expect(c.isFulfilled(walk)).toBe(true);
    expect(c.fulfilment(walk)).toBe(1);
  });

  it('is fulfilled at 50 % once 3 distinct edges of the 6 are visited', () => {
    const c = edgeCoverage.create(50, scope);
    const walk = new FakeWalk(graph).walk('e0', 'n0', 'e1', 'n1');
    expect(c.isFulfilled(walk)).toBe(false);
    expect(c.fulfilment(walk)).toBeCloseTo(2 / 3);
    walk.walk('e2');
    expect(c.isFulfilled(walk)).toBe(true);
    expect(c.fulfilment(walk)).toBe(1);
  });

  it('needs every edge at 100 %', () => {
    const c = edgeCoverage.create(100, scopeOf(graph, SHOP));
    const walk = new FakeWalk(graph).walk('s0', 's2', 's1');
    expect(c.isFulfilled(walk)).toBe(false);
    expect(c.fulfilment(walk)).toBe(0.5);
    walk.walk('s3', 's0');
    expect(c.isFulfilled(walk)).toBe(true);
  });

  it('counts an edge once however often it is walked', () => {
    const c = edgeCoverage.create(100, scope);
    const walk = new FakeWalk(graph).walk('e0', 'n0', 'e1', 'n1', 'e2', 'n0', 'e1', 'n1', 'e2', 'n0');
    expect(c.fulfilment(walk)).toBe(0.5);
  });

  it('counts only the edges of its own model', () => {
    const c = edgeCoverage.create(50, scopeOf(graph, SHOP));
    const walk = new FakeWalk(graph).walk('e0', 'n0', 'e1', 'n1', 'e3', 'n2');
    expect(c.fulfilment(walk)).toBe(0);
  });

  it('uses the GraphWalker threshold: 2 of 3 edges fulfil 66 % but not 67 %', () => {
    const star = starGraph(3);
    const walk = new FakeWalk(star).walk('hub', 'y1', 'x1', 'y2', 'x2');
    expect(edgeCoverage.create(66, scopeOf(star, 0)).isFulfilled(walk)).toBe(true);
    expect(edgeCoverage.create(67, scopeOf(star, 0)).isFulfilled(walk)).toBe(false);
  });

  it('is fulfilled at once on a model without edges, where GraphWalker would walk forever', () => {
    const c = edgeCoverage.create(100, scopeOf(graph, EMPTY));
    expect(c.isFulfilled(new FakeWalk(graph))).toBe(true);
    expect(c.unreachable?.(scopeOf(graph, EMPTY))).toBeUndefined();
  });

  it('ends only on a vertex', () => {
    expect(edgeCoverage.endsOnVertex).toBe(true);
    expect(vertexCoverage.endsOnVertex).toBe(true);
    expect(requirementCoverage.endsOnVertex).toBe(true);
  });

  it.each([150, 101, -1, 50.5, '50', undefined])('rejects the percentage %s', (p) => {
    expect(() => edgeCoverage.create(p, scope)).toThrowError(
      expect.objectContaining({
        code: ErrorCodes.GENERATOR_INVALID,
        message: `edge_coverage takes a percentage from 0 to 100, got ${String(p)}`,
      }),
    );
  });

  it('reports the unreachable edges when the goal is above what can be reached', () => {
    expect(edgeCoverage.create(83, scope).unreachable?.(scope)).toBeUndefined();
    expect(edgeCoverage.create(100, scope).unreachable?.(scope)).toBe(
      "edge_coverage(100) can never be fulfilled: 1 of 6 edges of model 'Login' cannot be reached from the start element (e5)",
    );
  });

  it('lists at most 5 unreachable ids', () => {
    const star = starGraph(8);
    const s = scopeOf(star, 0, ['y1', 'y2', 'y3', 'y4', 'y5', 'y6', 'y7']);
    expect(edgeCoverage.create(20, s).unreachable?.(s)).toBe(
      "edge_coverage(20) can never be fulfilled: 7 of 8 edges of model 'Star' cannot be reached from the start " +
        'element (y1, y2, y3, y4, y5 and 2 more)',
    );
  });
});

describe('what a coverage goal asks of one walk (its demand)', () => {
  it('is the fewest elements that make the percentage, by the same threshold as isFulfilled', () => {
    const star = starGraph(3);
    const edges = star.models[0].edges;
    expect(edgeCoverage.create(66, scopeOf(star, 0)).demand).toEqual({ label: 'edge_coverage(66)', what: "edges of model 'Star'", elements: edges, weights: undefined, least: 2 });
    expect(edgeCoverage.create(67, scopeOf(star, 0)).demand?.least).toBe(3);
    expect(edgeCoverage.create(100, scopeOf(star, 0)).demand?.least).toBe(3);
  });

  it('asks nothing of a 0 % goal or of a model with nothing to cover', () => {
    expect(edgeCoverage.create(0, scope).demand).toBeUndefined();
    expect(edgeCoverage.create(100, scopeOf(graph, EMPTY)).demand).toBeUndefined();
    expect(requirementCoverage.create(100, scopeOf(graph, SHOP)).demand).toBeUndefined();
  });

  it('weighs each element by the requirements it carries', () => {
    const demand = requirementCoverage.create(60, scope).demand!;
    expect(demand.weights!.reduce((a, b) => a + b, 0)).toBe(5);
    expect(demand.least).toBe(3);
    expect(demand.elements.every((e) => graph.requirements[e].length > 0)).toBe(true);
  });
});

describe('vertex_coverage', () => {
  it('counts distinct vertices of the model at 0, 50 and 100 %', () => {
    const walk = new FakeWalk(graph).walk('e0', 'n0', 'e1', 'n1', 'e2', 'n0');
    expect(vertexCoverage.create(0, scope).isFulfilled(walk)).toBe(true);
    expect(vertexCoverage.create(50, scope).isFulfilled(walk)).toBe(true);
    expect(vertexCoverage.create(100, scope).isFulfilled(walk)).toBe(false);
    expect(vertexCoverage.create(100, scope).fulfilment(walk)).toBe(0.5);
  });

  it('names the model by id when it has no name', () => {
    const s = scopeOf(graph, SHOP, ['s1']);
    expect(vertexCoverage.create(100, s).unreachable?.(s)).toBe(
      "vertex_coverage(100) can never be fulfilled: 1 of 2 vertices of model 'm_shop' cannot be reached from the start element (s1)",
    );
    expect(vertexCoverage.create(50, s).unreachable?.(s)).toBeUndefined();
  });

  it('rejects a percentage above 100 with its own name', () => {
    expect(() => vertexCoverage.create(200, scope)).toThrow('vertex_coverage takes a percentage from 0 to 100, got 200');
  });
});

describe('requirement_coverage', () => {
  it('counts passed and failed requirements of the model', () => {
    const walk = new FakeWalk(graph).setRequirements(LOGIN, { total: 4, passed: 1, failed: 0 });
    const half = requirementCoverage.create(50, scope);
    expect(half.isFulfilled(walk)).toBe(false);
    expect(half.fulfilment(walk)).toBe(0.5);
    walk.setRequirements(LOGIN, { total: 4, passed: 1, failed: 1 });
    expect(half.isFulfilled(walk)).toBe(true);
    expect(requirementCoverage.create(100, scope).isFulfilled(walk)).toBe(false);
    expect(requirementCoverage.create(0, scope).isFulfilled(walk)).toBe(true);
  });

  it('is fulfilled when the model has no requirements', () => {
    const c = requirementCoverage.create(100, scopeOf(graph, SHOP));
    expect(c.isFulfilled(new FakeWalk(graph))).toBe(true);
    expect(c.unreachable?.(scopeOf(graph, SHOP))).toBeUndefined();
  });

  it('reports requirements that sit on unreachable elements', () => {
    expect(requirementCoverage.create(60, scope).unreachable?.(scope)).toBeUndefined();
    expect(requirementCoverage.create(61, scope).unreachable?.(scope)).toBe(
      "requirement_coverage(61) can never be fulfilled: 2 of 5 requirements of model 'Login' sit on elements " +
        'that cannot be reached from the start element (R3 on n3, R3 on e5)',
    );
  });

  it('counts each requirement of each element, as the machine totals them', () => {
    const s = scopeOf(graph, LOGIN, ['n1', 'n3', 'e5']);
    expect(requirementCoverage.create(40, s).unreachable?.(s)).toBeUndefined();
    expect(requirementCoverage.create(100, s).unreachable?.(s)).toBe(
      "requirement_coverage(100) can never be fulfilled: 3 of 5 requirements of model 'Login' sit on elements " +
        'that cannot be reached from the start element (R1 on n1, R3 on n3, R3 on e5)',
    );
  });
});
