import { describe, expect, it } from 'vitest';
import { ErrorCodes } from '../../../core/errors.js';
import { reachedEdge, reachedSharedState, reachedVertex } from '../../../plugins/conditions/index.js';
import { Graph } from '../../../core/model/graph.js';
import { FakeWalk, scopeOf } from './fake-walk.js';
import { LOGIN, SHOP, shopGraph, starGraph } from './models.js';

const graph = shopGraph();
const scope = scopeOf(graph, LOGIN, ['n3', 'e5']);
const ids = (targets: readonly number[] | undefined) => (targets ?? []).map((t) => graph.ids[t]);

describe('reached_vertex', () => {
  it('is fulfilled while standing on the vertex, before any vertex rule', () => {
    const c = reachedVertex.create('v_Browse', scope);
    const walk = new FakeWalk(graph).walk('e0', 'n0', 'e1');
    expect(c.isFulfilled(walk)).toBe(false);
    expect(c.fulfilment(walk)).toBe(0);
    walk.walk('n1');
    expect(c.isFulfilled(walk)).toBe(true);
    expect(c.fulfilment(walk)).toBe(1);
    expect(reachedVertex.endsOnVertex).toBe(false);
  });

  it('latches: stays fulfilled after the walk moves on, until a fresh instance', () => {
    const c = reachedVertex.create('v_Browse', scope);
    const walk = new FakeWalk(graph).walk('e0', 'n0', 'e1', 'n1');
    expect(c.isFulfilled(walk)).toBe(true);
    walk.walk('e2', 'n0');
    expect(c.isFulfilled(walk)).toBe(true);
    expect(c.fulfilment(walk)).toBe(1);
    expect(reachedVertex.create('v_Browse', scope).isFulfilled(walk)).toBe(false);
  });

  it('does not latch when only its fulfilment is read', () => {
    const c = reachedVertex.create('v_Browse', scope);
    const walk = new FakeWalk(graph).walk('e0', 'n0', 'e1', 'n1');
    expect(c.fulfilment(walk)).toBe(1);
    walk.walk('e2', 'n0');
    expect(c.isFulfilled(walk)).toBe(false);
  });

  it('is not fulfilled before the first step', () => {
    expect(reachedVertex.create('v_Start', scope).isFulfilled(new FakeWalk(graph))).toBe(false);
  });

  it('targets the vertices of its own model with that name', () => {
    expect(ids(reachedVertex.create('v_Cart', scope).targets)).toEqual(['n2']);
  });

  it('names the model and the known vertices when the name is unknown', () => {
    expect(() => reachedVertex.create('v_Foo', scope)).toThrowError(
      expect.objectContaining({
        code: ErrorCodes.GENERATOR_INVALID,
        message: "reached_vertex: model 'Login' has no vertex named 'v_Foo'. Vertices: v_Start, v_Browse, v_Cart, v_Island",
      }),
    );
    expect(() => reachedVertex.create('s_Pay', scope)).toThrow("model 'Login' has no vertex named 's_Pay'");
  });

  it('lists at most 10 names', () => {
    const star = starGraph(12);
    expect(() => reachedVertex.create('v_13', scopeOf(star, 0))).toThrow(
      "reached_vertex: model 'Star' has no vertex named 'v_13'. Vertices: v_Hub, v_1, v_2, v_3, v_4, v_5, v_6, v_7, " +
        'v_8, v_9 and 3 more',
    );
  });

  it('is unreachable when no target can be reached', () => {
    expect(reachedVertex.create('v_Cart', scope).unreachable?.(scope)).toBeUndefined();
    expect(reachedVertex.create('v_Island', scope).unreachable?.(scope)).toBe(
      "reached_vertex(v_Island) can never be fulfilled: no vertex named 'v_Island' in model 'Login' can be reached " +
        'from the start element',
    );
  });
});

describe('reached_edge', () => {
  it('is fulfilled on the edge itself and latches', () => {
    const c = reachedEdge.create('e_browse', scope);
    const walk = new FakeWalk(graph).walk('e0', 'n0');
    expect(c.isFulfilled(walk)).toBe(false);
    walk.walk('e1');
    expect(c.isFulfilled(walk)).toBe(true);
    walk.walk('n1');
    expect(c.isFulfilled(walk)).toBe(true);
    expect(ids(c.targets)).toEqual(['e1']);
  });

  it('names the known edges when the name is unknown, and reports an unreachable edge', () => {
    expect(() => reachedEdge.create('e_Foo', scopeOf(graph, SHOP))).toThrow(
      "reached_edge: model 'm_shop' has no edge named 'e_Foo'. Edges: s_pay, s_back",
    );
    expect(reachedEdge.create('e_island', scope).unreachable?.(scope)).toBe(
      "reached_edge(e_island) can never be fulfilled: no edge named 'e_island' in model 'Login' can be reached " +
        'from the start element',
    );
  });
});

describe('reached_shared_state', () => {
  it('targets the vertices with that shared state in every model', () => {
    const c = reachedSharedState.create('CART', scopeOf(graph, SHOP));
    expect(ids(c.targets)).toEqual(['n2', 's0']);
    const walk = new FakeWalk(graph).walk('e0', 'n0', 'e1', 'n1', 'e3');
    expect(c.isFulfilled(walk)).toBe(false);
    walk.walk('n2');
    expect(c.isFulfilled(walk)).toBe(true);
  });

  it('is reachable when any of its vertices is', () => {
    const one = scopeOf(graph, LOGIN, ['s0']);
    expect(reachedSharedState.create('CART', one).unreachable?.(one)).toBeUndefined();
    const none = scopeOf(graph, LOGIN, ['n2', 's0']);
    expect(reachedSharedState.create('CART', none).unreachable?.(none)).toBe(
      "reached_shared_state(CART) can never be fulfilled: no vertex with shared state 'CART' can be reached from " +
        'the start element',
    );
  });

  it('lists the known shared states when the name is unknown', () => {
    expect(() => reachedSharedState.create('cart', scope)).toThrow(
      "reached_shared_state: no model has a vertex with shared state 'cart' (asked for by the generator of model " +
        "'Login'). Shared states: CART",
    );
    expect(() => reachedSharedState.create('X', scopeOf(starGraph(1), 0))).toThrow('Shared states: (none)');
  });
});

describe('reached_* arguments', () => {
  it.each([reachedVertex, reachedEdge, reachedSharedState])('$name takes a name', (factory) => {
    expect(factory.argument).toBe('name');
    expect(factory.endsOnVertex).toBe(false);
    expect(() => factory.create(3, scope)).toThrow(`${factory.name} takes the name of an element, got 3`);
  });

  it('targets every vertex that carries the name', () => {
    const twins = new Graph({
      models: [
        {
          id: 'm_twins',
          vertices: [
            { id: 'a', name: 'v_Same' },
            { id: 'b', name: 'v_Other' },
            { id: 'c', name: 'v_Same' },
          ],
          edges: [],
        },
      ],
    });
    const s = scopeOf(twins, 0, ['a']);
    const c = reachedVertex.create('v_Same', s);
    expect(c.targets).toEqual([0, 2]);
    expect(c.unreachable?.(s)).toBeUndefined();
    expect(c.isFulfilled(new FakeWalk(twins).walk('c'))).toBe(true);
  });
});
