import { readFileSync } from 'node:fs';
import type { FastifyInstance } from 'fastify';
import { afterEach, describe, expect, it } from 'vitest';
import { buildApp, type BuildAppOptions } from '../../server/app.js';
import { startServer, type RunningServer } from '../../server/start.js';
import { GraphWalkerSocket } from './websocket-client.js';

const SMALL = JSON.parse(readFileSync('test/fixtures/models/graphwalker/SmallModel.json', 'utf8')) as { models: Array<Record<string, any>> };
const LOGIN_GRAPHML = readFileSync('test/fixtures/models/graphml/io/Login.graphml', 'utf8');

const running: Array<{ app: FastifyInstance; server: RunningServer }> = [];
const sockets: GraphWalkerSocket[] = [];

afterEach(async () => {
  for (const socket of sockets.splice(0)) socket.socket.terminate();
  for (const { server } of running.splice(0)) await server.close();
});

/** A listening service, closed after the test. */
async function serve(options: BuildAppOptions = {}): Promise<{ app: FastifyInstance; url: string; ws: string }> {
  const app = await buildApp(options);
  const server = await startServer(app, { port: 0, signals: [] });
  running.push({ app, server });
  return { app, url: server.url, ws: `ws://127.0.0.1:${server.port}/` };
}

async function connect(url: string, headers: Record<string, string> = {}): Promise<GraphWalkerSocket> {
  const socket = await GraphWalkerSocket.open(url, headers);
  sockets.push(socket);
  return socket;
}

/** The session ids the service lists now. */
async function sessionIds(url: string): Promise<string[]> {
  const res = await fetch(`${url}/walker/sessions`);
  return ((await res.json()) as { sessions: Array<{ id: string }> }).sessions.map((s) => s.id);
}

/** SmallModel.json with a seed, so that its walk can be compared with the same walk over REST. */
const seeded = { ...SMALL, models: SMALL.models.map((m) => ({ ...m, actions: ['value = 54686327;'] })) };

describe("GraphWalker's WebSocket service", () => {
  it('walks a model as GraphWalker 4.3 answers: start, hasNext, getNext after its visitedElement push, getData, setData', async () => {
    const { ws } = await serve({ seed: 7 });
    const client = await connect(ws);
    expect(await client.answer({ command: 'start', gw: seeded })).toEqual({ command: 'start', success: true, seed: 7 });
    expect(await client.answer({ command: 'hasNext' })).toEqual({ command: 'hasNext', success: true, hasNext: true });

    const [visited, next, ...rest] = await client.ask({ command: 'getNext' });
    expect(rest).toEqual([]);
    expect(visited).toEqual({
      command: 'visitedElement',
      modelId: 'Small model',
      elementId: 'e0',
      visitedCount: 1,
      totalCount: 1,
      stopConditionFulfillment: 0.25,
      data: { value: '54686327' },
    });
    expect(next).toEqual({ command: 'getNext', modelId: 'Small model', elementId: 'e0', name: 'e_FirstAction', modelName: 'Small model', success: true });

    expect(await client.answer({ command: 'getData' })).toEqual({ command: 'getData', success: true, data: { value: '54686327' } });
    expect(await client.answer({ command: 'setData', action: 'value = 42;' })).toEqual({ command: 'setData', success: true });
    expect(await client.answer({ command: 'getData' })).toEqual({ command: 'getData', success: true, data: { value: '42' } });

    // To the end: every getNext is pushed first, the counts go up, and fulfilment reaches 1.
    let steps = 1;
    let last: Record<string, any> = visited;
    while ((await client.answer({ command: 'hasNext' })).hasNext === true) {
      const [push, answer] = await client.ask({ command: 'getNext' });
      steps++;
      expect(push).toMatchObject({ command: 'visitedElement', elementId: answer.elementId, totalCount: steps });
      expect(push.stopConditionFulfillment).toBeGreaterThanOrEqual(last.stopConditionFulfillment);
      last = push;
    }
    expect(last.stopConditionFulfillment).toBe(1);
    // GraphWalker's exception after the end: pushed as issues, then the answer.
    const [issues, failed] = await client.ask({ command: 'getNext' });
    expect(issues).toEqual({ command: 'issues', issues: ['No more steps available: the stop condition is fulfilled.'] });
    expect(failed).toMatchObject({ command: 'getNext', success: false });
  });

  it('walks the path /walker walks with the same seed: the commands run the endpoints of the one table', async () => {
    const { url, ws } = await serve({ seed: 11 });
    const client = await connect(ws);
    await client.answer({ command: 'start', gw: SMALL });
    const overSocket: string[] = [];
    for (let i = 0; i < 12; i++) overSocket.push((await client.answer({ command: 'getNext' })).elementId as string);

    await fetch(`${url}/walker/load`, { method: 'POST', body: JSON.stringify(SMALL) });
    const overRest: string[] = [];
    for (let i = 0; i < 12; i++) overRest.push(((await (await fetch(`${url}/walker/getNext`)).json()) as { currentElementID: string }).currentElementID);
    expect(overSocket).toEqual(overRest);
  });

  it('matches commands without regard to case and reads messages as leniently as org.json', async () => {
    const { ws } = await serve();
    const client = await connect(ws);
    // GraphWalker's own Java client writes member names without quotes.
    expect(await client.answer(`{ command: "START", gw: ${JSON.stringify(SMALL)} }`, 'start')).toMatchObject({ success: true });
    expect(await client.answer("{ command: 'HasNext' }", 'hasNext')).toEqual({ command: 'hasNext', success: true, hasNext: true });
    expect((await client.ask('{"command":"getnext"}', 'getNext'))[0].command).toBe('visitedElement');
  });

  it('answers getModel, updateAllElements, convertGraphml and mode as GraphWalker spells them', async () => {
    const { ws } = await serve();
    const client = await connect(ws);
    await client.answer({ command: 'start', gw: SMALL });
    await client.ask({ command: 'getNext' });

    const model = await client.answer({ command: 'getModel' }, 'getmodel');
    expect(model).toMatchObject({ command: 'getmodel', success: true });
    const file = JSON.parse(model.models as string) as { models: Array<{ id: string; vertices: unknown[]; edges: unknown[]; generator: string }> };
    expect(file.models.map((m) => [m.id, m.vertices.length, m.edges.length, m.generator])).toEqual([['Small model', 2, 4, 'random(edge_coverage(100))']]);

    const all = await client.answer({ command: 'updateAllElements' }, 'updateallelements');
    expect(all.success).toBe(true);
    expect(all.elements).toEqual(
      ['n0', 'n1', 'e0', 'e1', 'e2', 'e3'].map((elementId) => ({ modelId: 'Small model', elementId, visitedCount: elementId === 'e0' ? 1 : 0 })),
    );

    const converted = await client.answer({ command: 'convertGraphml', graphml: LOGIN_GRAPHML });
    expect(converted).toMatchObject({ command: 'convertGraphml', success: true });
    const login = JSON.parse(converted.models as string) as { models: Array<{ startElementId?: string; vertices: Array<{ name: string }>; edges: Array<{ id: string; sourceVertexId?: string }> }> };
    expect(login.models[0].vertices.map((v) => v.name)).toContain('v_ClientNotRunning');
    // As GraphWalker's yEd reader answers it: the Start vertex left out, its edge the start, without a source.
    const [start] = login.models[0].edges.filter((e) => e.sourceVertexId === undefined);
    expect([login.models[0].startElementId, login.models[0].vertices.some((v) => v.name.toLowerCase() === 'start')]).toEqual([start.id, false]);

    expect(await client.answer({ command: 'mode' })).toMatchObject({ command: 'mode', success: true, mode: 'EDITOR' });
  });

  it('answers what is no command with GraphWalker\'s "Unknown command", and says what to send', async () => {
    const { ws } = await serve();
    const client = await connect(ws);
    const bad = await client.answer('{"command": "hasNext"');
    expect(bad).toEqual({ success: false, message: expect.stringMatching(/^Unknown command: the message is not JSON \(.+\)\.$/) });
    expect(await client.answer('{"command":"frobnicate"}')).toEqual({
      success: false,
      message:
        "Unknown command: 'frobnicate'. The commands are start, hasNext, getNext, getData, setData, getModel, updateAllElements, convertGraphml, mode, in any letter case.",
    });
    expect((await client.answer('{"gw":{}}')).message).toMatch(/^Unknown command: the message has no "command" member/);
    expect((await client.answer('[1,2]')).message).toMatch(/^Unknown command: the message is an array/);
    expect((await client.answer('{"command":7}')).message).toBe('Unknown command: "command" must be a string, got 7.');
    // The connection is still there, and so is its (empty) walk.
    expect(await client.answer({ command: 'hasNext' })).toEqual({
      command: 'hasNext',
      success: false,
      message: 'The GraphWalker state machine is not initiated. Is a model loaded, and started? Send {"command":"start","gw":<model file>} first.',
    });
  });

  it('pushes the issues of a start that fails, and keeps the walk it had', async () => {
    const { ws } = await serve();
    const client = await connect(ws);
    await client.answer({ command: 'start', gw: SMALL });
    const broken = { models: [{ ...SMALL.models[0], startElementId: 'nowhere' }] };
    const [issues, answer] = await client.ask({ command: 'start', gw: broken });
    expect(issues.command).toBe('issues');
    expect(issues.issues[0]).toMatch(/nowhere/);
    expect(answer).toMatchObject({ command: 'start', success: false });
    const [missing, refused] = await client.ask({ command: 'start' });
    expect(missing.issues).toEqual(['start takes the model file as a JSON object in "gw", e.g. {"command":"start","gw":{"models":[...]}}; the message has none.']);
    expect(refused).toMatchObject({ command: 'start', success: false });
    expect((await client.ask({ command: 'getNext' }))[1]).toMatchObject({ elementId: 'e0', success: true });
  });

  it('stops a runaway guard at the script time limit, pushes it as an issue, and goes on serving', async () => {
    const { ws } = await serve({ scriptLimits: { timeoutMs: 100 } });
    const client = await connect(ws);
    const model = SMALL.models[0];
    const runaway = { ...model, generator: 'random(never)', edges: model.edges.map((e: Record<string, unknown>) => (e.id === 'e1' ? { ...e, guard: 'while (true) {} ' } : e)) };
    const started = await client.ask({ command: 'start', gw: { models: [runaway] } });
    const [issues, answer] = started.length === 1 ? [undefined, started[0]] : started;
    // Planning with guards may meet the guard at the start already; else the first step past n0 does.
    if (answer.success === true) {
      // e0 and n0 ask nothing of the guard; leaving n0 runs it.
      const walked = [await client.ask({ command: 'getNext' }), await client.ask({ command: 'getNext' }), await client.ask({ command: 'getNext' })];
      expect(walked.map((messages) => messages[1].elementId ?? messages[0].command)).toEqual(['e0', 'n0', 'issues']);
      const [stepIssues, step] = walked[2];
      expect(stepIssues.issues[0]).toMatch(/time limit of 100 ms/);
      expect(step).toMatchObject({ command: 'getNext', success: false });
    } else {
      expect(issues?.issues[0]).toMatch(/time limit of 100 ms/);
    }
    const [stopped, setData] = await client.ask({ command: 'setData', action: 'for (;;) {}' });
    expect(stopped.issues[0]).toMatch(/time limit of 100 ms/);
    expect(setData).toMatchObject({ command: 'setData', success: false });
    expect(await client.answer({ command: 'mode' })).toMatchObject({ success: true });
  });

  it('closes a connection whose message is over --max-model-bytes with 1009, message too big', async () => {
    const { ws } = await serve({ maxModelBytes: 4096 });
    const client = await connect(ws);
    expect(await client.answer({ command: 'start', gw: SMALL })).toMatchObject({ success: true });
    client.socket.send(JSON.stringify({ command: 'setData', action: `x = '${'a'.repeat(5000)}';` }));
    expect((await client.closed).code).toBe(1009);
  });

  it('gives each connection a walk of its own, a session listed while it is open and deleted when it closes', async () => {
    const { url, ws } = await serve({ sessions: { maxSessions: 2 } });
    const first = await connect(ws);
    const second = await connect(ws);
    expect(await sessionIds(url)).toHaveLength(2);
    await first.answer({ command: 'start', gw: SMALL });
    expect((await second.answer({ command: 'getNext' })).message).toMatch(/^The GraphWalker state machine is not initiated/);
    // A third is beyond --max-sessions: refused before it is a WebSocket, with the session API's answer.
    await expect(GraphWalkerSocket.open(ws)).rejects.toThrow('Unexpected server response: 429');
    await first.close();
    await expect.poll(() => sessionIds(url)).toHaveLength(1);
    await connect(ws);
    expect(await sessionIds(url)).toHaveLength(2);
  });

  it('keeps a connection idle past the headers timeout open: a test step may take as long as it needs', async () => {
    // The upgrade's socket is dropped when idle as long as headers may take, until ws takes it; a timer armed
    // after that dropped every WebSocket idle for 10 s (close 1006), so a client whose step took longer lost it.
    const { ws } = await serve({ timeouts: { headersMs: 200 } });
    const client = await connect(ws);
    await client.answer({ command: 'start', gw: SMALL });
    const outcome = await Promise.race([client.closed, new Promise((resolve) => setTimeout(() => resolve('open'), 1500))]);
    expect(outcome).toBe('open');
    expect(await client.answer({ command: 'hasNext' })).toMatchObject({ command: 'hasNext', success: true });
  });

  it('frees the walk of a connection idle for --session-ttl, says so to its next command and closes', async () => {
    let now = Date.now();
    const { ws } = await serve({ now: () => now, sessions: { ttlSeconds: 60 } });
    const client = await connect(ws);
    await client.answer({ command: 'start', gw: SMALL });
    now += 61_000;
    const answer = await client.answer({ command: 'hasNext' });
    expect(answer).toMatchObject({ command: 'hasNext', success: false });
    expect(answer.message).toMatch(/expired after 60 s without a request \(--session-ttl\)/);
    expect(await client.closed).toEqual({ code: 1000, reason: 'The walk of this connection expired (--session-ttl): connect again.' });
  });

  it('refuses a page of another site, a foreign Host and a missing token at the upgrade, making no session', async () => {
    const { url, ws } = await serve({ token: 's3cret' });
    await expect(GraphWalkerSocket.open(ws, { origin: 'http://evil.example', authorization: 'Bearer s3cret' })).rejects.toThrow('Unexpected server response: 403');
    await expect(GraphWalkerSocket.open(ws, { host: 'evil.example', authorization: 'Bearer s3cret' })).rejects.toThrow('Unexpected server response: 403');
    await expect(GraphWalkerSocket.open(ws)).rejects.toThrow('Unexpected server response: 401');
    const own = await connect(ws, { origin: url, authorization: 'Bearer s3cret' });
    expect(await own.answer({ command: 'mode' })).toMatchObject({ success: true });
    const listed = await fetch(`${url}/walker/sessions`, { headers: { authorization: 'Bearer s3cret' } });
    expect(((await listed.json()) as { sessions: unknown[] }).sessions).toHaveLength(1);
  });

  it('serves the page at / to a browser and the WebSocket to an upgrade, and no upgrade elsewhere', async () => {
    const { url, ws } = await serve();
    const page = await fetch(`${url}/`);
    expect(page.status).toBe(200);
    expect(await page.text()).toMatch(/^<!doctype html>/i);
    // An upgrade to an endpoint is not found: a getNext sent as an upgrade does not step the walk.
    await expect(GraphWalkerSocket.open(`${ws}graphwalker/getNext`)).rejects.toThrow('Unexpected server response: 404');
  });

  it('closes its connections as going away when the service stops', async () => {
    const { ws } = await serve();
    const client = await connect(ws);
    await client.answer({ command: 'start', gw: SMALL });
    const { server } = running.pop() as { server: RunningServer };
    await server.close();
    expect(await client.closed).toEqual({ code: 1001, reason: 'The service is shutting down.' });
  });
});
