import { equal } from 'node:assert/strict';
import { beforeAll, describe, expect, it } from 'vitest';
import type { ConditionExpr, GeneratorExpr } from '../../../core/language/ast.js';
import { buildChains, chainContextOf } from '../../../core/machine/chain.js';
import { Machine } from '../../../core/machine/machine.js';
import { Graph } from '../../../core/model/graph.js';
import type { ModelJson } from '../../../core/model/types.js';
import { NO_STATE_PLANNING } from '../../../core/planning/walk-planning.js';
import type { Registries } from '../../../core/plugin.js';
import { createRandom } from '../../../core/random.js';
import { walkSettings } from '../../../core/walk-settings.js';
import { Walker } from '../../../core/walker.js';
import { builtinPlugins } from '../../../plugins/index.js';
import { timeGrowth } from '../../support/growth.js';

/**
 * What making a walk's chains costs, as the generator string and the model grow together (docs/generators.md,
 * "Limits"): every combinator, the load-time judges and the sequence take time linear in what they are given.
 * The trees are built here rather than parsed, past the parser's limits, so that a cost that grows faster than
 * the input shows plainly: four times the input may take about four times as long, never sixteen.
 */

/** How many times the small input the large one is. */
const SCALE = 4;
/** Four times the input may take at most this many times as long: linear is 4, quadratic 16. */
const BOUND = 8;

let registries: Registries;
beforeAll(async () => {
  registries = (await Walker.create(builtinPlugins())).registries;
});

/**
 * A ring of n vertices v_0 → v_1 → … → v_0, each carrying a requirement, each edge a dependency of 50, the
 * whole ring as its predefined path: every built-in condition has something to ask of it.
 */
function ringJson(n: number): ModelJson {
  const vertices = Array.from({ length: n }, (_, i) => ({ id: `v${i}`, name: `v_${i}`, requirements: [`R${i}`] }));
  const edges = Array.from({ length: n }, (_, i) => ({
    id: `e${i}`,
    name: `e_${i}`,
    sourceVertexId: `v${i}`,
    targetVertexId: `v${(i + 1) % n}`,
    dependency: 50,
  }));
  return { id: 'ring', name: 'Ring', startElementId: 'v0', vertices, edges, predefinedPathEdgeIds: edges.map((e) => e.id) };
}

function ring(n: number): Graph {
  return new Graph({ models: [ringJson(n)] });
}

const call = (name: string, argument?: string): ConditionExpr => ({ kind: 'call', name, column: 1, argument });
const all = (operands: ConditionExpr[]): ConditionExpr => ({ kind: 'all', operands });
const any = (operands: ConditionExpr[]): ConditionExpr => ({ kind: 'any', operands });
const generator = (name: string, condition: ConditionExpr): GeneratorExpr => ({ name, column: 1, condition });

/** Makes the chains of one walk of `graph` whose one model runs `exprs`, as the machine does at load. */
function load([graph, exprs]: [Graph, GeneratorExpr[]]): void {
  const context = chainContextOf(graph, registries, createRandom(1), NO_STATE_PLANNING);
  const [chain] = buildChains([{ text: 'built in the test', exprs }], context);
  equal(chain.parts.length, exprs.length);
}

/** How many times longer a load of input size 4n takes than one of size n (or of 8n than 2n); `make(n)` gives the graph and the generators. */
function growth(n: number, make: (n: number) => [Graph, GeneratorExpr[]]): number {
  return timeGrowth(make, load, n, { scale: SCALE, bound: BOUND }).ratio;
}

/** The operands every built-in condition gives for target i of a ring, in turn. */
function operand(i: number): ConditionExpr {
  const kinds = [
    call('reached_vertex', `v_${i}`),
    call('reached_edge', `e_${i}`),
    call('edge_coverage', '100'),
    call('vertex_coverage', '100'),
    call('requirement_coverage', '100'),
    call('dependency_edge_coverage', '50'),
    call('predefined_path'),
  ];
  return kinds[i % kinds.length];
}

describe('making the chains of a walk takes time linear in the generator string and the model', () => {
  it('an `and` of n distinct targets on a model of n vertices', () => {
    const make = (n: number): [Graph, GeneratorExpr[]] => [
      ring(n),
      [generator('random', all(Array.from({ length: n }, (_, i) => call('reached_vertex', `v_${i}`))))],
    ];
    expect(growth(2000, make)).toBeLessThanOrEqual(BOUND);
  });

  it('an `and` of n operands of every kind, many alike, on a model of n vertices', () => {
    const make = (n: number): [Graph, GeneratorExpr[]] => [ring(n), [generator('random', all(Array.from({ length: n }, (_, i) => operand(i))))]];
    expect(growth(1000, make)).toBeLessThanOrEqual(BOUND);
  });

  it('an `or` of n distinct targets', () => {
    const make = (n: number): [Graph, GeneratorExpr[]] => [
      ring(n),
      [generator('a_star', any(Array.from({ length: n }, (_, i) => call('reached_edge', `e_${i}`))))],
    ];
    expect(growth(2000, make)).toBeLessThanOrEqual(BOUND);
  });

  it('a sequence of n generators, each heading for a target of its own', () => {
    const make = (n: number): [Graph, GeneratorExpr[]] => [
      ring(n),
      Array.from({ length: n }, (_, i) =>
        i % 2 === 0 ? generator('a_star', call('reached_vertex', `v_${i}`)) : generator('random', operand(i)),
      ),
    ];
    expect(growth(1000, make)).toBeLessThanOrEqual(BOUND);
  });

  it('`and`s nested n deep, each with a target of its own', () => {
    const make = (n: number): [Graph, GeneratorExpr[]] => {
      let condition = call('reached_vertex', `v_${n - 1}`);
      for (let i = n - 2; i >= 0; i--) condition = all([call('reached_vertex', `v_${i}`), condition]);
      return [ring(n), [generator('a_star', condition)]];
    };
    expect(growth(400, make)).toBeLessThanOrEqual(BOUND);
  });
});

describe('a load whose guards the walk explores takes time linear in the generator string and the model', () => {
  /** A ring of n vertices whose first edge flips x and whose second is guarded: 2n states, all known. */
  function guardedRing(n: number): Graph {
    const model = { ...ringJson(n), actions: ['x = 0;'] };
    model.edges[0] = { ...model.edges[0], actions: ['x = 1 - x;'] };
    model.edges[1] = { ...model.edges[1], guard: 'x >= 0' };
    return new Graph({ models: [model] });
  }

  /** Opens and closes a walk of `graph` whose generators ask for full vertex coverage `k` times over. */
  function open([graph, k]: [Graph, number]): void {
    const generators = Array.from({ length: k / 500 }, () => `random(${Array.from({ length: 500 }, () => 'vertex_coverage(100)').join(' and ')})`);
    const machine = new Machine({ graph, registries, seed: 1, generators: [generators.join(' ')], settings: walkSettings({ planTimeMs: 60_000 }) });
    equal(machine.plannedStates(), 2 * graph.vertexCount);
    machine.dispose();
  }

  it('judges what the guards forbid once for operands written alike', () => {
    // A ring of n vertices and 2n operands, 500 to a generator.
    const make = (n: number): [Graph, number] => [guardedRing(n), 2 * n];
    expect(timeGrowth(make, open, 500, { scale: SCALE, bound: BOUND }).ratio).toBeLessThanOrEqual(BOUND);
  });
});
