import { readdirSync } from 'node:fs';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { generateModel } from '../../core/model/generate.js';
import type { ModelFileJson } from '../../core/model/types.js';
import { ensureBuilt, startService, type Service } from '../cli/online-helpers.js';
import { pingPong } from './models.js';
import { expectOthersServed as othersServed, json as request } from './other-clients.js';

/**
 * A load whose work is large runs off the event loop (server/sessions/load-placement.ts): on the real
 * process, another session's getNext answers within 250 ms while it runs, whether it makes a session, loads
 * the default session or loads a session of its own; a load that fails there answers what it answers on the
 * loop and changes nothing; a large load that proves cheap walks on the loop after all.
 */

let service: Service;

beforeAll(async () => {
  ensureBuilt();
  // Scripts are timed by the wall clock, and the busy model action below must not reach the limits on a machine
  // whose cores other processes share.
  const limits = ['--script-timeout', '60000', '--script-budget', '60000'];
  service = await startService(['-s', 'RESTFUL', '-p', '0', '--log-level', 'info', ...limits]);
});

afterAll(async () => {
  await service?.stop();
});

function json(method: string, path: string, body?: string): Promise<{ status: number; body: Record<string, unknown> }> {
  return request(service.url, method, path, body);
}

/**
 * 20,000 vertices and edges, a guard on every edge and an action on every element: 3.5 MiB, whose load
 * parses 40,000 scripts and explores the guards' states until they prove to grow without end (2,000 states,
 * docs/planning.md), over a second of a core.
 * `change` alters it (a broken guard, say) before it is written.
 */
function largeModelText(change: (model: ModelFileJson) => void = () => {}): string {
  const model = generateModel({ vertices: 20_000, edges: 20_001, seed: 2026, guards: true, actions: true });
  change(model);
  return JSON.stringify(model);
}

async function newSession(body: string): Promise<string> {
  const created = await json('POST', '/walker/sessions', body);
  expect(created.status, JSON.stringify(created.body).slice(0, 300)).toBe(201);
  return String(created.body.id);
}

function expectOthersServed<T>(probe: string, work: () => Promise<T>): Promise<T> {
  return othersServed(service, probe, work);
}

describe('a load whose work is large', () => {
  it('makes a session in a thread of its own, while another session walks on', async () => {
    const probe = await newSession(JSON.stringify(pingPong('probe')));
    const text = largeModelText();
    const result = await expectOthersServed(probe, () => json('POST', '/walker/sessions', text));
    expect(result.status).toBe(201);
    const id = String(result.body.id);
    expect(result.body.isolated).toBe(true);
    expect(service.output().stderr).toContain(`Session ${id} walks in a thread of its own: its load took`);
    // And it walks, in its thread.
    expect((await json('GET', `/walker/sessions/${id}/getNext`)).body).toMatchObject({ result: 'ok', currentElementID: 'e0' });
  }, 300_000);

  it('loads the default session off the event loop too', async () => {
    const probe = await newSession(JSON.stringify(pingPong('probe')));
    const text = largeModelText();
    const result = await expectOthersServed(probe, () => json('POST', '/walker/load', text));
    expect(result.body.result).toBe('ok');
    expect(service.output().stderr).toContain('Session default walks in a thread of its own');
    expect((await json('GET', '/walker/getNext')).body).toMatchObject({ result: 'ok', currentElementID: 'e0' });
  }, 300_000);

  it('answers a failure in the thread as the event loop answers it, and changes nothing', async () => {
    const breakGuard = (model: ModelFileJson) => {
      model.models[0].edges[5].guard = 'x >=';
    };
    const walking = await newSession(JSON.stringify(pingPong('walking')));
    await json('GET', `/walker/sessions/${walking}/getNext`);
    const large = await json('POST', `/walker/sessions/${walking}/load`, largeModelText(breakGuard));
    // The same broken guard in a model small enough to load on the loop.
    const small = generateModel({ vertices: 10, edges: 11, seed: 2026, guards: true, actions: true });
    breakGuard(small);
    const onLoop = await json('POST', `/walker/sessions/${walking}/load`, JSON.stringify(small));
    expect(onLoop.body.result).toBe('nok');
    expect(String(onLoop.body.error)).toContain("model 'generated', edge 'e5', field 'guard': the guard does not parse");
    expect(large.body).toEqual(onLoop.body);
    // The session walks its model on, on the loop.
    expect((await json('GET', `/walker/sessions/${walking}/getNext`)).body).toMatchObject({ result: 'ok', currentElementID: 'a' });
    expect((await json('GET', `/walker/sessions/${walking}`)).body.isolated).toBe(false);
    // A session of a model that does not load is never made, in a thread or not.
    const before = ((await json('GET', '/walker/sessions')).body.sessions as unknown[]).length;
    const refused = await json('POST', '/walker/sessions', largeModelText(breakGuard));
    expect(refused.status).toBe(422);
    expect(refused.body).toEqual({ code: 'invalid_model', message: onLoop.body.error });
    expect(((await json('GET', '/walker/sessions')).body.sessions as unknown[]).length).toBe(before);
  }, 300_000);

  it('walks on the event loop when it proves cheap: a model padded past the size that sends a load to a thread', async () => {
    const padded = pingPong('padded', { properties: { notes: 'x'.repeat(1.5 * 1024 * 1024) } });
    const id = await newSession(JSON.stringify(padded));
    expect((await json('GET', `/walker/sessions/${id}`)).body.isolated).toBe(false);
    expect(service.output().stderr).not.toContain(`Session ${id} walks in a thread`);
    expect((await json('GET', `/walker/sessions/${id}/getNext`)).body).toMatchObject({ result: 'ok', currentElementID: 'e0' });
  }, 300_000);
});

describe('a small load whose model actions run long', () => {
  it('yields the loop: the session is made in a thread, and loads there from then on', async () => {
    // Half a second to a few seconds of a core in its model action (by how fast the machine is), in a few
    // hundred bytes: nothing tells it apart before it runs, so it starts on the loop and yields it after 100 ms.
    const busy = pingPong('busy', { actions: ['var s = 0; for (var i = 0; i < 10000000; i++) { s += i % 7; }'] });
    const probe = await newSession(JSON.stringify(pingPong('probe')));
    const id = await expectOthersServed(probe, () => newSession(JSON.stringify(busy)));
    expect((await json('GET', `/walker/sessions/${id}`)).body.isolated).toBe(true);
    expect((await json('GET', `/walker/view/sessions/${id}`)).body).toMatchObject({ kind: 'walk', load: 1 });
    const result = await expectOthersServed(probe, () => json('POST', `/walker/sessions/${id}/load`, JSON.stringify(busy)));
    expect(result.body.result).toBe('ok');
    // The web view counts the session's loads on across the move: a new count is how it knows a new graph.
    expect((await json('GET', `/walker/view/sessions/${id}`)).body).toMatchObject({ kind: 'walk', load: 2 });
  }, 300_000);
});

describe('a large load under way in its thread', () => {
  /** Threads of the process: a load's thread adds one. */
  const threads = (pid: number): number => readdirSync(`/proc/${pid}/task`).length;

  /** Waits until the process has a thread more than `before`: the load's, which takes over a second of a core. */
  async function threadStarted(pid: number, before: number): Promise<void> {
    const deadline = Date.now() + 60_000;
    while (threads(pid) <= before) {
      if (Date.now() > deadline) throw new Error('the load never got a thread of its own');
      await new Promise((resolve) => setTimeout(resolve, 20));
    }
  }

  it('answers that the session was closed when the session is deleted meanwhile', async () => {
    const id = await newSession(JSON.stringify(pingPong('walking')));
    const pid = service.process.pid as number;
    const before = threads(pid);
    const loading = json('POST', `/walker/sessions/${id}/load`, largeModelText());
    await threadStarted(pid, before);
    expect((await json('DELETE', `/walker/sessions/${id}`)).status).toBe(204);
    expect((await loading).body).toEqual({ result: 'nok', error: 'The session was closed.' });
    expect((await json('GET', `/walker/sessions/${id}/getNext`)).status).toBe(404);
  }, 300_000);

  it('lets the service end within 5 s of SIGTERM, answering the load 503', async () => {
    const own = await startService(['-s', 'RESTFUL', '-p', '0']);
    const pid = own.process.pid as number;
    const before = threads(pid);
    const loading = fetch(`${own.url}/walker/load`, { method: 'POST', body: largeModelText() });
    await threadStarted(pid, before);
    const started = Date.now();
    expect(await own.stop('SIGTERM')).toBe(0);
    expect(Date.now() - started).toBeLessThan(5000);
    const answer = await loading;
    expect(answer.status).toBe(503);
    expect(await answer.json()).toMatchObject({ result: 'nok', error: expect.stringContaining('shutting down') });
  }, 300_000);
});
