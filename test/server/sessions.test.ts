import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import type { FastifyInstance } from 'fastify';
import { describe, expect, it } from 'vitest';
import { call, load, nok, testApp, walkToEnd } from './helpers.js';
import { loop, ring } from './models.js';

/** Creates a session from `body` (a model, `{}`, a draft reference) and answers its id. */
async function createSession(app: FastifyInstance, body?: object | string): Promise<string> {
  const created = await call(app, 'POST', '/walker/sessions', body);
  expect(created.status).toBe(201);
  return String(created.body.id);
}

/** hasNext/getNext under a session until the walk ends; answers the element ids. */
async function walkSession(app: FastifyInstance, id: string, limit = 10_000): Promise<string[]> {
  const ids: string[] = [];
  for (let i = 0; i < limit; i++) {
    const has = await call(app, 'GET', `/walker/sessions/${id}/hasNext`);
    if (has.body.hasNext !== 'true') return ids;
    ids.push(String((await call(app, 'GET', `/walker/sessions/${id}/getNext`)).body.currentElementID));
  }
  throw new Error(`the walk of session ${id} did not end within ${limit} steps`);
}

const UUID = /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/;

describe('POST /walker/sessions', () => {
  it('makes an empty session for an empty body or {}, in which load then works as under /walker', async () => {
    const app = await testApp();
    for (const body of [undefined, '{}', '  ']) {
      const created = await call(app, 'POST', '/walker/sessions', body);
      expect(created.status).toBe(201);
      expect(created.body).toMatchObject({ models: [], steps: 0, vertexCoverage: 0, edgeCoverage: 0, isolated: false });
      expect(String(created.body.id)).toMatch(UUID);
      expect(created.body.seed).toBeUndefined();
      const id = String(created.body.id);
      expect((await call(app, 'GET', `/walker/sessions/${id}/hasNext`)).body).toEqual(nok('No model(s) are loaded.'));
      const loaded = await call(app, 'POST', `/walker/sessions/${id}/load`, JSON.stringify(loop('random(edge_coverage(100))', 3)));
      // `count` grows without end, so exploring the states stops at a bound, which the load says.
      expect(loaded.body).toEqual({ result: 'ok', seed: 3, warnings: [expect.objectContaining({ code: 'plan_bound' })] });
    }
    // The default session saw none of it.
    expect((await call(app, 'GET', '/walker/hasNext')).body).toEqual(nok('No model(s) are loaded.'));
  });

  it('loads a model given as the body and answers its seed; the walk is the one /walker walks with that seed', async () => {
    const app = await testApp();
    const created = await call(app, 'POST', '/walker/sessions', JSON.stringify(loop('random(edge_coverage(100))', 11)));
    expect(created.status).toBe(201);
    expect(created.body).toMatchObject({ seed: 11, models: [{ id: 'loop', name: 'Loop' }], steps: 0 });
    const inSession = await walkSession(app, String(created.body.id));
    await load(app, loop('random(edge_coverage(100))', 11));
    expect(inSession).toEqual(await walkToEnd(app));
  });

  it('takes the generator parameter as load does', async () => {
    const app = await testApp();
    const created = await call(app, 'POST', '/walker/sessions?generator=random(length(3))', JSON.stringify(loop('x', 4)));
    await call(app, 'POST', '/walker/load?generator=random(length(3))', JSON.stringify(loop('x', 4)));
    expect(await walkSession(app, String(created.body.id))).toEqual(await walkToEnd(app));
  });

  it('answers 422 invalid_model for a model that does not load, and makes no session', async () => {
    const app = await testApp();
    const refused = await call(app, 'POST', '/walker/sessions', '{"models": 3}');
    expect(refused.status).toBe(422);
    expect(refused.body).toEqual({
      code: 'invalid_model',
      message: "The json file is not a valid GraphWalker model(s) file: 'models' must be an array of models, got 3",
    });
    expect((await call(app, 'GET', '/walker/sessions')).body).toEqual({ sessions: [] });
  });

  it('names the model, element and field of a model that does not load as data beside the message', async () => {
    const app = await testApp();
    const model = loop();
    model.models[0].edges[0].targetVertexId = 'nowhere';
    const refused = await call(app, 'POST', '/walker/sessions', JSON.stringify(model));
    expect(refused.status).toBe(422);
    const edge = model.models[0].edges[0].id;
    expect(refused.body).toMatchObject({ code: 'invalid_model', model_id: model.models[0].id, element_id: edge, field: 'targetVertexId' });
    expect(refused.body.message).toContain(`edge '${edge}'`);
  });

  it('answers 429 session_limit_reached beyond --max-sessions, and makes room when one is deleted', async () => {
    const app = await testApp({ sessions: { maxSessions: 2 } });
    const first = await createSession(app);
    await createSession(app);
    const refused = await call(app, 'POST', '/walker/sessions', JSON.stringify(loop()));
    expect(refused.status).toBe(429);
    expect(refused.body.code).toBe('session_limit_reached');
    expect(String(refused.body.message)).toContain('--max-sessions');
    expect((await call(app, 'DELETE', `/walker/sessions/${first}`)).status).toBe(204);
    await createSession(app);
  });

  it('starts every session and draft id with the node id and a dot (--node-id)', async () => {
    const app = await testApp({ nodeId: 'n-1' });
    expect(await createSession(app)).toMatch(/^n-1\.[0-9a-f-]{36}$/);
    const draft = await call(app, 'POST', '/walker/drafts');
    expect(String(draft.body.draft_id)).toMatch(/^n-1\.[0-9a-f-]{36}$/);
    // The dot keeps the node id apart: an id can be routed by a plain prefix rule.
    await expect(testApp({ nodeId: 'a.b' })).rejects.toThrow("nodeId (--node-id) must be 1 to 40 letters, digits, '_' or '-', got 'a.b'");
  });
});

describe('sessions are isolated', () => {
  it('gives two clients walking different models at once exactly their own walks', async () => {
    const app = await testApp();
    const a = await createSession(app, JSON.stringify(loop('random(edge_coverage(100))', 5)));
    const b = await createSession(app, JSON.stringify(ring(6, 'random(edge_coverage(100))')));
    const [walkA, walkB] = await Promise.all([walkSession(app, a), walkSession(app, b)]);
    // The ring has one way round: its start edge, each vertex and its out-edge until e6 covers the last edge,
    // and e6's target, as a walk never stops on an edge.
    expect(walkB).toEqual(['e0', 'v0', 'e1', 'v1', 'e2', 'v2', 'e3', 'v3', 'e4', 'v4', 'e5', 'v5', 'e6', 'v0']);
    // Variables are per session: the loop's count and the ring's n never meet (n = 0, then 6 increments).
    expect((await call(app, 'GET', `/walker/sessions/${b}/getData`)).body.data).toBe('n=6');
    const dataA = (await call(app, 'GET', `/walker/sessions/${a}/getData`)).body.data;
    // The loop's walk equals the same walk done alone, in the default session, variables included.
    await load(app, loop('random(edge_coverage(100))', 5));
    expect(walkA).toEqual(await walkToEnd(app));
    expect((await call(app, 'GET', '/walker/getData')).body.data).toBe(dataA);
  });

  it('keeps statistics, seeds and failures per session', async () => {
    const app = await testApp();
    const a = await createSession(app, JSON.stringify(loop('random(edge_coverage(100))', 1)));
    const b = await createSession(app, JSON.stringify(loop('random(edge_coverage(100))', 2)));
    await call(app, 'GET', `/walker/sessions/${a}/getNext`);
    await call(app, 'PUT', `/walker/sessions/${a}/fail/broken`);
    expect((await call(app, 'GET', `/walker/sessions/${a}/hasNext`)).body.hasNext).toBe('false');
    expect((await call(app, 'GET', `/walker/sessions/${b}/hasNext`)).body.hasNext).toBe('true');
    const statsA = await call(app, 'GET', `/walker/sessions/${a}/getStatistics`);
    const statsB = await call(app, 'GET', `/walker/sessions/${b}/getStatistics`);
    expect(statsA.body).toMatchObject({ totalFailedNumberOfModels: 1, totalNumberOfVisitedEdges: 1 });
    expect(statsB.body).toMatchObject({ totalFailedNumberOfModels: 0, totalNumberOfVisitedEdges: 0 });
  });
});

describe('requests of one session', () => {
  it('run strictly one at a time, in order: fifty at once walk the walk one client would', async () => {
    const app = await testApp();
    const id = await createSession(app, JSON.stringify(loop('random(never)', 8)));
    const answers = await Promise.all(Array.from({ length: 50 }, () => call(app, 'GET', `/walker/sessions/${id}/getNext`)));
    const alone = await createSession(app, JSON.stringify(loop('random(never)', 8)));
    const expected: unknown[] = [];
    for (let i = 0; i < 50; i++) expected.push((await call(app, 'GET', `/walker/sessions/${alone}/getNext`)).body.currentElementID);
    expect(answers.map((a) => a.body.currentElementID)).toEqual(expected);
  });

  it('take a GraphML model at creation, with the generator parameter', async () => {
    const app = await testApp();
    const fixture = join(import.meta.dirname, '..', 'fixtures', 'models', 'graphml', 'cli', 'CorrectModels', 'simplestModel.graphml');
    const created = await call(app, 'POST', '/walker/sessions?generator=random(edge_coverage(100))', readFileSync(fixture, 'utf8'));
    expect(created.status).toBe(201);
    const id = String(created.body.id);
    // GraphWalker's own expectation for this model: its one edge, then the vertex it leads to.
    const names = [];
    for (let i = 0; i < 2; i++) names.push((await call(app, 'GET', `/walker/sessions/${id}/getNext`)).body.currentElementName);
    expect(names).toEqual(['e1', 'v1']);
    expect((await call(app, 'GET', `/walker/sessions/${id}/hasNext`)).body.hasNext).toBe('false');
  });
});

describe('the session lifecycle', () => {
  it('lists the sessions with their models, steps and coverage, and shows one', async () => {
    const app = await testApp();
    const a = await createSession(app, JSON.stringify(loop('random(edge_coverage(100))', 1)));
    const b = await createSession(app);
    for (let i = 0; i < 3; i++) await call(app, 'GET', `/walker/sessions/${a}/getNext`);
    const list = await call(app, 'GET', '/walker/sessions');
    expect(list.status).toBe(200);
    const sessions = list.body.sessions as Array<Record<string, unknown>>;
    expect(sessions.map((s) => s.id)).toEqual([b, a]);
    expect(sessions[1]).toMatchObject({ models: [{ id: 'loop', name: 'Loop' }], seed: 1, steps: 3, vertexCoverage: 33, edgeCoverage: 40 });
    const one = await call(app, 'GET', `/walker/sessions/${a}`);
    expect(one.body).toEqual(sessions[1]);
    expect(Date.parse(String(one.body.created))).toBeLessThanOrEqual(Date.parse(String(one.body.lastUsed)));
  });

  it('answers the loaded model file at getModel, for a session and the default walk alike; nok before a load and under /graphwalker 404', async () => {
    const app = await testApp();
    const file = loop('random(edge_coverage(100))', 1);
    const a = await createSession(app, JSON.stringify(file));
    await call(app, 'GET', `/walker/sessions/${a}/getNext`);
    const answer = await call(app, 'GET', `/walker/sessions/${a}/getModel`);
    expect(answer.status).toBe(200);
    expect(answer.body).toEqual({ result: 'ok', model: file });
    const empty = await createSession(app);
    expect((await call(app, 'GET', `/walker/sessions/${empty}/getModel`)).body).toEqual(nok('No model(s) are loaded.'));
    expect((await call(app, 'GET', '/walker/getModel')).body).toEqual(nok('No model(s) are loaded.'));
    await load(app, ring(3));
    expect((await call(app, 'GET', '/walker/getModel')).body).toEqual({ result: 'ok', model: ring(3) });
    expect((await call(app, 'POST', '/walker/getModel')).status).toBe(405);
    expect((await call(app, 'GET', '/graphwalker/getModel')).status).toBe(404);
  });

  it('answers 404 session_not_found with the draft API body for an unknown or deleted id', async () => {
    const app = await testApp();
    const id = await createSession(app, JSON.stringify(loop()));
    expect((await call(app, 'DELETE', `/walker/sessions/${id}`)).raw.body).toBe('');
    const message = `No session '${id}': it was deleted or never existed. Create one with POST /walker/sessions.`;
    for (const [method, url] of [
      ['GET', `/walker/sessions/${id}/getNext`],
      ['PUT', `/walker/sessions/${id}/setData/x=1`],
      ['GET', `/walker/sessions/${id}`],
      ['DELETE', `/walker/sessions/${id}`],
    ] as const) {
      const answer = await call(app, method, url);
      expect(answer.status).toBe(404);
      expect(answer.body).toEqual({ code: 'session_not_found', message });
    }
    expect((await call(app, 'GET', '/walker/sessions/nope/hasNext')).body.code).toBe('session_not_found');
  });

  it('expires a session idle for --session-ttl (410), while requests keep one alive and reads do not', async () => {
    let now = Date.parse('2026-11-25T00:00:00Z');
    const app = await testApp({ sessions: { ttlSeconds: 60 }, now: () => now });
    const busy = await createSession(app, JSON.stringify(loop()));
    const idle = await createSession(app, JSON.stringify(loop()));
    now += 50_000;
    await call(app, 'GET', `/walker/sessions/${busy}/hasNext`);
    await call(app, 'GET', `/walker/sessions/${idle}`);
    now += 50_000;
    expect((await call(app, 'GET', `/walker/sessions/${busy}/getNext`)).body.result).toBe('ok');
    const expired = await call(app, 'GET', `/walker/sessions/${idle}/getNext`);
    expect(expired.status).toBe(410);
    expect(expired.body).toEqual({
      code: 'session_expired',
      message: `Session '${idle}' expired after 60 s without a request (--session-ttl) and was deleted; create a new one with POST /walker/sessions.`,
    });
    expect((await call(app, 'GET', '/walker/sessions')).body.sessions).toHaveLength(1);
  });

  it('answers 404 not_found for a path under /walker/sessions that is no route', async () => {
    const app = await testApp();
    const answer = await call(app, 'PATCH', '/walker/sessions');
    expect(answer.status).toBe(404);
    expect(answer.body.code).toBe('not_found');
  });
});

describe('a session that walks a draft', () => {
  async function draftOfLoop(app: FastifyInstance): Promise<{ id: string; revision: number }> {
    const draft = await call(app, 'POST', '/walker/drafts', { model_id: 'd', name: 'D', generator: 'random(edge_coverage(100))' });
    const id = String(draft.body.draft_id);
    const base = `/walker/drafts/${id}`;
    await call(app, 'POST', `${base}/vertices`, { id: 'v0', name: 'v_A' });
    await call(app, 'POST', `${base}/vertices`, { id: 'v1', name: 'v_B' });
    await call(app, 'POST', `${base}/edges`, { id: 'e0', name: 'e_start', target_vertex_id: 'v0' });
    await call(app, 'POST', `${base}/edges`, { id: 'e1', name: 'e_ab', source_vertex_id: 'v0', target_vertex_id: 'v1' });
    const last = await call(app, 'POST', `${base}/edges`, { id: 'e2', name: 'e_ba', source_vertex_id: 'v1', target_vertex_id: 'v0' });
    return { id, revision: Number(last.body.revision) };
  }

  it("walks the draft's revision without export, and keeps it while the draft is edited", async () => {
    const app = await testApp();
    const draft = await draftOfLoop(app);
    expect(draft.revision).toBe(5);
    const session = await createSession(app, { draft: draft.id, revision: 5 });
    await call(app, 'GET', `/walker/sessions/${session}/getNext`);
    // The draft grows a vertex and an edge; the walk goes on on revision 5.
    await call(app, 'POST', `/walker/drafts/${draft.id}/vertices`, { id: 'v2', name: 'v_C' });
    await call(app, 'POST', `/walker/drafts/${draft.id}/edges`, { id: 'e3', source_vertex_id: 'v1', target_vertex_id: 'v2' });
    const walk = await walkSession(app, session);
    expect(walk).not.toContain('v2');
    expect(walk).not.toContain('e3');
    const stats = await call(app, 'GET', `/walker/sessions/${session}/getStatistics`);
    expect(stats.body).toMatchObject({ totalNumberOfVertices: 2, totalNumberOfEdges: 3, edgeCoverage: 100 });
    // A new session of the draft walks its new revision.
    const fresh = await call(app, 'POST', '/walker/sessions', { draft: draft.id });
    expect(fresh.status).toBe(201);
    const freshStats = await call(app, 'GET', `/walker/sessions/${String(fresh.body.id)}/getStatistics`);
    expect(freshStats.body).toMatchObject({ totalNumberOfVertices: 3, totalNumberOfEdges: 4 });
  });

  it('answers 409 for a revision the draft has left, 404/410 for the draft, 422 for a wrong body', async () => {
    const app = await testApp();
    const draft = await draftOfLoop(app);
    const stale = await call(app, 'POST', '/walker/sessions', { draft: draft.id, revision: 4 });
    expect(stale.status).toBe(409);
    expect(stale.body).toEqual({
      code: 'revision_conflict',
      message: `Draft '${draft.id}' is at revision 5, not 4: a draft keeps only its current revision, so walk that one (or leave "revision" out).`,
    });
    expect((await call(app, 'POST', '/walker/sessions', { draft: 'nope' })).body.code).toBe('draft_not_found');
    const wrong = await call(app, 'POST', '/walker/sessions', { draft: 5 });
    expect(wrong.status).toBe(422);
    expect(wrong.body.code).toBe('invalid_session');
    expect((await call(app, 'POST', '/walker/sessions', { draft: draft.id, revision: -1 })).status).toBe(422);
    expect((await call(app, 'POST', '/walker/sessions', { draft: draft.id, extra: 1 })).status).toBe(422);
    expect((await call(app, 'GET', '/walker/sessions')).body).toEqual({ sessions: [] });
  });
});
