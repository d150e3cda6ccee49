import { readFileSync } from 'node:fs';
import { describe, expect, it } from 'vitest';
import { call, testApp } from './helpers.js';
import { loop } from './models.js';

/** GraphWalker's REST test model: UC01, 7 vertices and 12 edges, start edge e0 (`e_init`) with two actions. */
const UC01 = readFileSync(new URL('../fixtures/models/graphwalker/UC01-rest.json', import.meta.url), 'utf8');
const PROPERTIES = readFileSync(new URL('../fixtures/models/graphwalker/ModelWithProperties.json', import.meta.url), 'utf8');
const LOGIN = readFileSync(new URL('../../examples/models/login.json', import.meta.url), 'utf8');
/** GraphWalker's yEd Login model: 3 vertices, 9 edges, a Start vertex whose out-edge is the start edge. */
const LOGIN_GRAPHML = readFileSync(new URL('../fixtures/models/graphml/io/Login.graphml', import.meta.url), 'utf8');

const GW = '/graphwalker';
const TEXT = 'text/plain; charset=utf-8';

describe('/graphwalker: the same walk as /walker', () => {
  it('sees a walk loaded and stepped through the other dialect, and the other sees its steps', async () => {
    const app = await testApp();
    expect((await call(app, 'POST', `${GW}/load`, UC01)).body).toEqual({ result: 'ok', seed: expect.any(Number) });
    expect((await call(app, 'GET', '/walker/getNext')).body.currentElementID).toBe('e0');
    expect((await call(app, 'GET', `${GW}/getStatistics`)).body).toMatchObject({ totalNumberOfVisitedEdges: 1 });
    await call(app, 'GET', `${GW}/getNext`);
    expect((await call(app, 'GET', '/walker/getStatistics')).body).toMatchObject({
      totalNumberOfVisitedEdges: 1,
      totalNumberOfVisitedVertices: 1,
    });
  });

  it('answers JSON as text/plain, as GraphWalker does, failures included', async () => {
    const app = await testApp();
    const before = await call(app, 'GET', `${GW}/hasNext`);
    expect(before.type).toBe(TEXT);
    expect(before.body).toEqual({ result: 'nok', error: 'No model(s) are loaded.' });
    await call(app, 'POST', `${GW}/load`, UC01);
    const has = await call(app, 'GET', `${GW}/hasNext`);
    expect([has.type, has.raw.body]).toEqual([TEXT, '{"result":"ok","hasNext":"true"}']);
    expect((await call(app, 'GET', '/walker/hasNext')).type).toBe('application/json; charset=utf-8');
  });

  it('loads a yEd GraphML body with the generator given in the query, and refuses one without', async () => {
    const app = await testApp();
    const without = await call(app, 'POST', `${GW}/load`, LOGIN_GRAPHML);
    expect(without.body).toEqual({ result: 'nok', error: expect.stringContaining('generator') });
    const generator = encodeURIComponent('random(edge_coverage(100))');
    expect((await call(app, 'POST', `${GW}/load?generator=${generator}`, LOGIN_GRAPHML)).body).toMatchObject({ result: 'ok' });
    // A body has no file name to name the model after, as a GraphML file's model is named.
    expect((await call(app, 'GET', `${GW}/getNext`)).body).toEqual({ result: 'ok', currentElementName: 'e_Init' });
  });

  it('answers 404 for a path that is no endpoint and 405 for a method an endpoint does not take', async () => {
    const app = await testApp();
    const unknown = await call(app, 'GET', `${GW}/inexistent`);
    expect([unknown.status, unknown.body]).toEqual([404, { result: 'nok', error: 'No such endpoint: GET /graphwalker/inexistent' }]);
    const wrong = await call(app, 'GET', `${GW}/restart`);
    expect([wrong.status, wrong.raw.headers.allow]).toEqual([405, 'PUT']);
  });
});

describe('/graphwalker getNext', () => {
  it('without flags: the element name and the base name of the model name', async () => {
    const app = await testApp();
    await call(app, 'POST', `${GW}/load`, UC01);
    expect((await call(app, 'GET', `${GW}/getNext`)).body).toEqual({ result: 'ok', currentElementName: 'e_init', modelName: 'UC01' });
  });

  it("takes the model name's base name: no path up to the last / or \\, no extension from the last dot", async () => {
    const app = await testApp();
    for (const [name, base] of [
      ['shop/checkout/Cart.json', 'Cart'],
      ['C:\\models\\Cart.graphml', 'Cart'],
      ['a.b.c', 'a.b'],
      ['Plain', 'Plain'],
    ]) {
      const file = loop();
      await call(app, 'POST', `${GW}/load`, { ...file, models: [{ ...file.models[0], name }] });
      expect((await call(app, 'GET', `${GW}/getNext`)).body.modelName, name).toBe(base);
    }
  });

  it('leaves modelName out when the model has no name', async () => {
    const app = await testApp();
    const file = loop();
    const { name: _name, ...unnamed } = file.models[0];
    await call(app, 'POST', `${GW}/load`, { ...file, models: [unnamed] });
    expect((await call(app, 'GET', `${GW}/getNext`)).body).toEqual({ result: 'ok', currentElementName: 'e_init' });
  });

  it("with --verbose and --unvisited: GraphWalker's RestTest step on UC01", async () => {
    const app = await testApp({ stepReport: { verbose: true, unvisited: true } });
    await call(app, 'POST', `${GW}/load`, UC01);
    const step = (await call(app, 'GET', `${GW}/getNext`)).body;
    expect(step).toMatchObject({
      result: 'ok',
      modelName: 'UC01',
      currentElementID: 'e0',
      currentElementName: 'e_init',
      numberOfElements: 19,
      numberOfUnvisitedElements: 18,
      // The data after the start edge's actions ran, each value a string.
      data: [{ num_of_books: '0' }, { MAX_BOOKS: '5' }],
      properties: [],
      actions: [{ Action: ' num_of_books = 0;' }, { Action: ' MAX_BOOKS = 5;' }],
    });
    const unvisited = step.unvisitedElements as Array<Record<string, string>>;
    expect(unvisited).toHaveLength(18);
    expect(unvisited[0]).toEqual({ elementName: 'v_BrowserStarted', elementId: 'n1' });
    expect(unvisited.some((e) => e.elementId === 'e0')).toBe(false);
  });

  it('lists properties as single-member objects and leaves actions out when the element has none', async () => {
    const app = await testApp({ stepReport: { verbose: true } });
    await call(app, 'POST', `${GW}/load`, PROPERTIES);
    const step = (await call(app, 'GET', `${GW}/getNext`)).body;
    expect(step).toEqual({
      result: 'ok',
      currentElementName: 'e_FirstAction',
      modelName: 'Small model',
      currentElementID: 'e0',
      data: [],
      properties: [{ color: 'green' }],
    });
  });

  it('with --unvisited only: no element ids, and no name for an unnamed element', async () => {
    const app = await testApp({ stepReport: { unvisited: true } });
    const file = loop();
    const [start, ...rest] = file.models[0].edges ?? [];
    const { name: _name, ...unnamed } = rest[0];
    await call(app, 'POST', `${GW}/load`, { ...file, models: [{ ...file.models[0], edges: [start, unnamed, ...rest.slice(1)] }] });
    const step = (await call(app, 'GET', `${GW}/getNext`)).body;
    expect(step.currentElementID).toBeUndefined();
    const unvisited = step.unvisitedElements as Array<Record<string, string>>;
    expect(unvisited).toContainEqual({});
    expect(unvisited.every((e) => e.elementId === undefined)).toBe(true);
  });

  it('carries the same report on /walker, beside its own members', async () => {
    const app = await testApp({ stepReport: { verbose: true } });
    await call(app, 'POST', '/walker/load', UC01);
    expect((await call(app, 'GET', '/walker/getNext')).body).toMatchObject({
      currentElementName: 'e_init',
      currentElementID: 'e0',
      modelId: expect.any(String),
      modelName: 'UC01',
      data: [{ num_of_books: '0' }, { MAX_BOOKS: '5' }],
    });
  });
});

describe('/graphwalker getData and setData', () => {
  it("answers the current model's variables as an object of strings, without global ones", async () => {
    const app = await testApp();
    await call(app, 'POST', `${GW}/load`, UC01);
    await call(app, 'GET', `${GW}/getNext`);
    expect((await call(app, 'GET', `${GW}/getData`)).body).toEqual({ result: 'ok', data: { num_of_books: '0', MAX_BOOKS: '5' } });
  });

  it("turns AltWalker's setData values into the strings its tests expect", async () => {
    const app = await testApp();
    await call(app, 'POST', `${GW}/load`, LOGIN);
    await call(app, 'GET', `${GW}/getNext`);
    // AltWalker sends `key=value` quoted whole with quote(..., safe=""): strings in double quotes, booleans and numbers bare.
    const values: Array<[string, string]> = [
      ['flag', 'true'],
      ['message', '"Test message."'],
      ['url', '"url/example/"'],
      ['count', '1.33'],
      ['neg', '-1'],
      ['semi', '"a; b=c"'],
      ['global.g', '1'],
    ];
    for (const [key, value] of values) {
      const res = await call(app, 'PUT', `${GW}/setData/${encodeURIComponent(`${key}=${value}`)}`);
      expect(res.body, key).toEqual({ result: 'ok' });
    }
    expect((await call(app, 'GET', `${GW}/getData`)).body.data).toEqual({
      signedIn: 'false',
      remember: 'false',
      attempts: '0',
      flag: 'true',
      message: 'Test message.',
      url: 'url/example/',
      count: '1.33',
      neg: '-1',
      semi: 'a; b=c',
    });
    // The same variables in /walker's string, shared ones included.
    expect((await call(app, 'GET', '/walker/getData')).body.data).toMatch(/; semi=a; b=c; global\.g=1$/);
  });

  it('answers a script error with nok and the message', async () => {
    const app = await testApp();
    await call(app, 'POST', `${GW}/load`, LOGIN);
    const res = await call(app, 'PUT', `${GW}/setData/${encodeURIComponent('y = undefinedVar + 1')}`);
    expect(res.status).toBe(200);
    expect(res.body).toEqual({ result: 'nok', error: expect.stringContaining('ReferenceError: undefinedVar is not defined') });
  });
});

describe('/graphwalker fail', () => {
  it('fails the model and answers nok with the reason, with HTTP 200', async () => {
    const app = await testApp();
    await call(app, 'POST', `${GW}/load`, LOGIN);
    await call(app, 'GET', `${GW}/getNext`);
    const res = await call(app, 'PUT', `${GW}/fail/${encodeURIComponent('Step not found.')}`);
    expect([res.status, res.body]).toEqual([200, { result: 'nok', error: 'Step not found.' }]);
    expect((await call(app, 'GET', `${GW}/hasNext`)).body.hasNext).toBe('false');
    expect((await call(app, 'GET', `${GW}/getStatistics`)).body.totalFailedNumberOfModels).toBe(1);
  });

  it('before the first step fails nothing: nok, and the walk goes on', async () => {
    const app = await testApp();
    await call(app, 'POST', `${GW}/load`, LOGIN);
    const res = await call(app, 'PUT', `${GW}/fail/early`);
    expect(res.body).toEqual({
      result: 'nok',
      error: 'There is no step to fail yet: take one with getNext first. The model is not failed.',
    });
    expect((await call(app, 'GET', `${GW}/getStatistics`)).body.totalFailedNumberOfModels).toBe(0);
    expect((await call(app, 'GET', `${GW}/hasNext`)).body.hasNext).toBe('true');
    // /walker keeps its own rule: a fail before the first step fails the model.
    expect((await call(app, 'PUT', '/walker/fail/early')).body).toEqual({ result: 'ok' });
    expect((await call(app, 'GET', `${GW}/getStatistics`)).body.totalFailedNumberOfModels).toBe(1);
  });

  it('after a restart there is again nothing to fail until a step is taken', async () => {
    const app = await testApp();
    await call(app, 'POST', `${GW}/load`, LOGIN);
    await call(app, 'GET', `${GW}/getNext`);
    await call(app, 'PUT', `${GW}/restart`);
    expect((await call(app, 'PUT', `${GW}/fail/x`)).body.error).toMatch(/^There is no step to fail yet/);
  });
});

describe('/graphwalker getStatistics', () => {
  it('lists requirements passed, not covered and failed, with GraphWalker\'s capital R in the failed ones', async () => {
    const app = await testApp();
    await call(app, 'POST', `${GW}/load`, LOGIN);
    const fresh = (await call(app, 'GET', `${GW}/getStatistics`)).body;
    expect(fresh).toMatchObject({
      totalNumberOfRequirement: 2,
      requirementsPassed: [],
      requirementsFailed: [],
      requirementsNotCovered: [
        { requirementKey: 'LOGIN-1', modelName: 'Login' },
        { requirementKey: 'LOGIN-2', modelName: 'Login' },
      ],
    });
    // e_Start, v_AppClosed, e_OpenApp, v_LoginForm: the form's requirement passes when stepped on.
    for (let i = 0; i < 4; i++) await call(app, 'GET', `${GW}/getNext`);
    await call(app, 'PUT', `${GW}/fail/broken`);
    const after = (await call(app, 'GET', `${GW}/getStatistics`)).body;
    expect(after).toMatchObject({
      totalNumberOfFailedRequirement: 1,
      requirementsPassed: [],
      requirementsFailed: [{ RequirementKey: 'LOGIN-1', modelName: 'Login' }],
      requirementsNotCovered: [{ requirementKey: 'LOGIN-2', modelName: 'Login' }],
    });
  });

  it('has no requirement members when the models have no requirements', async () => {
    const app = await testApp();
    await call(app, 'POST', `${GW}/load`, UC01);
    const stats = (await call(app, 'GET', `${GW}/getStatistics`)).body;
    expect(Object.keys(stats).filter((k) => /equirement/.test(k))).toEqual([]);
  });
});
