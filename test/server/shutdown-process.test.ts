import { Agent, request } from 'node:http';
import { afterEach, beforeAll, describe, expect, it } from 'vitest';
import type { ModelFileJson } from '../../core/model/types.js';
import { CLOSING_MESSAGE } from '../../server/closing.js';
import { ensureBuilt, startService, type Service } from '../cli/online-helpers.js';

/**
 * SIGTERM on `walker online` itself while clients keep it busy: the faults live in the process (its event
 * loop, its signal handling, its worker threads), so they are tested there. Scripts busy-wait on the real
 * clock (`--real-clock`), so their time limits hold by the wall clock however loaded the machine is.
 */

beforeAll(() => ensureBuilt(), 120_000);

const started: Service[] = [];
// A test that fails before its SIGTERM must not leave its service running.
afterEach(() => {
  for (const { process: child } of started.splice(0)) if (child.exitCode === null && child.signalCode === null) child.kill('SIGKILL');
});

/** `walker online` with these arguments, ended after the test whatever happens. */
async function serve(args: readonly string[]): Promise<Service> {
  const service = await startService(['-s', 'RESTFUL', '-p', '0', '--real-clock', ...args]);
  started.push(service);
  return service;
}

/** The budget of one request's scripts in the first test: short, to keep the test short; the bound scales with it. */
const BUDGET_MS = 2000;

/**
 * Seven models, each with a model action that busy-waits 450 ms: a load runs them one after another until the
 * budget stops it, after 2 s of scripts, and fails.
 */
function budgetEater(): ModelFileJson {
  const busy = 'var t = Date.now(); while (Date.now() - t < 450) {}';
  return {
    models: Array.from({ length: 7 }, (_, i) => ({
      id: `m${i}`,
      name: `M${i}`,
      generator: 'random(never)',
      startElementId: `e${i}`,
      actions: [busy],
      vertices: [{ id: `v${i}`, name: 'v_A' }],
      edges: [{ id: `e${i}`, name: 'e_start', targetVertexId: `v${i}` }],
    })),
  };
}

/** What a client heard: the status, the Connection header and the body, or the error of a request that got no answer. */
type Heard = { status: number; connection: string | undefined; body: string } | { error: string };

/** Sends one request on the agent's keep-alive connection. */
function send(port: number, agent: Agent, method: string, path: string, body = ''): Promise<Heard> {
  return new Promise((resolve) => {
    const req = request({ host: '127.0.0.1', port, path, method, agent }, (res) => {
      let text = '';
      res.on('data', (chunk) => (text += String(chunk)));
      res.on('end', () => resolve({ status: res.statusCode ?? 0, connection: res.headers.connection, body: text }));
      res.on('error', (error) => resolve({ error: error.message }));
    });
    req.on('error', (error) => resolve({ error: (error as NodeJS.ErrnoException).code ?? error.message }));
    req.end(body);
  });
}

function portOf(service: Service): number {
  return Number(new URL(service.url).port);
}

describe('walker online at SIGTERM, its clients busy', () => {
  it('ends within about one script budget while four clients keep loading models whose scripts run until the budget', async () => {
    const service = await serve(['--script-budget', String(BUDGET_MS)]);
    const port = portOf(service);
    const body = JSON.stringify(budgetEater());
    const heard: Heard[][] = [[], [], [], []];
    let firstAnswer: () => void = () => {};
    const answered = new Promise<void>((resolve) => (firstAnswer = resolve));
    // Each client loops on its own keep-alive connection until the service no longer answers it.
    const clients = heard.map(async (answers) => {
      const agent = new Agent({ keepAlive: true, maxSockets: 1 });
      for (;;) {
        const answer = await send(port, agent, 'POST', '/walker/load', body);
        answers.push(answer);
        firstAnswer();
        if ('error' in answer || answer.status !== 200) break;
      }
      agent.destroy();
    });
    // A load has just ended and the next one starts; halfway through it, the signal comes.
    await answered;
    await new Promise((resolve) => setTimeout(resolve, BUDGET_MS / 2));
    const signalled = Date.now();
    expect(await service.stop('SIGTERM')).toBe(0);
    const took = Date.now() - signalled;
    await Promise.all(clients);

    const report = JSON.stringify({ took, heard: heard.map((answers) => answers.map((a) => ('error' in a ? a.error : a.status))) });
    // The load under way at the signal ends by the wall clock within the budget; nothing else starts after it.
    // What is left — closing, freeing the walk, the process's exit — takes a few hundred ms on a quiet machine;
    // 3 s covers it on a loaded one. Before the fix every load already read ran too: four budgets and more.
    expect(took, report).toBeLessThan(BUDGET_MS + 3000);
    const last = heard.map((answers) => answers.at(-1)!);
    // Every load that ran ended the same way, the budget spent.
    for (const answer of heard.flatMap((answers) => answers.slice(0, -1))) {
      expect(answer, report).toMatchObject({ status: 200, body: expect.stringContaining('Scripts of one request exceeded') as unknown });
    }
    // The clients whose loads waited when the signal came are answered 503 and told to close. Only the client
    // whose load was under way may instead find its connection closed before its next request was read.
    const refused = last.filter((answer) => !('error' in answer));
    expect(refused.length, report).toBeGreaterThanOrEqual(3);
    for (const answer of refused) {
      expect(answer, report).toEqual({ status: 503, connection: 'close', body: JSON.stringify({ result: 'nok', error: CLOSING_MESSAGE }) });
    }
  }, 60_000);

  it('stops a walk that runs in a thread of its own, answering its request under way 503', async () => {
    const service = await serve(['--script-timeout', '120000', '--script-budget', '120000']);
    const port = portOf(service);
    const agent = new Agent({ keepAlive: true, maxSockets: 1 });
    // Every guard busy-waits `ms`: 100 ms moves the walk to a thread, then a minute keeps that thread busy.
    // 100 ms, five times the slow-request time, so that the thread runs the quarter of it that proves the work
    // its own even when a loaded machine gives it a twentieth of a core (server/sessions/slow-requests.ts).
    const guard = '(function () { var t = Date.now(); while (Date.now() - t < ms) {} return true; })()';
    const model: ModelFileJson = {
      models: [
        {
          id: 'slow',
          generator: 'random(never)',
          startElementId: 'e0',
          actions: ['ms = 100;'],
          vertices: [
            { id: 'a', name: 'v_A' },
            { id: 'b', name: 'v_B' },
          ],
          edges: [
            { id: 'e0', name: 'e_start', targetVertexId: 'a' },
            { id: 'e1', name: 'e_ab', sourceVertexId: 'a', targetVertexId: 'b', guard },
            { id: 'e2', name: 'e_ba', sourceVertexId: 'b', targetVertexId: 'a', guard },
          ],
        },
      ],
    };
    const created = await send(port, agent, 'POST', '/walker/sessions', JSON.stringify(model));
    const id = (JSON.parse((created as { body: string }).body) as { id: string }).id;
    const base = `/walker/sessions/${id}`;
    // Steps 3 and 5 leave a vertex: two slow requests, and the walk moves; step 6 enters a vertex.
    for (let i = 0; i < 6; i++) await send(port, agent, 'GET', `${base}/getNext`);
    expect(JSON.parse((await send(port, agent, 'GET', base) as { body: string }).body)).toMatchObject({ isolated: true });
    await send(port, agent, 'PUT', `${base}/setData/${encodeURIComponent('ms = 60000;')}`);
    const underway = send(port, agent, 'GET', `${base}/getNext`);
    // Time for the request to reach the thread, where its guard then runs for a minute.
    await new Promise((resolve) => setTimeout(resolve, 1000));
    const signalled = Date.now();
    expect(await service.stop('SIGTERM')).toBe(0);
    const took = Date.now() - signalled;
    expect(await underway).toEqual({
      status: 503,
      connection: 'close',
      body: JSON.stringify({ code: 'service_unavailable', message: CLOSING_MESSAGE }),
    });
    // Nothing runs in this thread: the close waits for nothing. The bound, 5 s, holds with room.
    expect(took).toBeLessThan(5000);
    agent.destroy();
  }, 60_000);
});
