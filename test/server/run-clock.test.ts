import { describe, expect, it } from 'vitest';
import { call, load, testApp } from './helpers.js';
import { loop } from './models.js';

/** 2024-01-01T00:00:00Z: where the run's clock of seed 0 starts (docs/behaviour.md, "Scripts"). */
const SEED_0_START = Date.UTC(2024, 0, 1);

describe("the run's clock of a walk", () => {
  it('advances one second per step the walk takes, and starts again with a restart', async () => {
    const app = await testApp();
    const file = loop('random(never)', 0);
    file.models[0].vertices = file.models[0].vertices.map((v) => ({ ...v, actions: ['t = Date.now();'] }));
    await load(app, file);
    const t = async () => (await call(app, 'GET', '/walker/getData')).body.data;
    // e0, then v_Start: its action reads the clock at step 2; e_go and v_Home follow: step 4.
    await call(app, 'GET', '/walker/getNext');
    await call(app, 'GET', '/walker/getNext');
    expect(await t()).toBe(`count=0; t=${SEED_0_START + 2000}`);
    await call(app, 'GET', '/walker/getNext');
    await call(app, 'GET', '/walker/getNext');
    expect(await t()).toBe(`count=1; t=${SEED_0_START + 4000}`);
    // setData reads the clock where the steps left it; a restart rewinds it with the walk.
    await call(app, 'PUT', `/walker/setData/${encodeURIComponent('u = Date.now();')}`);
    expect(await t()).toBe(`count=1; t=${SEED_0_START + 4000}; u=${SEED_0_START + 4000}`);
    await call(app, 'PUT', '/walker/restart');
    await call(app, 'GET', '/walker/getNext');
    await call(app, 'GET', '/walker/getNext');
    expect(await t()).toBe(`count=0; t=${SEED_0_START + 2000}`);
  });
});
