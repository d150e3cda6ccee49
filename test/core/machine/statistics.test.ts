import { beforeAll, describe, expect, it } from 'vitest';
import { Machine } from '../../../core/machine/machine.js';
import type { Registries } from '../../../core/plugin.js';
import type { Graph } from '../../../core/model/graph.js';
import { testRegistries } from '../../support/walkers.js';
import { graphOf, lineModel, ringModel, sharedModels } from './fixtures.js';
import { Graph as G } from '../../../core/model/graph.js';

let registries: Registries;
beforeAll(async () => {
  registries = await testRegistries();
});

const machine = (graph: Graph, seed = 1): Machine => new Machine({ graph, registries, seed });

describe('statistics', () => {
  it('starts with nothing visited', () => {
    const s = machine(graphOf(lineModel('first(length(3))'))).statistics();
    expect(s).toMatchObject({
      totalNumberOfModels: 1,
      totalNotExecutedNumberOfModels: 1,
      totalNumberOfVertices: 3,
      totalNumberOfEdges: 4,
      totalNumberOfVisitedVertices: 0,
      totalNumberOfVisitedEdges: 0,
      totalNumberOfUnvisitedVertices: 3,
      totalNumberOfUnvisitedEdges: 4,
      vertexCoverage: 0,
      edgeCoverage: 0,
    });
    expect(s.edgesNotVisited.map((e) => e.edgeId)).toEqual(['e0', 'ab', 'ba', 'bc']);
    expect(s.verticesNotVisited[0]).toEqual({ vertexName: 'v_A', vertexId: 'A', modelName: 'Line' });
    expect(s.totalNumberOfRequirement).toBeUndefined();
  });

  it('counts distinct visits and floors percentages', () => {
    const m = machine(graphOf(lineModel('first(length(5))')));
    m.next();
    expect(m.statistics()).toMatchObject({ totalNumberOfVisitedEdges: 1, edgeCoverage: 25, totalIncompleteNumberOfModels: 1 });
    while (m.hasNext()) m.next();
    const s = m.statistics();
    expect(s).toMatchObject({ totalNumberOfVisitedEdges: 3, edgeCoverage: 75, totalNumberOfVisitedVertices: 2, vertexCoverage: 66 });
    expect(s.edgesNotVisited).toEqual([{ edgeName: 'e_bc', edgeId: 'bc', modelName: 'Line' }]);
    expect(s.totalCompletedNumberOfModels).toBe(1);
  });

  it('passes vertex requirements on visit and edge requirements one step later', () => {
    const ring = ringModel('first(length(2))');
    ring.vertices[1] = { ...ring.vertices[1], requirements: ['R-B'] };
    ring.edges[0] = { ...ring.edges[0], requirements: ['R-ab', 'R-ab2'] };
    const m = machine(graphOf(ring));
    m.next();
    m.next();
    expect(m.statistics()).toMatchObject({ totalNumberOfRequirement: 3, totalNumberOfPassedRequirement: 0, requirementCoverage: 0 });
    m.next();
    expect(m.statistics()).toMatchObject({ totalNumberOfPassedRequirement: 3, totalNumberOfUncoveredRequirement: 0, requirementCoverage: 100 });
  });

  it('fails the current model and the requirements of the element and the edge before it', () => {
    const ring = ringModel('first(never)');
    ring.vertices[1] = { ...ring.vertices[1], requirements: ['R-B'] };
    ring.edges[0] = { ...ring.edges[0], requirements: ['R-ab'] };
    const m = machine(graphOf(ring));
    m.next();
    m.next();
    m.next();
    m.fail('button missing');
    expect(m.hasNext()).toBe(false);
    expect(m.failure).toBe('button missing');
    expect(m.statistics()).toMatchObject({ totalFailedNumberOfModels: 1, totalNumberOfFailedRequirement: 2, totalNumberOfPassedRequirement: 0 });
  });

  it('fails the model of the last step, even after hasNext turned to the next model', () => {
    const a = ringModel('first(length(3))', { id: 'a' });
    a.vertices[1] = { ...a.vertices[1], requirements: ['R-a'] };
    const ring = ringModel('first(vertex_coverage(100))', { id: 'b', startElementId: 'bA' });
    const b = {
      ...ring,
      vertices: ring.vertices.map((v) => ({ ...v, id: `b${v.id}` })),
      edges: ring.edges.map((e) => ({
        ...e,
        id: `b${e.id}`,
        sourceVertexId: `b${e.sourceVertexId}`,
        targetVertexId: `b${e.targetVertexId}`,
      })),
    };
    const m = machine(graphOf(a, b));
    expect([m.next(), m.next(), m.next()].map((s) => `${s.modelId}:${s.id}`)).toEqual(['a:A', 'a:ab', 'a:B']);
    expect(m.hasNext()).toBe(true);
    m.fail('the button is missing');
    expect(m.modelStatuses()).toEqual(['failed', 'not_executed']);
    expect(m.statistics()).toMatchObject({ totalNumberOfFailedRequirement: 1 });
  });
});

describe('shared states', () => {
  it('jumps into a model without a start element and completes both', () => {
    const m = machine(new G(sharedModels('first(edge_coverage(100))', 'any(edge_coverage(100))')), 5);
    const models = new Set<string>();
    let steps = 0;
    while (m.hasNext() && steps++ < 500) models.add(m.next().modelId);
    expect(models).toEqual(new Set(['left', 'right']));
    expect(m.hasNext()).toBe(false);
    expect(m.statistics()).toMatchObject({ edgeCoverage: 100, totalCompletedNumberOfModels: 2 });
  });

  it('emits the target of a jump as a step of its own, in the other model', () => {
    const m = machine(new G(sharedModels('any(never)', 'any(never)')), 11);
    let previous = m.next();
    for (let i = 0; i < 200; i++) {
      const step = m.next();
      if (step.modelId !== previous.modelId) {
        expect([previous.id, step.id].sort()).toEqual(['LH', 'RH']);
        return;
      }
      previous = step;
    }
    throw new Error('no jump in 200 steps');
  });

  it('lets the generator choose among the jump candidates when it can', async () => {
    const stayer = {
      name: 'stayer' as never,
      create: () => ({
        nextEdge: (walk: import('../../../core/walk-state.js').WalkState, vertex: number) => walk.openEdges(vertex)[0] ?? -1,
        chooseJump: (_walk: unknown, vertex: number) => vertex,
      }),
    };
    const withStayer = await testRegistries([{ meta: { name: 'stayer', version: '0' }, setup: (r) => r.generators.register(stayer) }]);
    const m = new Machine({ graph: new G(sharedModels('stayer(length(40))', 'any(length(1))')), registries: withStayer, seed: 3 });
    const models = new Set<string>();
    while (m.hasNext()) models.add(m.next().modelId);
    expect(models).toEqual(new Set(['left']));
  });

  it('refuses a jump choice that is not a candidate', async () => {
    const wrong = {
      name: 'wrong' as never,
      create: () => ({ nextEdge: () => -1, chooseJump: () => 12345 }),
    };
    const withWrong = await testRegistries([{ meta: { name: 'wrong', version: '0' }, setup: (r) => r.generators.register(wrong) }]);
    const m = new Machine({ graph: new G(sharedModels('first(length(2)) wrong(never)', 'any(never)')), registries: withWrong, seed: 3 });
    m.next();
    m.next();
    m.next();
    expect(() => m.next()).toThrow(expect.objectContaining({ code: 'WALKER_GENERATOR_INVALID', message: expect.stringMatching(/'wrong' .* answered 12345 to chooseJump/) }));
  });
});
