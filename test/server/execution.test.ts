import { describe, expect, it } from 'vitest';
import { call, load, testApp, walkToEnd } from './helpers.js';
import { loop } from './models.js';

describe('execution endpoints: the walk', () => {
  it('loads a model and answers the seed', async () => {
    const app = await testApp();
    const res = await load(app, loop());
    expect(res.status).toBe(200);
    expect(res.type).toBe('application/json; charset=utf-8');
    // `count` grows without end, so exploring the states stops at a bound, which the load says.
    expect(res.body).toEqual({ result: 'ok', seed: expect.any(Number), warnings: [expect.objectContaining({ code: 'plan_bound' })] });
    expect(Number.isSafeInteger(res.body.seed)).toBe(true);
  });

  it('answers hasNext as the string "true" or "false"', async () => {
    const app = await testApp();
    await load(app, loop('random(length(1))'));
    expect((await call(app, 'GET', '/walker/hasNext')).body).toEqual({ result: 'ok', hasNext: 'true' });
    await call(app, 'GET', '/walker/getNext');
    await call(app, 'GET', '/walker/getNext');
    expect((await call(app, 'GET', '/walker/hasNext')).body).toEqual({ result: 'ok', hasNext: 'false' });
  });

  it('answers getNext with exactly the element name, id, model id and model name', async () => {
    const app = await testApp();
    await load(app, loop());
    const first = await call(app, 'GET', '/walker/getNext');
    expect(first.body).toEqual({ result: 'ok', currentElementName: 'e_init', currentElementID: 'e0', modelId: 'loop', modelName: 'Loop' });
    expect((await call(app, 'GET', '/walker/getNext')).body).toEqual({
      result: 'ok',
      currentElementName: 'v_Start',
      currentElementID: 'v0',
      modelId: 'loop',
      modelName: 'Loop',
    });
  });

  it('names an unnamed element ""', async () => {
    const app = await testApp();
    const unnamed = {
      models: [
        {
          id: 'm',
          generator: 'random(length(3))',
          startElementId: 'e0',
          vertices: [{ id: 'v0', name: 'v_Only' }],
          edges: [
            { id: 'e0', targetVertexId: 'v0' },
            { id: 'e1', sourceVertexId: 'v0', targetVertexId: 'v0' },
          ],
        },
      ],
    };
    await load(app, unnamed);
    expect((await call(app, 'GET', '/walker/getNext')).body).toEqual({
      result: 'ok',
      currentElementName: '',
      currentElementID: 'e0',
      modelId: 'm',
    });
  });

  it('reads and sets the data', async () => {
    const app = await testApp();
    await load(app, loop());
    expect((await call(app, 'GET', '/walker/getData')).body).toEqual({ result: 'ok', data: '' });
    await call(app, 'GET', '/walker/getNext');
    expect((await call(app, 'GET', '/walker/getData')).body).toEqual({ result: 'ok', data: 'count=0' });
    expect((await call(app, 'PUT', `/walker/setData/${encodeURIComponent('count = 5; name = "a/b;c=d";')}`)).body).toEqual({ result: 'ok' });
    expect((await call(app, 'GET', '/walker/getData')).body).toEqual({ result: 'ok', data: 'count=5; name=a/b;c=d' });
  });

  it('takes a setData script with a plain / and ; in the path', async () => {
    const app = await testApp();
    await load(app, loop());
    await call(app, 'GET', '/walker/getNext');
    expect((await call(app, 'PUT', '/walker/setData/half=10/4;twice=half*2;')).body).toEqual({ result: 'ok' });
    expect((await call(app, 'GET', '/walker/getData')).body.data).toBe('count=0; half=2.5; twice=5');
  });

  it('restarts: the walk after a restart repeats the walk after the load', async () => {
    const app = await testApp();
    await load(app, loop());
    const first = await walkToEnd(app);
    expect((await call(app, 'PUT', '/walker/restart')).body).toEqual({ result: 'ok' });
    expect((await call(app, 'GET', '/walker/getData')).body.data).toBe('');
    expect((await call(app, 'GET', '/walker/getStatistics')).body).toMatchObject({ totalNumberOfVisitedEdges: 0 });
    expect(await walkToEnd(app)).toEqual(first);
  });

  it('replays the walk of a seed returned by load', async () => {
    const app = await testApp();
    const { seed } = (await load(app, loop())).body as { seed: number };
    const first = await walkToEnd(app);
    const replay = await testApp({ seed });
    expect((await load(replay, loop())).body.seed).toBe(seed);
    expect(await walkToEnd(replay)).toEqual(first);
  });

  it('marks the model failed with fail/{reason}', async () => {
    const app = await testApp();
    await load(app, loop());
    await call(app, 'GET', '/walker/getNext');
    expect((await call(app, 'PUT', `/walker/fail/${encodeURIComponent('login button/missing')}`)).body).toEqual({ result: 'ok' });
    expect((await call(app, 'GET', '/walker/hasNext')).body.hasNext).toBe('false');
    expect((await call(app, 'GET', '/walker/getStatistics')).body).toMatchObject({ totalFailedNumberOfModels: 1 });
  });

  it('answers the statistics by GET and by POST', async () => {
    const app = await testApp();
    await load(app, loop());
    await call(app, 'GET', '/walker/getNext');
    const expected = {
      result: 'ok',
      totalNumberOfModels: 1,
      totalCompletedNumberOfModels: 0,
      totalFailedNumberOfModels: 0,
      totalIncompleteNumberOfModels: 1,
      totalNotExecutedNumberOfModels: 0,
      totalNumberOfVertices: 3,
      totalNumberOfEdges: 5,
      totalNumberOfVisitedVertices: 0,
      totalNumberOfVisitedEdges: 1,
      totalNumberOfUnvisitedVertices: 3,
      totalNumberOfUnvisitedEdges: 4,
      vertexCoverage: 0,
      edgeCoverage: 20,
      edgesNotVisited: [
        { edgeName: 'e_go', edgeId: 'e1', modelName: 'Loop' },
        { edgeName: 'e_back', edgeId: 'e2', modelName: 'Loop' },
        { edgeName: 'e_finish', edgeId: 'e3', modelName: 'Loop' },
        { edgeId: 'e4', modelName: 'Loop' },
      ],
      verticesNotVisited: [
        { vertexName: 'v_Start', vertexId: 'v0', modelName: 'Loop' },
        { vertexName: 'v_Home', vertexId: 'v1', modelName: 'Loop' },
        { vertexName: 'v_Done', vertexId: 'v2', modelName: 'Loop' },
      ],
      // `count` grows without end: exploring stops once it has grown past every number the scripts name, at
      // the first look (2,000 states explored). Then plans are made on the fly; no step asked for one yet.
      planning: {
        exploredStates: expect.any(Number),
        stateBound: 100_000,
        timeBoundMs: 10_000,
        boundHit: 'growth',
        decisions: 0,
        graphDecisions: 0,
      },
    };
    expect((await call(app, 'GET', '/walker/getStatistics')).body).toEqual(expected);
    expect((await call(app, 'POST', '/walker/getStatistics')).body).toEqual(expected);
  });

  it('reports full coverage at the end of an edge_coverage(100) walk', async () => {
    const app = await testApp();
    await load(app, loop());
    await walkToEnd(app);
    expect((await call(app, 'GET', '/walker/getStatistics')).body).toMatchObject({
      result: 'ok',
      edgeCoverage: 100,
      totalNumberOfUnvisitedEdges: 0,
      edgesNotVisited: [],
    });
  });

  it('replaces the loaded model with the next load', async () => {
    const app = await testApp();
    await load(app, loop());
    await call(app, 'GET', '/walker/getNext');
    await load(app, { ...loop(), models: [{ ...loop().models[0], id: 'other' }] });
    expect((await call(app, 'GET', '/walker/getNext')).body).toMatchObject({ currentElementID: 'e0', modelId: 'other' });
  });
});
