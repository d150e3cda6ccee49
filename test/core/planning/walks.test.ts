import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { beforeAll, describe, expect, it } from 'vitest';
import { loadModelFile } from '../../../core/model/load.js';
import type { ModelFileJson } from '../../../core/model/types.js';
import { Walker } from '../../../core/walker.js';
import { builtinPlugins } from '../../../plugins/index.js';

/** Walks planned over the states, through the real machine and sandbox (docs/planning.md). */

let walker: Walker;
beforeAll(async () => {
  walker = await Walker.create(builtinPlugins());
});

const GUARDED = join(import.meta.dirname, '../../fixtures/models/guarded');
const lockout = (): ModelFileJson => JSON.parse(readFileSync(join(GUARDED, 'lockout.json'), 'utf8')) as ModelFileJson;
const SEEDS = Array.from({ length: 10 }, (_, i) => i + 1);

function walk(file: ModelFileJson, generator: string, seed: number, between?: (steps: number, setData: (s: string) => void) => void) {
  const machine = walker.walk(loadModelFile(file), { generator, seed });
  const path: string[] = [];
  try {
    while (machine.hasNext() && path.length < 1000) {
      path.push(machine.next().id);
      between?.(path.length, (script) => machine.setData(script));
    }
    return { path, ended: !machine.hasNext(), edgeCoverage: machine.statistics().edgeCoverage, closed: machine.closedEdges() };
  } finally {
    machine.dispose();
  }
}

describe('planning over states', () => {
  it('explores in the sandbox what plain scripts would explore in the host, to the same optimum', () => {
    // The same lockout, its scripts written with an array, which only the sandbox runs.
    const file = lockout();
    const model = file.models[0];
    for (const edge of model.edges) {
      edge.actions = edge.actions?.map((a) => a.replace('failures++;', 'failures = [failures + 1][0];'));
      if (edge.guard !== undefined) edge.guard = `[1].length === 1 && (${edge.guard})`;
    }
    for (const seed of SEEDS) {
      // 19 is the optimum the oracle finds and guarded-oracle.test.ts argues; the plain model walks it too.
      expect(walk(file, 'shortest_all_paths(edge_coverage(100))', seed).path, `seed ${seed}`).toHaveLength(19);
      expect(walk(lockout(), 'shortest_all_paths(edge_coverage(100))', seed).path, `seed ${seed}`).toHaveLength(19);
    }
  });

  it('plans again after a coin toss it could not foresee, and ends on every seed', () => {
    const file: ModelFileJson = {
      models: [
        {
          id: 'coin',
          name: 'Coin',
          startElementId: 'v_Table',
          actions: ['heads = false;', 'tosses = 0;'],
          vertices: [{ id: 'v_Table', name: 'v_Table' }, { id: 'v_Tossed', name: 'v_Tossed' }],
          edges: [
            { id: 'e_Toss', name: 'e_Toss', sourceVertexId: 'v_Table', targetVertexId: 'v_Tossed', actions: ['heads = Math.random() < 0.5;', 'tosses = Math.min(tosses + 1, 3);'] },
            { id: 'e_Heads', name: 'e_Heads', sourceVertexId: 'v_Tossed', targetVertexId: 'v_Table', guard: 'heads' },
            { id: 'e_Tails', name: 'e_Tails', sourceVertexId: 'v_Tossed', targetVertexId: 'v_Table', guard: '!heads' },
            { id: 'e_Third', name: 'e_Third', sourceVertexId: 'v_Table', targetVertexId: 'v_Table', guard: 'tosses == 3' },
          ],
        },
      ],
    };
    for (const seed of SEEDS) {
      const result = walk(file, 'shortest_all_paths(edge_coverage(100))', seed);
      expect({ ended: result.ended, coverage: result.edgeCoverage }, `seed ${seed}`).toEqual({ ended: true, coverage: 100 });
      // Chance decides which edges a walk takes: nothing is reported closed, since nothing is certain.
      expect(result.closed).toEqual([]);
    }
  });

  it('follows the variables a client sets between steps', () => {
    // After the first valid login (step 3), the client sets two failures: the next invalid login locks.
    for (const seed of SEEDS) {
      const result = walk(lockout(), 'shortest_all_paths(edge_coverage(100))', seed, (steps, setData) => {
        if (steps === 3) setData('failures = 2;');
      });
      expect({ ended: result.ended, coverage: result.edgeCoverage }, `seed ${seed}`).toEqual({ ended: true, coverage: 100 });
    }
  });

  it('names the edge no state lets through, its guard and the values seen at its source', () => {
    const file = JSON.parse(readFileSync(join(GUARDED, 'never-open.json'), 'utf8')) as ModelFileJson;
    const { closed } = walk(file, 'random(length(3))', 1);
    expect(closed.map((c) => c.words)).toEqual([
      'e_OverheatAlarm (guard "setpoint > 30"; at v_Display the variables are only setpoint=20 | setpoint=21 | setpoint=19)',
    ]);
  });

  it('plans by the graph alone past the bound, and says so', () => {
    const machine = walker.walk(loadModelFile(lockout()), { generator: 'shortest_all_paths(edge_coverage(100))', seed: 1, planStates: 3 });
    try {
      while (machine.hasNext() && machine.steps < 1000) machine.next();
      expect({ hit: machine.planningCut(), closed: machine.closedEdges() }).toEqual({ hit: 'states', closed: [] });
    } finally {
      machine.dispose();
    }
  });
});
