import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { loadModelFile } from '../../../core/model/load.js';
import { Walker } from '../../../core/walker.js';
import { Graph } from '../../../core/model/graph.js';
import { endlessGrowth } from '../../../core/planning/endless-growth.js';
import { builtinPlugins } from '../../../plugins/index.js';
import { COUNTER_MODELS, counterFile } from '../../support/counter-models.js';
import type { OracleModel } from '../../support/guard-oracle.js';

/**
 * The load stops exploring once the states grow without end (docs/planning.md, "The bound"), so that the first
 * move comes soon on a counter without bound; a counter that stops at a number its scripts name is explored
 * whole, as before.
 */

let walker: Walker;
beforeAll(async () => {
  walker = await Walker.create(builtinPlugins());
});
afterAll(() => walker.dispose());

/** One vertex whose self-loop runs `action`, with a guarded way out, so that the walk explores its states. */
function loop(action: string, actions = ['n = 0;']): OracleModel & { id: string } {
  return {
    id: 'loop',
    name: 'loop',
    startElementId: 'v_A',
    actions,
    vertices: [{ id: 'v_A', name: 'v_A' }, { id: 'v_B', name: 'v_B' }],
    edges: [
      { id: 'e_Count', name: 'e_Count', sourceVertexId: 'v_A', targetVertexId: 'v_A', actions: [action] },
      { id: 'e_Out', name: 'e_Out', sourceVertexId: 'v_A', targetVertexId: 'v_B', guard: 'n % 7 == 3' },
      { id: 'e_Back', name: 'e_Back', sourceVertexId: 'v_B', targetVertexId: 'v_A' },
    ],
  } as unknown as OracleModel & { id: string };
}

function planningOf(model: OracleModel) {
  const machine = walker.walk(loadModelFile(counterFile(model)), { seed: 1 });
  try {
    return machine.planningFigures();
  } finally {
    machine.dispose();
  }
}

describe('the load of a walk whose states grow without end', () => {
  it.each(COUNTER_MODELS.map((m) => [m.id, m] as const))('%s: stops at the first look, 2,000 states in, and says why', (_, model) => {
    const planning = planningOf(model);
    expect({ boundHit: planning?.boundHit, found: planning!.exploredStates < 2_100 }).toEqual({ boundHit: 'growth', found: true });
  });

  it('explores a counter that stops at a number its scripts name whole, as before: 6,000 states at v_A and 857 at v_B', () => {
    const planning = planningOf(loop('if (n < 5999) n++;'));
    expect(planning).toEqual({ exploredStates: 6_857, stateBound: 100_000, timeBoundMs: 10_000 });
  });

  it('explores a counter whose limit the model actions set whole', () => {
    expect(planningOf(loop('if (n < limit) n++;', ['n = 0;', 'limit = 3000;']))?.boundHit).toBeUndefined();
  });
});

describe('endlessGrowth', () => {
  const graphOf = (model: OracleModel) => new Graph(counterFile(model));

  it('says nothing of numbers within twice the largest the scripts name, and of digits in strings and names', () => {
    const test = endlessGrowth(graphOf(loop("n = n + 0x10; s = 'x99999'; x2 = 1;")))!;
    // 0x10 and 7 are named: up to 32 is within.
    expect([test('[["n",32]]'), test('[["n",-32]]'), test('[["s","99999999"]]'), test('[["n",33]]'), test('[["n",-3.3e1]]')]).toEqual([
      false,
      false,
      false,
      true,
      true,
    ]);
  });
});
