import { beforeAll, describe, expect, it } from 'vitest';
import { Machine, NO_MORE_STEPS_MESSAGE, type MachineOptions } from '../../../core/machine/machine.js';
import { ErrorCodes, WalkerError } from '../../../core/errors.js';
import type { Registries } from '../../../core/plugin.js';
import { Graph } from '../../../core/model/graph.js';
import { testRegistries } from '../../support/walkers.js';
import { graphOf, lineModel, ringModel } from './fixtures.js';

let registries: Registries;
beforeAll(async () => {
  registries = await testRegistries();
});

function machine(graph: Graph, options: Partial<MachineOptions> = {}): Machine {
  return new Machine({ graph, registries, seed: 1, ...options });
}

function ids(m: Machine, limit = 1000): string[] {
  const out: string[] = [];
  while (m.hasNext() && out.length < limit) out.push(m.next().id);
  return out;
}

describe('stepping', () => {
  it('starts on the start element and alternates vertex, edge, vertex', () => {
    const m = machine(graphOf(ringModel('first(edge_coverage(100))')));
    expect(ids(m, 7)).toEqual(['A', 'ab', 'B', 'bc', 'C', 'ca', 'A']);
  });

  it('returns a start edge first, then its target', () => {
    const m = machine(graphOf(lineModel('first(length(3))')));
    expect(ids(m)).toEqual(['e0', 'A', 'ab', 'B']);
  });

  it('ends coverage conditions on a vertex, never in the middle of an edge', () => {
    const m = machine(graphOf(ringModel('first(length(2))')));
    expect(ids(m)).toEqual(['A', 'ab', 'B']);
  });

  it('describes each step with id, name and model id', () => {
    const m = machine(graphOf(lineModel('first(length(1))')));
    expect(m.next()).toEqual({ element: 3, modelIndex: 0, id: 'e0', name: 'e_start', modelId: 'line' });
  });

  it('refuses a step once the stop condition holds, and changes nothing', () => {
    const m = machine(graphOf(ringModel('first(length(1))')));
    ids(m);
    const before = m.statistics();
    expect(() => m.next()).toThrow(NO_MORE_STEPS_MESSAGE);
    expect(m.statistics()).toEqual(before);
  });

  it('reports a dead end with the element and fails the model', () => {
    const dead = lineModel('first(edge_coverage(100))', {
      edges: [
        { id: 'e0', name: 'e_start', targetVertexId: 'A' },
        { id: 'ab', name: 'e_ab', sourceVertexId: 'A', targetVertexId: 'B' },
      ],
      vertices: [{ id: 'A', name: 'v_A' }, { id: 'B', name: 'v_B' }],
    });
    const m = machine(graphOf({ ...dead, generator: 'first(never)' }));
    expect(ids(m, 3)).toEqual(['e0', 'A', 'ab']);
    m.next();
    expect(() => m.next()).toThrow('Could not find a valid path from element: v_B (B)');
    expect(m.hasNext()).toBe(false);
    expect(m.modelStatuses()).toEqual(['failed']);
  });

  it('runs generators of a sequence one after the other from where the walk stands', () => {
    const m = machine(graphOf(ringModel('first(length(2)) first(reached_vertex(v_A))')));
    expect(ids(m)).toEqual(['A', 'ab', 'B', 'bc', 'C', 'ca', 'A']);
  });

  it('walks by combined conditions with and/or', () => {
    const and = machine(graphOf(ringModel('first(length(2) and reached_vertex(v_C))')));
    expect(ids(and)).toEqual(['A', 'ab', 'B', 'bc', 'C']);
    const or = machine(graphOf(ringModel('first(length(20) or reached_edge(e_ab))')));
    expect(ids(or)).toEqual(['A', 'ab']);
  });
});

describe('load-time checks', () => {
  it('answers exactly "Model has no generator specified"', () => {
    const graph = graphOf({ ...ringModel('x'), generator: undefined });
    expect(() => machine(graph)).toThrow(new WalkerError(ErrorCodes.NO_GENERATOR, 'Model has no generator specified'));
  });

  it('lists the known generators for an unknown name', () => {
    expect(() => machine(graphOf(ringModel('nope(length(1))')))).toThrow(/unknown path generator 'nope'.*Known: first, any/);
  });

  it('lists the known stop conditions for an unknown name', () => {
    expect(() => machine(graphOf(ringModel('first(nope(1))')))).toThrow(/unknown stop condition 'nope' at column 7.*edge_coverage/);
  });

  it('checks the argument kind of a condition', () => {
    expect(() => machine(graphOf(ringModel('first(length(x))')))).toThrow(/length takes a whole number/);
    expect(() => machine(graphOf(ringModel('first(never(3))')))).toThrow(/never takes no argument/);
  });

  it('refuses a goal that cannot be reached from the start', () => {
    const model = lineModel('first(edge_coverage(100))', {
      edges: [...lineModel('').edges, { id: 'island', sourceVertexId: 'C', targetVertexId: 'C' }],
      vertices: [...lineModel('').vertices],
    });
    const graph = graphOf({ ...model, vertices: [...model.vertices, { id: 'D' }], edges: [...model.edges, { id: 'dd', sourceVertexId: 'D', targetVertexId: 'A' }] });
    expect(() => machine(graph)).toThrow(expect.objectContaining({ code: ErrorCodes.UNREACHABLE_GOAL }));
  });

  it('accepts an `or` with one reachable operand', () => {
    const graph = graphOf(ringModel('first(reached_vertex(v_A) or length(3))'));
    expect(() => machine(graph)).not.toThrow();
  });
});

describe('determinism', () => {
  const branching = (): Graph => graphOf(ringModel('any(length(60))'));

  it('gives the same path for the same seed', () => {
    expect(ids(machine(branching(), { seed: 7 }))).toEqual(ids(machine(branching(), { seed: 7 })));
  });

  it('gives another path for another seed', () => {
    expect(ids(machine(branching(), { seed: 7 }))).not.toEqual(ids(machine(branching(), { seed: 8 })));
  });

  it('repeats the walk after a restart', () => {
    const m = machine(branching(), { seed: 99 });
    const first = ids(m);
    m.restart();
    expect(ids(m)).toEqual(first);
  });
});
