import { readFileSync } from 'node:fs';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { ensureBuilt, startService, type Service } from '../../cli/online-helpers.js';
import type { WalkMessage } from '../../../server/view/messages.js';
import { expectOthersServed, TARGET_MS } from '../other-clients.js';

/**
 * A view read runs the model's scripts (reading the variables runs their getters) and is held to the same
 * rules as any request (issue 21): its failure shows as variables unavailable, its time counts towards moving
 * the session to a thread of its own, and other sessions go on meanwhile.
 */

const LOGIN = readFileSync('test/fixtures/models/graphwalker/Login.json', 'utf8');

/**
 * Each read of the looping getter runs into the time limit: 25 ms rather than the default 1000. What a slow
 * session costs the others is its slow requests, each as long as the limit (docs/architecture.md, "Sessions"),
 * a client of another session waiting behind one or two of them, longer by the wall clock on a machine whose
 * cores other work takes; with the default limit those alone would pass the 250 ms whatever the view
 * does. The service before issue 21 answered the reads 500 (the whole view failed with the getter).
 */
const TIMEOUT_MS = 25;
const LOOPS = 'Object.defineProperty(globalThis, "evil", { get() { while (true) {} }, enumerable: true });';
/**
 * Slow by its own work, well past the slow-request rule's 20 ms of CPU on any machine (a third of it, 6e5 turns,
 * ran under the rule on one 2-core machine of ours and above it on another), then a value. A machine
 * whose cores other work takes stretches its time on the wall clock, never its CPU time, so the slow-request
 * rule sees its work however busy the machine is; a getter that waited 25 ms on the host's clock had run too
 * little of it for the rule when the machine was busy.
 */
const SLOW = 'Object.defineProperty(globalThis, "slow", { get() { var z = 0; for (var i = 0; i < 2e6; i++) z += i % 7; return 1; }, enumerable: true });';

/** The service of the looping getter, with the short time limit. */
let limited: Service;
/**
 * The service of the slow getter, with a time limit far above what the getter needs even where the machine
 * leaves its thread a small share of a core: under the default limit of 1 s a busy machine stretched the getter
 * past it.
 */
const SLOW_SERVICE_TIMEOUT_MS = 20_000;
let slowService: Service;
let service: Service;

beforeAll(async () => {
  ensureBuilt();
  [limited, slowService] = await Promise.all([
    startService(['-s', 'RESTFUL', '-p', '0', '--script-timeout', String(TIMEOUT_MS), '--log-level', 'info']),
    startService(['-s', 'RESTFUL', '-p', '0', '--script-timeout', String(SLOW_SERVICE_TIMEOUT_MS), '--log-level', 'info']),
  ]);
  // A new process's first requests compile what later ones reuse: under a limit of 25 ms, on a busy machine,
  // those of the first session ran past it on their own CPU and moved that session to a thread.
  for (service of [limited, slowService]) await (await fetch(`${service.url}/walker/view/sessions/${await sessionWith('x = 1;')}`)).arrayBuffer();
}, 120_000);

afterAll(async () => {
  await Promise.all([limited?.stop(), slowService?.stop()]);
});

/** A session of Login.json walked three steps, then given the getter `script` defines. */
async function sessionWith(script: string): Promise<string> {
  const created = await fetch(`${service.url}/walker/sessions?generator=random(never)`, { method: 'POST', body: LOGIN });
  expect(created.status).toBe(201);
  const id = ((await created.json()) as { id: string }).id;
  for (let i = 0; i < 3; i++) await (await fetch(`${service.url}/walker/sessions/${id}/getNext`)).arrayBuffer();
  const set = await fetch(`${service.url}/walker/sessions/${id}/setData/${encodeURIComponent(script)}`, { method: 'PUT' });
  expect(await set.json()).toEqual({ result: 'ok' });
  return id;
}

/**
 * Six reads of the view of `id` at once, while a client of another session steps; answers the reads' walks,
 * and asserts that the other client waited no longer than the 250 ms, or three reads as one costs on
 * this machine now (the slower of two reads of a twin session, `script` as `id`'s) when that is longer,
 * beyond what the machine alone makes it wait (measured before and after). The loop turns between slow
 * requests, so another client waits behind one or two of them (docs/architecture.md, "Sessions"); the third
 * is room for reads that a machine shared with other test files ran half again as long as the measured one
 * (356 ms against two of 132 at load 6). Before issue 21 the six reads ran back to back, each answering 500.
 */
async function sixReads(id: string, script: string): Promise<WalkMessage[]> {
  const [other, twin] = [await sessionWith('x = 1;'), await sessionWith(script)];
  // The first read brings the graph as well, the second runs the getter alone: the slower of the two is `one`.
  let one = 0;
  for (let i = 0; i < 2; i++) {
    const started = performance.now();
    expect(((await (await fetch(`${service.url}/walker/view/sessions/${twin}`)).json()) as WalkMessage).walk).toBeDefined();
    one = Math.max(one, performance.now() - started);
  }
  const reads = await expectOthersServed(
    service,
    other,
    () => Promise.all(Array.from({ length: 6 }, () => fetch(`${service.url}/walker/view/sessions/${id}`))),
    Math.max(TARGET_MS, 3 * one),
  );
  for (const read of reads) expect(read.status).toBe(200);
  return Promise.all(reads.map(async (read) => (await read.json()) as WalkMessage));
}

async function isolated(id: string): Promise<boolean> {
  expect(((await (await fetch(`${service.url}/walker/sessions/${id}/hasNext`)).json()) as { result: string }).result).toBe('ok');
  return ((await (await fetch(`${service.url}/walker/sessions/${id}`)).json()) as { isolated: boolean }).isolated;
}

/** What the service logged of session `id`, for a failure's message. */
function sessionLog(id: string): string {
  return service.output().stderr.split('\n').filter((line) => line.includes(id)).join('\n');
}

describe('a view read that runs a getter', () => {
  it('that loops shows the variables as unavailable and the rest of the walk, and leaves another session stepping', async () => {
    service = limited;
    const id = await sessionWith(LOOPS);
    // Where the walk is before the reads: its first step plans, which a busy machine may stretch past the
    // 25 ms limit by the walk's own work, and that moves it by the rule for built-ins (loop-time.ts).
    const where = await isolated(id);
    for (const { walk } of await sixReads(id, LOOPS)) {
      expect(walk?.steps).toBe(3);
      expect(walk?.variables).toEqual([]);
      expect(walk?.variablesUnavailable).toMatch(/^model '.+', getData: Script exceeded the time limit of 25 ms$/);
    }
    // A time limit stopped the getter: how far it got depends on the machine's pace, so the walk cannot be
    // rebuilt in a thread (core/journal.ts) and stays where it is until its next load or restart. The reads
    // after the first show the first one's reason without running the getter again, until the walk changes.
    expect(await isolated(id), sessionLog(id)).toBe(where);
    expect(sessionLog(id)).not.toContain('a script that a limit stopped');
    // Its stream says the same, and the service walks on.
    const events = await fetch(`${service.url}/walker/view/sessions/${id}/events`);
    const reader = events.body!.pipeThrough(new TextDecoderStream()).getReader();
    let text = '';
    while (!text.includes('\n\n')) text += (await reader.read()).value ?? '';
    await reader.cancel();
    const first = JSON.parse(text.slice(text.indexOf('data: ') + 6, text.indexOf('\n\n'))) as WalkMessage;
    expect(first.walk?.variablesUnavailable).toContain('Script exceeded the time limit');
    expect(((await (await fetch(`${service.url}/walker/sessions/${id}/getNext`)).json()) as { result: string }).result).toBe('ok');
  }, 60_000);

  it('that is slow counts towards moving the session to its thread, as any request does', async () => {
    service = slowService;
    const id = await sessionWith(SLOW);
    for (const { walk } of await sixReads(id, SLOW)) expect(walk?.variables, walk?.variablesUnavailable).toContainEqual(['slow', '1']);
    expect(await isolated(id), sessionLog(id)).toBe(true);
    expect(service.output().stderr).toContain(`Session ${id} moved to a thread of its own`);
  }, 60_000);
});
