import { readFileSync } from 'node:fs';
import type { FastifyInstance } from 'fastify';
import { describe, expect, it } from 'vitest';
import type { DraftMessage, GoneMessage, WalkMessage } from '../../../server/view/messages.js';
import { call, testApp } from '../helpers.js';

const LOGIN = readFileSync('test/fixtures/models/graphwalker/Login.json', 'utf8');

/** A listening app, its address, and the events of the streams opened on it. */
async function listening(): Promise<{ app: FastifyInstance; base: string }> {
  const app = await testApp();
  await app.listen({ port: 0, host: '127.0.0.1' });
  const address = app.server.address() as { port: number };
  return { app, base: `http://127.0.0.1:${address.port}` };
}

/** The messages of a Server-Sent Events stream, as they arrive; `close` ends the request. */
async function events(url: string): Promise<{ messages: Array<WalkMessage | DraftMessage | GoneMessage>; next(): Promise<unknown>; ended: Promise<void>; close(): void }> {
  const controller = new AbortController();
  const response = await fetch(url, { signal: controller.signal });
  expect(response.status).toBe(200);
  expect(response.headers.get('content-type')).toBe('text/event-stream; charset=utf-8');
  const messages: Array<WalkMessage | DraftMessage | GoneMessage> = [];
  const waiters: Array<() => void> = [];
  const reader = response.body!.pipeThrough(new TextDecoderStream()).getReader();
  let buffer = '';
  const ended = (async () => {
    try {
      for (;;) {
        const { value, done } = await reader.read();
        if (done) return;
        buffer += value;
        let cut: number;
        while ((cut = buffer.indexOf('\n\n')) >= 0) {
          const block = buffer.slice(0, cut);
          buffer = buffer.slice(cut + 2);
          const data = block.split('\n').find((line) => line.startsWith('data: '));
          if (data === undefined) continue;
          messages.push(JSON.parse(data.slice(6)));
          waiters.splice(0).forEach((wake) => wake());
        }
      }
    } catch {
      // Aborted by close().
    }
  })();
  const next = (): Promise<unknown> => new Promise<void>((resolve) => waiters.push(resolve));
  return { messages, next, ended, close: () => controller.abort() };
}

/** Waits until `test` holds of the messages, for at most `ms`. */
async function until<T>(stream: { messages: T[]; next(): Promise<unknown> }, test: (messages: T[]) => boolean, ms = 20_000): Promise<void> {
  const deadline = Date.now() + ms;
  while (!test(stream.messages)) {
    if (Date.now() > deadline) throw new Error(`not within ${ms} ms: ${JSON.stringify(stream.messages.at(-1))}`);
    await Promise.race([stream.next(), new Promise((resolve) => setTimeout(resolve, 100))]);
  }
}

/** The visit counts a reader has after applying every message, as the page applies them. */
function visitsOf(messages: readonly WalkMessage[]): number[] {
  let visits: number[] = [];
  for (const { walk } of messages) {
    if (walk?.visits !== undefined) visits = [...walk.visits];
    const changes = walk?.visitChanges ?? [];
    for (let i = 0; i < changes.length; i += 2) visits[changes[i]] = changes[i + 1];
  }
  return visits;
}

/**
 * A request to a listening app, as a client sends it (app.inject names a Host the listening app refuses):
 * the status and the JSON body.
 */
async function over(base: string, method: string, path: string, body?: string | object): Promise<{ status: number; body: Record<string, unknown> }> {
  const json = typeof body === 'object';
  const response = await fetch(`${base}${path}`, {
    method,
    body: json ? JSON.stringify(body) : body,
    headers: json ? { 'content-type': 'application/json' } : {},
  });
  const text = await response.text();
  return { status: response.status, body: text === '' ? {} : (JSON.parse(text) as Record<string, unknown>) };
}

async function step(base: string, prefix: string, steps: number): Promise<void> {
  for (let i = 0; i < steps; i++) {
    const body = (await (await fetch(`${base}${prefix}/getNext`)).json()) as { result: string };
    expect(body.result).toBe('ok');
  }
}

describe('GET /walker/view/session', () => {
  it('answers that nothing is loaded before a load', async () => {
    const app = await testApp();
    const { status, body } = await call(app, 'GET', '/walker/view/session');
    expect(status).toBe(200);
    expect(body).toEqual({ kind: 'walk', session: 'default', load: 0, graph: null, walk: null });
  });

  it("shows the walk's graph with the file's positions, and figures equal to getStatistics", async () => {
    const app = await testApp();
    await call(app, 'POST', '/walker/load', LOGIN);
    for (let i = 0; i < 7; i++) await call(app, 'GET', '/walker/getNext');
    const { body } = await call(app, 'GET', '/walker/view/session');
    const message = body as unknown as WalkMessage;
    const statistics = (await call(app, 'GET', '/walker/getStatistics')).body;
    const model = message.graph!.models[0];
    expect(model.name).toBe('Login');
    // Login.json places v_ClientNotRunning at (232, 165) and marks it a shared state.
    expect(model.vertices[0]).toEqual({ index: 0, id: 'n1', name: 'v_ClientNotRunning', x: 232, y: 165, sharedState: 'CLIENT_NOT_RUNNNG' });
    expect(message.graph!.size).toBe(model.vertices.length + model.edges.length);
    const walk = message.walk!;
    expect(walk.steps).toBe(7);
    // Seven steps: each counted once in the visits.
    expect(walk.visits!.reduce((a, b) => a + b, 0)).toBe(7);
    expect(walk.statistics.edgeCoverage).toBe(statistics.edgeCoverage);
    expect(walk.statistics.vertexCoverage).toBe(statistics.vertexCoverage);
    expect(walk.statistics.totalNumberOfVisitedEdges).toBe(statistics.totalNumberOfVisitedEdges);
    // getData lists the same variables, as name=value pairs joined by '; '.
    const data = (await call(app, 'GET', '/walker/getData')).body.data as string;
    expect(walk.variables.map(([name, value]) => `${name}=${value}`).join('; ')).toBe(data);
    expect(walk.variables.length).toBeGreaterThan(0);
  });

  it("places a yEd model's vertices at their yEd geometry", async () => {
    const app = await testApp();
    const graphml = readFileSync('test/fixtures/models/graphml/io/Login.graphml', 'utf8');
    expect((await call(app, 'POST', '/walker/load?generator=random(never)', graphml)).body.result).toBe('ok');
    const message = (await call(app, 'GET', '/walker/view/session')).body as unknown as WalkMessage;
    const vertices = message.graph!.models[0].vertices;
    // Node n1's <y:Geometry x="488.77304159628375" y="232.0">; the Start node n0 is left out, as GraphWalker leaves it.
    expect(vertices.find((v) => v.id === 'n1')).toMatchObject({ name: 'v_ClientNotRunning', x: 488.77304159628375, y: 232 });
    expect(vertices.some((v) => v.id === 'n0')).toBe(false);
    expect(vertices.every((v) => v.x !== undefined && v.y !== undefined)).toBe(true);
  });

  it('names a session that is not there with 404 session_not_found', async () => {
    const app = await testApp();
    const { status, body } = await call(app, 'GET', '/walker/view/sessions/nope');
    expect(status).toBe(404);
    expect(body.code).toBe('session_not_found');
    expect((await call(app, 'GET', '/walker/view/sessions/nope/events')).status).toBe(404);
    expect((await call(app, 'GET', '/walker/view/drafts/nope')).body.code).toBe('draft_not_found');
    expect((await call(app, 'GET', '/walker/view/nothing')).body.code).toBe('not_found');
  });
});

describe('GET /walker/view/session/events', () => {
  it('starts with the walk as it stands, then sends at most one message per 50 ms, its last one exact', async () => {
    const { app, base } = await listening();
    await over(base, 'POST', '/walker/load?generator=random(never)', LOGIN);
    const stream = await events(`${base}/walker/view/session/events`);
    await until(stream, (m) => m.length >= 1);
    const first = stream.messages[0] as WalkMessage;
    expect(first.graph?.models[0].name).toBe('Login');
    expect(first.walk?.steps).toBe(0);
    expect(first.walk?.visits?.every((v) => v === 0)).toBe(true);
    expect(app.services.session.watchedBy).toBeDefined();

    const started = Date.now();
    await step(base, '/walker', 300);
    const took = Date.now() - started;
    await until(stream, (m) => (m.at(-1) as WalkMessage).walk?.steps === 300);
    const messages = stream.messages as WalkMessage[];
    const { body: snapshot } = await over(base, 'GET', '/walker/view/session');
    // The graph only once; after the first message only the counts that changed, which add up to the walk's.
    expect(messages.filter((m) => m.graph !== undefined)).toHaveLength(1);
    expect(messages.slice(1).every((m) => m.walk?.visits === undefined)).toBe(true);
    expect(visitsOf(messages)).toEqual((snapshot as unknown as WalkMessage).walk!.visits);
    expect(messages.at(-1)!.walk!.lastSteps).toHaveLength(20);
    expect(messages.at(-1)!.walk!.statistics.edgeCoverage).toBe((await over(base, 'GET', '/walker/getStatistics')).body.edgeCoverage);
    // 300 steps, 600 requests: never more than one message per 50 ms (and the first, and a last one).
    expect(messages.length).toBeLessThanOrEqual(Math.ceil(took / 50) + 3);
    expect(messages.length).toBeLessThan(300);

    stream.close();
    await stream.ended;
    await until({ messages: [0], next: () => new Promise((r) => setTimeout(r, 20)) }, () => app.services.session.watchedBy === undefined);
  });

  it('sends the new graph after a load, and the last steps start afresh', async () => {
    const { base } = await listening();
    await over(base, 'POST', '/walker/load?generator=random(never)', LOGIN);
    const stream = await events(`${base}/walker/view/session/events`);
    await step(base, '/walker', 5);
    await until(stream, (m) => (m.at(-1) as WalkMessage).walk?.lastSteps.length === 5);
    await over(base, 'POST', '/walker/load', readFileSync('test/fixtures/models/graphwalker/SmallModel.json', 'utf8'));
    // The message of the new load: load 2, or, should a busy machine have moved the walk to a thread of its
    // own meanwhile, the load its thread counts, with the graph again.
    const ofSmallModel = (m: unknown): boolean => (m as WalkMessage).graph?.models[0].name === 'Small model';
    await until(stream, (m) => m.some(ofSmallModel));
    const last = stream.messages.find(ofSmallModel) as WalkMessage;
    expect(last.graph?.models[0].vertices.length).toBeGreaterThan(0);
    expect(last.graph?.models[0].name).not.toBe('Login');
    expect(last.walk?.lastSteps).toEqual([]);
    expect(last.walk?.visits?.every((v) => v === 0)).toBe(true);
    stream.close();
  });

  it("ends a session's stream with a gone message when the session is deleted", async () => {
    const { base } = await listening();
    const created = await over(base, 'POST', '/walker/sessions', LOGIN);
    const id = created.body.id as string;
    const stream = await events(`${base}/walker/view/sessions/${id}/events`);
    await step(base, `/walker/sessions/${id}`, 3);
    await until(stream, (m) => (m.at(-1) as WalkMessage).walk?.steps === 3);
    // Watching renews nothing: the session's own requests do.
    await over(base, 'DELETE', `/walker/sessions/${id}`);
    await until(stream, (m) => m.at(-1)?.kind === 'gone');
    await stream.ended;
    expect(stream.messages.at(-1)).toMatchObject({ kind: 'gone', code: 'session_closed' });
  });
});

describe('closing the app', () => {
  it('ends the open streams, so that a viewer does not hold the close', async () => {
    const { app, base } = await listening();
    const stream = await events(`${base}/walker/view/session/events`);
    await until(stream, (m) => m.length === 1);
    const started = Date.now();
    await app.close();
    await stream.ended;
    // Well within the shutdown grace (3 s) that a connection left open would run into.
    expect(Date.now() - started).toBeLessThan(1000);
  });
});

describe('GET /walker/view/drafts/{draft_id}/events', () => {
  it('sends the draft again after each change, with its validation', async () => {
    const { base } = await listening();
    const draft = (await over(base, 'POST', '/walker/drafts', { generator: 'random(edge_coverage(100))' })).body.draft_id as string;
    const stream = await events(`${base}/walker/view/drafts/${draft}/events`);
    await until(stream, (m) => m.length === 1);
    expect(stream.messages[0]).toMatchObject({ kind: 'draft', draft, revision: 0, valid: false });
    await over(base, 'POST', `/walker/drafts/${draft}/vertices`, { id: 'v_A', name: 'v_A', properties: { x: 10, y: 20 } });
    await until(stream, (m) => (m.at(-1) as DraftMessage).revision === 1);
    const last = stream.messages.at(-1) as DraftMessage;
    expect(last.graph.models[0].vertices).toEqual([{ index: 0, id: 'v_A', name: 'v_A', x: 10, y: 20 }]);
    // The same issues as the validation route lists.
    const validation = (await over(base, 'GET', `/walker/drafts/${draft}/validation`)).body;
    expect(last.issues).toEqual(validation.issues);
    await over(base, 'DELETE', `/walker/drafts/${draft}`);
    await until(stream, (m) => m.at(-1)?.kind === 'gone');
    expect(stream.messages.at(-1)).toMatchObject({ kind: 'gone', code: 'draft_not_found' });
    await stream.ended;
  });
});

describe('the page at /', () => {
  it('serves the built page, its script, its stylesheet and the layout worker, with ETags', async () => {
    const app = await testApp();
    const page = await app.inject({ method: 'GET', url: '/?session=abc' });
    expect(page.statusCode).toBe(200);
    expect(page.headers['content-type']).toBe('text/html; charset=utf-8');
    expect(page.body).toContain('<script src="assets/app.js"></script>');
    const script = await app.inject({ method: 'GET', url: '/assets/app.js' });
    expect(script.headers['content-type']).toBe('text/javascript; charset=utf-8');
    expect(script.body).toBe(readFileSync('dist/web/app.js', 'utf8'));
    const again = await app.inject({ method: 'GET', url: '/assets/app.js', headers: { 'if-none-match': String(script.headers.etag) } });
    expect(again.statusCode).toBe(304);
    expect((await app.inject({ method: 'GET', url: '/assets/app.css' })).headers['content-type']).toBe('text/css; charset=utf-8');
    const worker = await app.inject({ method: 'GET', url: '/assets/elk-worker.js' });
    expect(worker.headers['content-type']).toBe('text/javascript; charset=utf-8');
    expect(worker.body).toBe(readFileSync('dist/web/elk-worker.js', 'utf8'));
    expect((await app.inject({ method: 'GET', url: '/assets/other.js' })).statusCode).toBe(404);
  });

  it('carries the notices of the libraries it bundles, which the minifier would drop', () => {
    const script = readFileSync('dist/web/app.js', 'utf8');
    expect(script).toMatch(/^\/\*! @panzoom\/panzoom [\d.]+, MIT License, Copyright Timmy Willison/);
    expect(script).toMatch(/elkjs [\d.]+, EPL-2\.0; source: https:\/\/github\.com\/kieler\/elkjs/);
    expect(readFileSync('dist/web/elk-worker.js', 'utf8')).toMatch(/^\/\*! elkjs [\d.]+, EPL-2\.0 \(Eclipse Public License 2\.0\); source: /);
  });
});

describe('a watched session whose walk moves to a thread of its own', () => {
  it('goes on being shown, its counts exact, after the move', async () => {
    const app = await testApp({ scriptLimits: { realClock: true }, sessions: { slowRequestMs: 20 } });
    await app.listen({ port: 0, host: '127.0.0.1' });
    const base = `http://127.0.0.1:${(app.server.address() as { port: number }).port}`;
    // Every edge out of a vertex has a guard that keeps the thread busy 100 ms: the second such step moves the
    // walk. 100 ms, five times the slow-request time, so that the thread runs the quarter of it that proves the
    // work its own even when a loaded machine gives it a twentieth of a core (server/sessions/slow-requests.ts).
    const slow = '(function () { var t = Date.now(); while (Date.now() - t < 100) {} return true; })()';
    const model = {
      models: [
        {
          id: 'slow',
          generator: 'random(never)',
          startElementId: 'e0',
          vertices: [
            { id: 'a', name: 'v_A' },
            { id: 'b', name: 'v_B' },
          ],
          edges: [
            { id: 'e0', name: 'e_start', targetVertexId: 'a' },
            { id: 'e1', name: 'e_ab', sourceVertexId: 'a', targetVertexId: 'b', guard: slow },
            { id: 'e2', name: 'e_ba', sourceVertexId: 'b', targetVertexId: 'a', guard: slow },
          ],
        },
      ],
    };
    const id = (await over(base, 'POST', '/walker/sessions', JSON.stringify(model))).body.id as string;
    const stream = await events(`${base}/walker/view/sessions/${id}/events`);
    await step(base, `/walker/sessions/${id}`, 12);
    expect((await over(base, 'GET', `/walker/sessions/${id}`)).body.isolated).toBe(true);
    await until(stream, (m) => (m.at(-1) as WalkMessage).walk?.steps === 12);
    const messages = stream.messages as WalkMessage[];
    // e0, then a and b by turns with e1 and e2 between: 12 steps visit e0 once, a 3 times, b 3 times, e1 3, e2 2.
    expect(visitsOf(messages)).toEqual([3, 3, 1, 3, 2]);
    expect(messages.at(-1)!.walk!.lastSteps.map((s) => s.id)).toEqual(['e0', 'a', 'e1', 'b', 'e2', 'a', 'e1', 'b', 'e2', 'a', 'e1', 'b']);
    // The graph came once: the move changes no load, and a page that got a graph again laid it out afresh.
    expect(messages.filter((m) => m.graph !== undefined).map((m) => m.load)).toEqual([1]);
    stream.close();
    // A thread starts and rebuilds the walk: seconds on a loaded machine.
  });
});
