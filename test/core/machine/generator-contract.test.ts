import { describe, expect, it } from 'vitest';
import { Walker } from '../../../core/walker.js';
import { Graph } from '../../../core/model/graph.js';
import type { ModelJson } from '../../../core/model/types.js';
import { builtinPlugins } from '../../../plugins/index.js';

/**
 * The contract every registered path generator keeps, checked through the real machine: a seed fixes the
 * path, another seed gives another path on a branching model (except for generators whose path the model
 * fixes), coverage walks end on a vertex, and every walk ends.
 */

/** The stop condition each generator is exercised with; generators not listed take edge coverage. */
const CONDITION: Record<string, string> = { a_star: 'reached_vertex(v_D)', predefined_path: 'predefined_path' };
/** Generators whose path is fixed by the model, not by the seed. */
const SEED_INDEPENDENT = new Set(['predefined_path']);
const STEP_LIMIT = 100_000;

/** Four vertices, every one with two or three ways on, several shortest routes to v_D, and a predefined path. */
const branching: ModelJson = {
  id: 'branching',
  name: 'Branching',
  startElementId: 'a',
  vertices: ['A', 'B', 'C', 'D'].map((n) => ({ id: n.toLowerCase(), name: `v_${n}` })),
  edges: [
    ['ab', 'a', 'b'], ['ac', 'a', 'c'], ['ab2', 'a', 'b'], ['bc', 'b', 'c'], ['bd', 'b', 'd'],
    ['cd', 'c', 'd'], ['cb', 'c', 'b'], ['da', 'd', 'a'], ['dc', 'd', 'c'], ['ca', 'c', 'a'],
  ].map(([id, source, target]) => ({ id, name: `e_${id}`, sourceVertexId: source, targetVertexId: target })),
  predefinedPathEdgeIds: ['ab', 'bc', 'cd', 'da', 'ac'],
};

// The suite is generated from what the plugins register, so the registries are needed while collecting.
const walker = await Walker.create(builtinPlugins());

function walk(generator: string, seed: number): { path: string[]; endsOnVertex: boolean; ended: boolean } {
  const graph = new Graph({ models: [branching] });
  const machine = walker.walk({ file: { models: [branching] }, graph, warnings: [] }, { seed, generator });
  try {
    const path: string[] = [];
    while (machine.hasNext() && path.length < STEP_LIMIT) path.push(machine.next().id);
    return { path, endsOnVertex: graph.isVertex(machine.current), ended: !machine.hasNext() };
  } finally {
    machine.dispose();
  }
}

describe('every registered path generator', () => {
  it('includes the six built-in ones', () => {
    expect(walker.registries.generators.names()).toEqual(
      expect.arrayContaining(['random', 'weighted_random', 'quick_random', 'a_star', 'shortest_all_paths', 'predefined_path']),
    );
  });

  describe.each(walker.registries.generators.names())('%s', (name) => {
    const generator = `${name}(${CONDITION[name] ?? 'edge_coverage(100)'})`;

    it('walks to its stop condition and ends', () => {
      expect(walk(generator, 1).ended).toBe(true);
    });

    it('walks the same path for the same seed', () => {
      expect(walk(generator, 42).path).toEqual(walk(generator, 42).path);
    });

    if (SEED_INDEPENDENT.has(name)) {
      it('walks the path the model fixes, whatever the seed', () => {
        expect(walk(generator, 1).path).toEqual(walk(generator, 2).path);
      });
    } else {
      it('walks another path for another seed', () => {
        const paths = new Set([1, 2, 3, 4, 5].map((seed) => walk(generator, seed).path.join()));
        expect(paths.size).toBeGreaterThan(1);
      });
    }

    if (!(name in CONDITION)) {
      it('ends a coverage walk on a vertex', () => {
        for (const seed of [1, 2, 3]) expect(walk(`${name}(edge_coverage(100))`, seed).endsOnVertex).toBe(true);
      });
    }
  });
});
