import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { guardedModelsFolder } from '../support/guarded-walks.js';
import { call, load, testApp } from './helpers.js';

/**
 * What planning with guards shows over REST (docs/api-execution.md, docs/planning.md): the warnings of a
 * load, and the planning figures of `/walker`'s statistics, which `/graphwalker` leaves out.
 */

const fixture = (file: string) => readFileSync(join(guardedModelsFolder(), file), 'utf8');

const CLOSED_ALARM = {
  code: 'closed_edge',
  severity: 'warning',
  message:
    "Model 'Thermostat': edge e_OverheatAlarm (guard \"setpoint > 30\"; at v_Display the variables are only " +
    'setpoint=20 | setpoint=21 | setpoint=19): no walk gets through it',
  modelId: 'thermostat',
  elementId: 'e_OverheatAlarm',
  field: 'guard',
};

describe('a load of a model with guards', () => {
  it('answers the edge no state lets through as a warning on /walker, with the seed', async () => {
    const app = await testApp();
    const loaded = await call(app, 'POST', '/walker/load?generator=random(vertex_coverage(100))', fixture('never-open.json'));
    expect(loaded.body).toEqual({ result: 'ok', seed: expect.any(Number), warnings: [CLOSED_ALARM] });
  });

  it('answers GraphWalker\'s body on /graphwalker, without the warnings', async () => {
    const app = await testApp();
    const loaded = await call(app, 'POST', '/graphwalker/load?generator=random(vertex_coverage(100))', fixture('never-open.json'));
    expect(loaded.body).toEqual({ result: 'ok', seed: expect.any(Number) });
  });

  it('serves a goal only guards close with a goal_needs_data warning, since the client may set data; refused with an ordinary walk', async () => {
    const app = await testApp();
    const loaded = await call(app, 'POST', '/walker/load?generator=random(edge_coverage(100))', fixture('clock.json'));
    const warnings = loaded.body.warnings as Array<{ code: string; modelId: string; message: string }>;
    expect(warnings.map((w) => [w.code, w.modelId])).toEqual([
      ['goal_needs_data', 'maintenance_window'],
      ['closed_edge', 'maintenance_window'],
    ]);
    expect(warnings[0].message).toMatch(/e_Never \(guard "visits > 7".*This holds unless a client sets data: a client may write visits \(setData\)/);
  });

  it('answers no warnings when every edge opens somewhere', async () => {
    const app = await testApp();
    expect((await load(app, fixture('lockout.json'))).body).toEqual({ result: 'ok', seed: expect.any(Number) });
  });

  it('changes nothing when it fails: the walk loaded before goes on', async () => {
    const app = await testApp();
    await load(app, fixture('lockout.json'));
    await call(app, 'GET', '/walker/getNext');
    // A goal the graph itself makes impossible (no edge leads to v_Away) is refused whoever writes the data.
    const model = JSON.parse(fixture('client-data.json')) as { models: Array<{ vertices: object[]; edges: object[] }> };
    model.models[0].vertices.push({ id: 'v_Away', name: 'v_Away' });
    model.models[0].edges.push({ id: 'e_Away', name: 'e_Away', sourceVertexId: 'v_Away', targetVertexId: 'v_Start' });
    const refused = await load(app, model);
    expect(refused.body.result).toBe('nok');
    expect((await call(app, 'GET', '/walker/getNext')).body).toMatchObject({ result: 'ok', modelId: 'lockout' });
  });
});

describe('the statistics of a walk with guards', () => {
  it('/walker says how many states planning explored and its bounds', async () => {
    const app = await testApp();
    await load(app, fixture('lockout.json'));
    await call(app, 'GET', '/walker/getNext');
    // lockout.json has 10 states (its README), all explored.
    expect((await call(app, 'GET', '/walker/getStatistics')).body.planning).toEqual({ exploredStates: 10, stateBound: 100_000, timeBoundMs: 10_000 });
  });

  it('/walker says which bound an exploration stopped at', async () => {
    const app = await testApp({ planStates: 4 });
    await load(app, fixture('lockout.json'));
    await call(app, 'GET', '/walker/getNext');
    // Four states explored, and the fifth found: then the exploration stopped.
    expect((await call(app, 'GET', '/walker/getStatistics')).body.planning).toEqual({
      exploredStates: expect.any(Number),
      stateBound: 4,
      timeBoundMs: 10_000,
      boundHit: 'states',
      // From then on, a decision explores from where the walk stands: the first step's.
      decisions: expect.any(Number),
      graphDecisions: expect.any(Number),
    });
  });

  it('/graphwalker answers GraphWalker\'s members only', async () => {
    const app = await testApp();
    await load(app, fixture('lockout.json'));
    await call(app, 'GET', '/walker/getNext');
    const walker = (await call(app, 'GET', '/walker/getStatistics')).body;
    const graphwalker = (await call(app, 'GET', '/graphwalker/getStatistics')).body;
    const { planning: _planning, ...rest } = walker;
    expect(graphwalker).toEqual(rest);
  });

  it('/walker has no planning member for a walk without guards', async () => {
    const app = await testApp();
    await load(app, readFileSync(join(guardedModelsFolder(), '..', 'graphwalker', 'SmallModel.json'), 'utf8'));
    expect((await call(app, 'GET', '/walker/getStatistics')).body.planning).toBeUndefined();
  });
});
