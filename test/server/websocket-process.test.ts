import { readFileSync } from 'node:fs';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { ensureBuilt, http, startService, type Service } from '../cli/online-helpers.js';
import { GraphWalkerSocket } from './websocket-client.js';

const SMALL_PATH = 'test/fixtures/models/graphwalker/SmallModel.json';
const SMALL = JSON.parse(readFileSync(SMALL_PATH, 'utf8')) as object;

let bare: Service;
let named: Service;
const sockets: GraphWalkerSocket[] = [];

beforeAll(async () => {
  ensureBuilt();
  // Without -s, as GraphWalker's clients start `gw online`, and with -s in another letter case.
  [bare, named] = await Promise.all([
    startService(['-p', '0', '-m', SMALL_PATH, 'random(edge_coverage(100))', '--seed', '5']),
    startService(['-s', 'websocket', '-p', '0', '--real-clock']),
  ]);
}, 90_000);

afterAll(async () => {
  for (const socket of sockets) socket.socket.terminate();
  await Promise.all([bare?.stop(), named?.stop()]);
});

async function connect(service: Service): Promise<GraphWalkerSocket> {
  const socket = await GraphWalkerSocket.open(`${service.url.replace(/^http/, 'ws')}/`);
  sockets.push(socket);
  return socket;
}

/** hasNext and getNext over the socket until hasNext is false: the element ids, with what each step pushed. */
async function walkToTheEnd(socket: GraphWalkerSocket): Promise<{ ids: string[]; pushes: Record<string, any>[] }> {
  const ids: string[] = [];
  const pushes: Record<string, any>[] = [];
  while ((await socket.answer({ command: 'hasNext' })).hasNext === true) {
    const [push, answer] = await socket.ask({ command: 'getNext' });
    expect(answer.success).toBe(true);
    ids.push(answer.elementId as string);
    pushes.push(push);
    if (ids.length > 1000) throw new Error('the walk does not end');
  }
  return { ids, pushes };
}

describe('walker online serves GraphWalker\'s WebSocket service beside REST, on one port', () => {
  it('without -s: REST walks the -m model, and a WebSocket client walks its own to the end', async () => {
    expect(bare.output().stdout).toMatch(/\[HttpServer\] Started\n/);
    const socket = await connect(bare);
    expect(await socket.answer({ command: 'start', gw: SMALL })).toEqual({ command: 'start', success: true, seed: 5 });
    const { ids, pushes } = await walkToTheEnd(socket);
    expect(new Set(ids)).toEqual(new Set(['n0', 'n1', 'e0', 'e1', 'e2', 'e3']));
    expect(pushes.map((p) => p.totalCount)).toEqual(ids.map((_, i) => i + 1));
    expect(pushes[pushes.length - 1].stopConditionFulfillment).toBe(1);

    // The REST service on the same port walks the preloaded model, the same walk with the same seed.
    const overRest: string[] = [];
    while ((await http(bare.url, 'GET', '/graphwalker/hasNext')).hasNext === 'true') {
      overRest.push(String((await http(bare.url, 'GET', '/walker/getNext')).currentElementID));
    }
    expect(overRest).toEqual(ids);
  });

  it("moves a connection's slow walk to a thread of its own, where it walks on and answers every command", async () => {
    // Each guard holds its thread 60 ms of the real clock (--real-clock): slow requests, by --slow-request's 20 ms.
    const slow = '(function () { var t = Date.now(); while (Date.now() - t < 60) {} return true; })()';
    const file = JSON.parse(readFileSync(SMALL_PATH, 'utf8')) as { models: Array<{ generator: string; edges: Array<Record<string, unknown>> }> };
    const model = { ...file.models[0], generator: 'random(never)', edges: file.models[0].edges.map((e) => (e.sourceVertexId === undefined ? e : { ...e, guard: slow })) };
    const socket = await connect(named);
    expect(await socket.answer({ command: 'start', gw: { models: [model] } })).toMatchObject({ success: true });
    for (let step = 1; step <= 8; step++) expect((await socket.ask({ command: 'getNext' }))[0]).toMatchObject({ command: 'visitedElement', totalCount: step });
    const listed = (await http(named.url, 'GET', '/walker/sessions')) as { sessions: Array<{ isolated: boolean; steps: number }> };
    expect(listed.sessions).toEqual([expect.objectContaining({ isolated: true, steps: 8 })]);
    expect((await socket.ask({ command: 'getNext' }))[0]).toMatchObject({ command: 'visitedElement', totalCount: 9 });
    expect(JSON.parse((await socket.answer({ command: 'getModel' }, 'getmodel')).models as string).models[0].edges).toHaveLength(4);
    const elements = (await socket.answer({ command: 'updateAllElements' }, 'updateallelements')).elements as Array<{ visitedCount: number }>;
    expect(elements.reduce((sum, e) => sum + e.visitedCount, 0)).toBe(9);
    await socket.close();
  });

  it('with -s websocket: refuses a foreign Origin at the upgrade, and closes its connections as going away on SIGTERM', async () => {
    await expect(GraphWalkerSocket.open(`${named.url.replace(/^http/, 'ws')}/`, { origin: 'http://evil.example' })).rejects.toThrow(
      'Unexpected server response: 403',
    );
    const socket = await connect(named);
    expect(await socket.answer({ command: 'start', gw: SMALL })).toMatchObject({ success: true });
    expect((await socket.ask({ command: 'getNext' }))[0]).toMatchObject({ command: 'visitedElement', elementId: 'e0' });
    const code = await named.stop('SIGTERM');
    expect(await socket.closed).toEqual({ code: 1001, reason: 'The service is shutting down.' });
    expect(code).toBe(0);
  });
});
