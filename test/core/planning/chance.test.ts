import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { beforeAll, describe, expect, it } from 'vitest';
import { ErrorCodes, WalkerError } from '../../../core/errors.js';
import { loadModelFile } from '../../../core/model/load.js';
import type { ModelFileJson } from '../../../core/model/types.js';
import { Walker } from '../../../core/walker.js';
import { builtinPlugins } from '../../../plugins/index.js';
import { guardedModelsFolder } from '../../support/guarded-walks.js';

/**
 * Chance and time in guards and actions (docs/planning.md, "Scripts that read chance or time"): a guard that
 * reads either may be open, actions that read either lead to a state that is not known ahead, and what the
 * planner proves never happens must never happen whatever the draws.
 */

let walker: Walker;
beforeAll(async () => {
  walker = await Walker.create(builtinPlugins());
});

const fixture = (file: string): ModelFileJson => JSON.parse(readFileSync(join(guardedModelsFolder(), file), 'utf8')) as ModelFileJson;
const SEEDS = Array.from({ length: 40 }, (_, i) => i + 1);

/** The ids a walk hands out until it ends, or `cap` of them. */
function path(file: ModelFileJson, generator: string, seed: number, cap = 2_000): { ids: string[]; ended: boolean } {
  const machine = walker.walk(loadModelFile(file), { generator, seed });
  const ids: string[] = [];
  try {
    while (ids.length < cap && machine.hasNext()) ids.push(machine.next().id);
    return { ids, ended: !machine.hasNext() };
  } finally {
    machine.dispose();
  }
}

function refusal(file: ModelFileJson, generator: string): WalkerError | undefined {
  try {
    walker.walk(loadModelFile(file), { generator, seed: 1 }).dispose();
    return undefined;
  } catch (error) {
    return error as WalkerError;
  }
}

describe('a guard that reads chance (flaky.json: e_Flaky opens when Math.random() < 0.5)', () => {
  it('a_star heads for it on every seed, and draws again by e_Recheck when chance closed it', () => {
    // Five builds, e_Stage and e_Flaky: 1 + 2 x 6 + 1 = 14 elements when the first draw opens it. Each closed
    // draw at v_Ready is worth one e_Recheck (two elements, and the guard draws again); e_Abort would throw
    // the five builds away. So every seed takes 14 + 2 per e_Recheck, and none aborts.
    for (const seed of SEEDS) {
      const { ids, ended } = path(fixture('flaky.json'), 'a_star(reached_edge(e_Flaky))', seed);
      const rechecks = ids.filter((id) => id === 'e_Recheck').length;
      expect({ seed, ended, last: ids.at(-1), aborts: ids.includes('e_Abort'), steps: ids.length }).toEqual({
        seed,
        ended: true,
        last: 'e_Flaky',
        aborts: false,
        steps: 14 + 2 * rechecks,
      });
    }
  });

  it('shortest_all_paths covers every edge on every seed', () => {
    for (const seed of SEEDS.slice(0, 10)) {
      expect({ seed, ended: path(fixture('flaky.json'), 'shortest_all_paths(edge_coverage(100))', seed).ended }).toEqual({ seed, ended: true });
    }
  });

  it('is never reported closed, and the edges the guards keep closed are still found', () => {
    const file = fixture('flaky.json');
    // An edge whose guard no state lets through, beside the one chance decides.
    file.models[0].edges.push({ id: 'e_Hotfix', name: 'e_Hotfix', sourceVertexId: 'v_Ready', targetVertexId: 'v_Deployed', guard: 'builds > 5' });
    const machine = walker.walk(loadModelFile(file), { generator: 'random(length(1))', seed: 1 });
    try {
      expect(machine.closedEdges().map((c) => c.edge)).toEqual([machine.graph.ids.indexOf('e_Hotfix')]);
    } finally {
      machine.dispose();
    }
  });
});

describe('a guard that reads the time, beside an edge that never opens (clock.json)', () => {
  const NEVER = 'e_Never (guard "visits > 7"; at v_Online the variables are only visits=0, MAX_VISITS=3 | visits=1, MAX_VISITS=3 | visits=2, MAX_VISITS=3 | … 1 more)';

  /** clock.json with its time guard written with `new Date()`, which only the planning sandbox runs. */
  function inTheSandbox(): ModelFileJson {
    const file = fixture('clock.json');
    const edge = file.models[0].edges.find((e) => e.id === 'e_EnterWindow')!;
    edge.guard = 'new Date().getTime() % 3000 < 1000';
    return file;
  }

  it.each([
    ['plain scripts, in the host', () => fixture('clock.json')],
    ['a script only the sandbox runs', inTheSandbox],
  ])('names e_Never as closed, and refuses full edge coverage: %s', (_, file) => {
    const machine = walker.walk(loadModelFile(file()), { generator: 'random(length(1))', seed: 1 });
    try {
      expect(machine.closedEdges().map((c) => c.words)).toEqual([NEVER]);
    } finally {
      machine.dispose();
    }
    const error = refusal(file(), 'shortest_all_paths(edge_coverage(100))');
    expect({ code: error?.code, names: error?.message.includes(NEVER) }).toEqual({ code: ErrorCodes.UNREACHABLE_GOAL, names: true });
  });

  it('covers the four other edges on every seed, the time guard among them', () => {
    for (const seed of SEEDS.slice(0, 10)) {
      const { ids, ended } = path(fixture('clock.json'), 'shortest_all_paths(edge_coverage(80))', seed);
      expect({ seed, ended, window: ids.includes('e_EnterWindow') }).toEqual({ seed, ended: true, window: true });
    }
  });
});

describe('actions that store chance or time', () => {
  /**
   * A login that hands out a fresh token on each login and refresh: every token is a new value, so exploring
   * through the draws would find a new state at every step, up to the bound. `source` is what the token is.
   */
  function tokens(source: string): ModelFileJson {
    return {
      models: [
        {
          id: 'tokens',
          name: 'Tokens',
          startElementId: 'v_LoggedOut',
          actions: ['token = null;', 'logins = 0;'],
          vertices: [
            { id: 'v_LoggedOut', name: 'v_LoggedOut' },
            { id: 'v_LoggedIn', name: 'v_LoggedIn' },
          ],
          edges: [
            { id: 'e_Login', name: 'e_Login', sourceVertexId: 'v_LoggedOut', targetVertexId: 'v_LoggedIn', guard: 'logins < 3', actions: [`token = ${source}; logins++;`] },
            { id: 'e_Refresh', name: 'e_Refresh', sourceVertexId: 'v_LoggedIn', targetVertexId: 'v_LoggedIn', guard: 'token !== null', actions: [`token = ${source};`] },
            { id: 'e_Logout', name: 'e_Logout', sourceVertexId: 'v_LoggedIn', targetVertexId: 'v_LoggedOut', actions: ['token = null;'] },
          ],
        },
      ],
    };
  }

  it.each(['Math.random()', 'Date.now()', 'new Date().getTime()'])('explores no further than the draw of %s, and covers every edge', (source) => {
    for (const seed of SEEDS.slice(0, 10)) {
      const machine = walker.walk(loadModelFile(tokens(source)), { generator: 'shortest_all_paths(edge_coverage(100))', seed });
      try {
        // From the start: v_LoggedOut with no token, and e_Login into v_LoggedIn with a token not known ahead.
        expect(machine.plannedStates()).toBe(2);
        const most: number[] = [];
        while (machine.hasNext() && machine.steps < 200) {
          machine.next();
          most.push(machine.plannedStates() ?? 0);
        }
        // Logged in with a known token: there, v_LoggedOut after e_Logout, and one unknown state at v_LoggedIn,
        // which e_Refresh and e_Login lead to. No exploration holds more.
        expect({ seed, ended: !machine.hasNext(), most: Math.max(...most), cut: machine.planningCut() }).toEqual({ seed, ended: true, most: 3, cut: undefined });
      } finally {
        machine.dispose();
      }
    }
  });

  it('judges nothing from the start when the model actions read chance: another walk begins elsewhere', () => {
    const file = fixture('clock.json');
    // With MAX_VISITS drawn, e_Never may open on another seed: it is not reported.
    file.models[0].actions = ['visits = 0;', 'MAX_VISITS = Math.floor(Math.random() * 12);'];
    const machine = walker.walk(loadModelFile(file), { generator: 'random(length(1))', seed: 1 });
    try {
      expect(machine.closedEdges()).toEqual([]);
    } finally {
      machine.dispose();
    }
  });
});

describe('models entered from their own start elements', () => {
  it('judges the edges of a model the exploration from the first start does not enter as open', () => {
    // Two models, each with a start element and no shared state: the walk enters the second when the first is
    // done. The exploration follows the first only; the second's guard opens, so nothing is refused.
    const model = (id: string) => ({
      id,
      name: id,
      startElementId: `${id}_a`,
      actions: ['x = 0;'],
      vertices: [
        { id: `${id}_a`, name: `v_${id}A` },
        { id: `${id}_b`, name: `v_${id}B` },
      ],
      edges: [
        { id: `${id}_e`, name: `e_${id}`, sourceVertexId: `${id}_a`, targetVertexId: `${id}_b`, guard: 'x == 0' },
        { id: `${id}_back`, name: `e_${id}Back`, sourceVertexId: `${id}_b`, targetVertexId: `${id}_a` },
      ],
    });
    const file: ModelFileJson = { models: [model('m1'), model('m2')] };
    const machine = walker.walk(loadModelFile(file), { generator: 'random(edge_coverage(100))', seed: 1 });
    try {
      expect(machine.closedEdges()).toEqual([]);
      while (machine.hasNext() && machine.steps < 200) machine.next();
      expect(machine.statistics().edgeCoverage).toBe(100);
    } finally {
      machine.dispose();
    }
  });
});
