import { readFileSync } from 'node:fs';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import WebSocket from 'ws';
import { ensureBuilt, startService, type Service } from '../cli/online-helpers.js';
import { triangle } from './models.js';
import { expectOthersServed, json as request, TARGET_MS, worstLatencyDuring } from './other-clients.js';
import { walkThreadOf } from './thread-accounts.js';
import { GraphWalkerSocket } from './websocket-client.js';

/**
 * Issue 21's last round of hostile requests, each on the real process over loopback with default options but
 * a short script time limit: while one runs, another session's getNext is answered about as fast as when
 * nothing runs, and the service answers afterwards. A request that a script limit cut short changes nothing.
 */

/** Short, so that a runaway script costs the test little; far above what the scripts that finish need. */
const SCRIPT_TIMEOUT_MS = 300;

/** Small, so that drafts that together outgrow one are quick to make. */
const MAX_DRAFT_ELEMENTS = 10;

let service: Service;
const sockets: WebSocket[] = [];

beforeAll(async () => {
  ensureBuilt();
  service = await startService(['-s', 'RESTFUL', '-p', '0', '--log-level', 'info', '--script-timeout', String(SCRIPT_TIMEOUT_MS), '--max-draft-elements', String(MAX_DRAFT_ELEMENTS)]);
}, 120_000);

afterAll(async () => {
  for (const socket of sockets) socket.terminate();
  await service?.stop();
});

const json = (method: string, path: string, body?: string) => request(service.url, method, path, body);

async function newSession(seed = 7): Promise<string> {
  const created = await json('POST', '/walker/sessions', JSON.stringify(triangle(seed)));
  expect(created.status, JSON.stringify(created.body)).toBe(201);
  return String(created.body.id);
}

const setData = (id: string, script: string) => json('PUT', `/walker/sessions/${id}/setData/${encodeURIComponent(script)}`);
/** A variable as getData shows it (`n=1; m=2`), or undefined. */
async function variable(id: string, name: string): Promise<string | undefined> {
  const data = String((await json('GET', `/walker/sessions/${id}/getData`)).body.data);
  const pair = data.split('; ').find((entry) => entry.startsWith(`${name}=`));
  return pair?.slice(name.length + 1);
}
const step = async (id: string) => String((await json('GET', `/walker/sessions/${id}/getNext`)).body.currentElementID);

async function socket(): Promise<GraphWalkerSocket> {
  const client = await GraphWalkerSocket.open(`${service.url.replace(/^http/, 'ws')}/`);
  sockets.push(client.socket);
  return client;
}

/** The service's resident memory, in MiB. */
function rssMiB(): number {
  const status = readFileSync(`/proc/${service.process.pid}/status`, 'utf8');
  return Number(/^VmRSS:\s+(\d+) kB$/m.exec(status)?.[1]) / 1024;
}

describe('a request that a script limit cut short', () => {
  it('changes nothing: the walk is rebuilt without it in a thread of its own, and walks on as if it never came', async () => {
    const [id, twin] = [await newSession(), await newSession()];
    for (const session of [id, twin]) {
      await step(session);
      await step(session);
      expect((await setData(session, 'n = n + 1;')).body).toEqual({ result: 'ok' });
    }
    // The side effect comes before the loop: it ran, and the time limit stopped the script.
    const cut = await setData(id, 'n = n + 1; m = Math.random(); while (true) {}');
    expect(cut.body).toEqual({ result: 'nok', error: expect.stringContaining(`Script exceeded the time limit of ${SCRIPT_TIMEOUT_MS} ms`) });
    expect(await variable(id, 'n')).toBe('1');
    expect(await variable(id, 'm')).toBeUndefined();
    expect((await json('GET', `/walker/sessions/${id}`)).body.isolated).toBe(true);
    // It yielded the loop at 100 ms, and ran to its limit in the thread.
    expect(service.output().stderr).toContain(`Session ${id} moved to a thread of its own: its scripts ran past 100 ms in one request on the event loop.`);
    // In its thread too: a runaway getter read by getData, then a runaway step guard set through setData.
    expect((await setData(id, 'Object.defineProperty(globalThis, "evil", { get() { n = 99; while (true) {} }, enumerable: true, configurable: true });')).body.result).toBe('ok');
    expect((await json('GET', `/walker/sessions/${id}/getData`)).body).toMatchObject({ result: 'nok' });
    expect((await setData(id, 'delete globalThis.evil;')).body.result).toBe('ok');
    expect(await variable(id, 'n')).toBe('1');
    // The same path as the twin that never had them, random draws and all: the replays arrived where the walk was.
    for (let i = 0; i < 12; i++) expect(await step(id)).toBe(await step(twin));
    expect(await variable(id, 'n')).toBe(await variable(twin, 'n'));
  }, 120_000);
});

describe('a built-in that no time limit interrupts', () => {
  it('holds the loop once for the whole service: its session, those before it and those after walk in threads, where the same call leaves the others served', async () => {
    // JSON.stringify works through the array in one call, which QuickJS never interrupts: 600,000 elements take
    // 1.5 s on the quiet 2-core machine (100,000 took 283 ms on CI's, under the 300 ms limit), so the call
    // passes the limit on a machine several times faster too. The script then ends without another check, so
    // the request answers ok.
    const elements = 6e5;
    const hostile = `s = JSON.stringify(new Array(${elements}).fill({k: 1, v: "x"})).length;`;
    const length = String(JSON.stringify(new Array(elements).fill({ k: 1, v: 'x' })).length);
    const [probe, id] = [await newSession(), await newSession()];
    await step(id);
    const started = performance.now();
    expect((await setData(id, hostile)).body).toEqual({ result: 'ok' });
    const first = performance.now() - started;
    // Queued behind the move, so answered by the walk in its thread.
    expect(await variable(id, 's')).toBe(length);
    expect((await json('GET', `/walker/sessions/${id}`)).body.isolated, `the first call took ${Math.round(first)} ms`).toBe(true);
    // Named after its session where the system lists threads, so that `top -H` tells which session is busy.
    expect(walkThreadOf(service.process.pid as number, id)).toEqual(expect.any(Number));
    expect(service.output().stderr).toMatch(new RegExp(`Session ${id} moved to a thread of its own: a request kept the event loop busy for \\d+ ms\\.`));
    expect(service.output().stderr).toMatch(new RegExp(`Session ${id} held the event loop for \\d+ ms, past every script limit: every walk runs in a thread of its own until 10 minutes pass`));
    // The probe, made before, leaves the loop with its first request in there (the one the check below waits for).
    await expectOthersServed(service, probe, async () => {
      expect((await setData(id, hostile)).body).toEqual({ result: 'ok' });
    });
    expect(await variable(id, 's')).toBe(length);
    expect((await json('GET', `/walker/sessions/${probe}`)).body.isolated).toBe(true);
    // A new session cannot hold the loop with the same call once more: its walk is made in a thread.
    const fresh = await newSession();
    expect((await json('GET', `/walker/sessions/${fresh}`)).body.isolated).toBe(true);
    await expectOthersServed(service, probe, async () => {
      expect((await setData(fresh, hostile)).body).toEqual({ result: 'ok' });
    });
    expect(await variable(fresh, 's')).toBe(length);
  }, 180_000);
});

describe('hostile WebSocket messages', () => {
  it('refuses a lenient message past 64 KiB and one nested past 1,000 levels at once, with what to change, while others are served', async () => {
    const probe = await newSession();
    const client = await socket();
    const json5 = `{command: 'start', gw: {models: [${Array.from({ length: 4000 }, (_, i) => `{id: 'm${i}', name: 'a model'}`).join(',')}]}}`;
    const lenient = await expectOthersServed(service, probe, () => client.answer(json5, undefined));
    expect(lenient).toEqual({ success: false, message: expect.stringMatching(/^Unknown command: the message is not JSON \(.*\); only a message of up to 65536 characters is read as JSON5 too, and this one has \d+\.$/) });
    const depth = 300_000;
    const deep = `{"command":"start","gw":{"models":[{"id":"m","properties":${'['.repeat(depth)}${']'.repeat(depth)}}]}}`;
    const nested = await expectOthersServed(service, probe, () => client.answer(deep, undefined));
    const past = `Unknown command: arrays and objects nest more than 1000 deep at character ${deep.indexOf('[[') + 996}; a command needs a few levels.`;
    expect(nested).toEqual({ success: false, message: past });
    // A small JSON5 command is still read.
    expect(await client.answer("{command: 'hasNext'}", 'hasNext')).toMatchObject({ command: 'hasNext', success: false });
  }, 120_000);

  it('stops reading a client that sends getModel of a large model without reading the answers, and serves the others', async () => {
    const probe = await newSession();
    const client = await socket();
    const n = 5000;
    const model = {
      models: [
        {
          id: 'big',
          generator: 'random(never)',
          startElementId: 'e0',
          vertices: Array.from({ length: n }, (_, i) => ({ id: `v${i}`, name: `v_${'x'.repeat(200)}${i}` })),
          edges: [
            { id: 'e0', name: 'e_start', targetVertexId: 'v0' },
            ...Array.from({ length: n }, (_, i) => ({ id: `e${i + 1}`, name: `e_${'y'.repeat(200)}`, sourceVertexId: `v${i}`, targetVertexId: `v${(i + 1) % n}` })),
          ],
        },
      ],
    };
    expect(await client.answer({ command: 'start', gw: model })).toMatchObject({ success: true });
    // What one getModel holds the loop (its answer is 2.6 MB, the model written as JSON twice over), read by a
    // client that reads: the others wait for about one such answer at a time, never for a pile of them.
    // The longest of three, as the machine's load goes now.
    let one = 0;
    for (let i = 0; i < 3; i++) {
      const started = performance.now();
      expect(await client.answer({ command: 'getModel' }, 'getmodel')).toMatchObject({ success: true });
      one = Math.max(one, performance.now() - started);
    }
    const before = rssMiB();
    // The client reads nothing more.
    client.socket.pause();
    const flood = await worstLatencyDuring(service, probe, async () => {
      for (let i = 0; i < 2000; i++) {
        client.socket.send('{"command":"getModel"}');
        if (i % 100 === 0) await new Promise((resolve) => setImmediate(resolve));
      }
      await new Promise((resolve) => setTimeout(resolve, 5000));
    });
    const report = JSON.stringify({ oneGetModelMs: Math.round(one), ...flood });
    // The target beyond the time the machine kept the processes from a core (other-clients.ts) and the
    // work of an answer or two under way when the other client's request came (it failed with one, at load 7);
    // before, the messages of one read were answered back to back, a pile of them (0.6-1 s).
    expect(flood.worstOwnMs, report).toBeLessThan(TARGET_MS + 2 * one);
    // 2,000 answers unread would be over 4 GiB; the service holds a few of them at most.
    expect(rssMiB() - before).toBeLessThan(200);
    client.socket.terminate();
    expect((await json('GET', `/walker/sessions/${probe}/getNext`)).body.result).toBe('ok');
  }, 120_000);
});

describe('hostile draft requests', () => {
  const post = (path: string, body: unknown) =>
    fetch(`${service.url}${path}`, { method: 'POST', headers: { 'content-type': 'application/json' }, body: JSON.stringify(body) }).then(async (r) => ({
      status: r.status,
      body: (await r.json()) as Record<string, unknown>,
    }));

  it('refuses a script check of more than 64 KiB in all and a joint validation naming a draft twice, and serves the others meanwhile', async () => {
    const probe = await newSession();
    // Within the 1 MiB body: fifteen lists of 64 KiB each, compiled on the event loop, held others 2.9 s before.
    const source = Array.from({ length: 15 }, () => `x = [${'1,'.repeat(32_000)}];`);
    const checked = await expectOthersServed(service, probe, () => post('/walker/drafts/script-check', { kind: 'actions', source }));
    expect(checked).toEqual({
      status: 422,
      body: { code: 'invalid_model', message: `Member 'source' holds ${source.join('').length} characters; script-check takes up to 65536 at once: check the scripts in several requests.` },
    });
    expect((await post('/walker/drafts/script-check', { kind: 'actions', source: source.slice(0, 1).map((s) => s.slice(0, 60_000) + '];') })).body).toEqual({ valid: true });

    const draft = await post('/walker/drafts', { model_id: 'j', generator: 'random(edge_coverage(100))' });
    const id = String(draft.body.draft_id);
    const twice = await post('/walker/drafts/joint-validation', { draft_ids: [id, id] });
    expect(twice).toEqual({ status: 422, body: { code: 'invalid_model', message: `Member 'draft_ids' names the draft '${id}' twice: name each draft once.` } });
    expect((await post('/walker/drafts/joint-validation', { draft_ids: [id] })).status).toBe(200);
    // Two drafts of six vertices each: more together than one draft may hold.
    const other = String((await post('/walker/drafts', { model_id: 'k' })).body.draft_id);
    for (const draftId of [id, other]) {
      for (let i = 0; i < 6; i++) expect((await post(`/walker/drafts/${draftId}/vertices`, { name: `v_${i}` })).status).toBe(201);
    }
    expect(await post('/walker/drafts/joint-validation', { draft_ids: [id, other] })).toEqual({
      status: 422,
      body: {
        code: 'invalid_model',
        message: `The drafts hold 12 vertices and edges together, more than one draft may hold on this server (--max-draft-elements, ${MAX_DRAFT_ELEMENTS}): validate fewer at once.`,
      },
    });
  }, 120_000);
});
