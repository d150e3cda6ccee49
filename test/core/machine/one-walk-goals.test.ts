import { beforeAll, describe, expect, it } from 'vitest';
import { ErrorCodes } from '../../../core/errors.js';
import { Machine } from '../../../core/machine/machine.js';
import { Graph } from '../../../core/model/graph.js';
import type { ModelJson } from '../../../core/model/types.js';
import type { Registries } from '../../../core/plugin.js';
import { testRegistries } from '../../support/walkers.js';

let registries: Registries;
beforeAll(async () => {
  registries = await testRegistries();
});

type Vertex = readonly [id: string, more?: { sharedState?: string; requirements?: string[]; name?: string | null }];
type Edge = readonly [id: string, source: string, target: string, dependency?: number];

function modelOf(id: string, vertices: readonly Vertex[], edges: readonly Edge[], start?: string): ModelJson {
  return {
    id,
    name: id,
    ...(start === undefined ? {} : { startElementId: start }),
    vertices: vertices.map(([v, more = {}]) => ({
      id: v,
      ...(more.name === null ? {} : { name: more.name ?? `v_${v}` }),
      ...(more.sharedState === undefined ? {} : { sharedState: more.sharedState }),
      ...(more.requirements === undefined ? {} : { requirements: more.requirements }),
    })),
    edges: edges.map(([e, source, target, dependency]) => ({
      id: e,
      name: e,
      sourceVertexId: source,
      targetVertexId: target,
      ...(dependency === undefined ? {} : { dependency }),
    })),
  };
}

/**
 * From s the walk must choose for good: the loop behind x (two vertices, three edges with sx) or the loop
 * behind y (three vertices, four edges with sy). x carries three requirements, s and y one each.
 */
function fork(): ModelJson {
  return modelOf(
    'Fork',
    [['s', { requirements: ['R0'] }], ['x', { requirements: ['R1', 'R2', 'R3'] }], ['x2'], ['y', { requirements: ['R4'] }], ['y2'], ['y3']],
    [['sx', 's', 'x', 60], ['sy', 's', 'y', 70], ['xx2', 'x', 'x2'], ['x2x', 'x2', 'x'], ['yy2', 'y', 'y2'], ['y2y3', 'y2', 'y3'], ['y3y', 'y3', 'y']],
    's',
  );
}

function open(models: readonly ModelJson[], generator: string): Machine {
  const graph = new Graph({ models: [...models] });
  return new Machine({ graph, registries, seed: 1, generators: models.map(() => generator) });
}

/** The load's refusal, or undefined when the machine loads. */
function refusal(models: readonly ModelJson[], generator: string): string | undefined {
  try {
    open(models, generator).dispose();
    return undefined;
  } catch (error) {
    expect(error).toMatchObject({ code: ErrorCodes.UNREACHABLE_GOAL });
    return (error as Error).message;
  }
}

describe('goals no single walk can meet, refused at load', () => {
  it('names the two branches a walk cannot both take, and what the best walk leaves out', () => {
    expect(refusal([fork()], 'first(edge_coverage(100))')).toBe(
      "Model 'Fork', generator 'first(edge_coverage(100))': edge_coverage(100) can never be fulfilled: one walk " +
        "covers at most 4 of the 7 edges of model 'Fork', and 7 are needed (guards ignored). No walk steps on both " +
        'sy and sx, since neither can be reached from the other; the best walk leaves out sx, xx2, x2x',
    );
    expect(refusal([fork()], 'first(vertex_coverage(100))')).toContain(
      "one walk covers at most 4 of the 6 vertices of model 'Fork', and 6 are needed (guards ignored). No walk " +
        'steps on both y and x, since neither can be reached from the other; the best walk leaves out x, x2',
    );
  });

  it('accepts a percentage the best branch reaches, and refuses one point more', () => {
    // 4 of 7 edges is 57.1 %: enough for 57 %, not for 58 %.
    expect(refusal([fork()], 'first(edge_coverage(57))')).toBeUndefined();
    expect(refusal([fork()], 'first(edge_coverage(58))')).toMatch(/at most 4 of the 7 edges .*, and 5 are needed/);
  });

  it('names in the pair an element some walk reaches, even when one no walk reaches comes first', () => {
    // The island i is one of 7 vertices: 6 of 7 (85 %) are reachable, but one walk covers 4 (57 %).
    const base = fork();
    const withIsland = { ...base, vertices: [{ id: 'i', name: 'v_i' }, ...base.vertices] };
    expect(refusal([withIsland], 'first(vertex_coverage(80))')).toContain(
      'No walk steps on both y and x, since neither can be reached from the other; the best walk leaves out i, x, x2',
    );
  });

  it('weighs requirements by the elements that carry them', () => {
    // s and x carry four of the five requirements; y's one is on the other branch.
    expect(refusal([fork()], 'first(requirement_coverage(80))')).toBeUndefined();
    expect(refusal([fork()], 'first(requirement_coverage(100))')).toContain(
      "one walk covers at most 4 of the 5 requirements of model 'Fork', and 5 are needed (guards ignored). No walk " +
        'steps on both x and y, since neither can be reached from the other; the best walk leaves out y',
    );
  });

  it('refuses a dependency threshold met by edges on both branches', () => {
    expect(refusal([fork()], 'first(dependency_edge_coverage(65))')).toBeUndefined();
    expect(refusal([fork()], 'first(dependency_edge_coverage(50))')).toContain(
      "dependency_edge_coverage(50) can never be fulfilled: one walk covers at most 1 of the 2 edges of model 'Fork' " +
        'with a dependency of at least 50',
    );
  });

  it('judges the operands of an `and` together, and an `or` by its best operand', () => {
    expect(refusal([fork()], 'first(reached_vertex(v_x) or reached_vertex(v_y))')).toBeUndefined();
    expect(refusal([fork()], 'first(reached_vertex(v_x) and reached_vertex(v_y))')).toBe(
      "Model 'Fork', generator 'first(reached_vertex(v_x) and reached_vertex(v_y))': reached_vertex(v_x) and " +
        'reached_vertex(v_y) can never be fulfilled together: no one walk covers what they need (guards ignored). ' +
        'No walk steps on both x and y, since neither can be reached from the other; the best walk leaves out y',
    );
    // Half the edges (4 of 7) lie only behind y: with x reached, three at most.
    expect(refusal([fork()], 'first(edge_coverage(50) and reached_vertex(v_x))')).toMatch(
      /^Model 'Fork', .*: edge_coverage\(50\) and reached_vertex\(v_x\) can never be fulfilled together: .* leaves out sy, yy2, y2y3, y3y$/,
    );
    expect(refusal([fork()], 'first(edge_coverage(42) and reached_vertex(v_x))')).toBeUndefined();
    expect(refusal([fork()], 'first(length(3) and (reached_vertex(v_x) or reached_vertex(v_y)))')).toBeUndefined();
    expect(refusal([fork()], 'first(edge_coverage(100) or length(3))')).toBeUndefined();
    expect(refusal([fork()], 'first(edge_coverage(100) or vertex_coverage(100))')).toMatch(
      /^Model 'Fork', .*: edge_coverage\(100\) can never .*; and vertex_coverage\(100\) can never /,
    );
  });

  it('follows shared states both ways: a way back through another model joins the branches', () => {
    // a1 and a2 are two ways out of a0, but from a1 the walk can jump to b0, walk to b1 and jump back to a0.
    const a = modelOf('A', [['a0', { sharedState: 'BACK' }], ['a1', { sharedState: 'OUT' }], ['a2']], [['a01', 'a0', 'a1'], ['a02', 'a0', 'a2'], ['a22', 'a2', 'a2']], 'a0');
    const b = modelOf('B', [['b0', { sharedState: 'OUT' }], ['b1', { sharedState: 'BACK' }]], [['b01', 'b0', 'b1']]);
    expect(refusal([a, b], 'first(edge_coverage(100))')).toBeUndefined();
  });

  it('counts a jump into a model with no way back as a branch like any other', () => {
    // From a1 the walk may jump into B and go round there, but nothing leads back to a0 and on to a2.
    const a = modelOf('A', [['a0'], ['a1', { sharedState: 'OUT' }], ['a2']], [['a01', 'a0', 'a1'], ['a02', 'a0', 'a2'], ['a22', 'a2', 'a2']], 'a0');
    const b = modelOf('B', [['b0', { sharedState: 'OUT' }], ['b1']], [['b01', 'b0', 'b1'], ['b10', 'b1', 'b0']]);
    expect(refusal([a, b], 'first(edge_coverage(100))')).toMatch(/No walk steps on both a02 and a01, .* leaves out a01$/);
    expect(refusal([a, b], 'first(edge_coverage(66))')).toBeUndefined();
  });

  it('refuses nothing where the walk may come back through a later model\'s start element', () => {
    // Model B starts at b0 once A is done, from wherever the walk stands; walker does not judge such orders.
    const a = modelOf('A', [['a0'], ['a1']], [['a01', 'a0', 'a1'], ['a11', 'a1', 'a1']], 'a0');
    const b = modelOf('B', [['b0'], ['b1'], ['b2']], [['b01', 'b0', 'b1'], ['b02', 'b0', 'b2'], ['b11', 'b1', 'b1']], 'b0');
    expect(refusal([a, b], 'first(edge_coverage(100))')).toBeUndefined();
    // A is walked first, and nothing ever leads back into it: its own trap still counts.
    const trap = modelOf('A', [['a0'], ['a1'], ['a2']], [['a01', 'a0', 'a1'], ['a02', 'a0', 'a2'], ['a11', 'a1', 'a1']], 'a0');
    expect(refusal([trap, b], 'first(edge_coverage(100))')).toMatch(/^Model 'A', .*No walk steps on both a01 and a02/);
  });

  it('leaves goals without elements alone: length, never, time', () => {
    for (const condition of ['length(50)', 'never', 'time_duration(1)', 'edge_coverage(0)']) {
      expect(refusal([fork()], `first(${condition})`)).toBeUndefined();
    }
  });
});
