import { readFileSync } from 'node:fs';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { ensureBuilt, startService, type Service } from '../../cli/online-helpers.js';
import type { WalkMessage } from '../../../server/view/messages.js';
import { Stepper } from '../../../bench/stream-clients.js';

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
 * Slow, but far within the default limit that its own service keeps: 25 ms of the host's clock (that service
 * runs with --real-clock), then a value. Against 50 ms, a machine whose cores other work takes stretches it past.
 */
const SLOW = 'Object.defineProperty(globalThis, "slow", { get() { var t = Date.now(); while (Date.now() - t < 25) {} return 1; }, enumerable: true });';

/** The service of the looping getter, with the short time limit. */
let limited: Service;
/** The service of the slow getter, with the default limit. */
let clocked: Service;
let service: Service;

beforeAll(async () => {
  ensureBuilt();
  [limited, clocked] = await Promise.all([
    startService(['-s', 'RESTFUL', '-p', '0', '--script-timeout', String(TIMEOUT_MS)]),
    startService(['-s', 'RESTFUL', '-p', '0', '--real-clock', '--log-level', 'info']),
  ]);
}, 120_000);

afterAll(async () => {
  await Promise.all([limited?.stop(), clocked?.stop()]);
});

/** A session of Login.json walked three steps, then given the getter `script` defines. */
async function sessionWith(script: string): Promise<string> {
  const created = await fetch(`${service.url}/walker/sessions?generator=random(never)`, { method: 'POST', body: LOGIN });
  expect(created.status).toBe(201);
  const id = ((await created.json()) as { id: string }).id;
  for (let i = 0; i < 3; i++) await fetch(`${service.url}/walker/sessions/${id}/getNext`);
  const set = await fetch(`${service.url}/walker/sessions/${id}/setData/${encodeURIComponent(script)}`, { method: 'PUT' });
  expect(await set.json()).toEqual({ result: 'ok' });
  return id;
}

/**
 * Six reads of the view of `id` at once, while a client of another session steps; answers the reads' walks,
 * and asserts that the other client was answered within the 250 ms, or within two reads as one costs
 * on this machine now (a first read of a twin session, `script` as `id`'s), when that is longer: the loop
 * turns between slow requests, so another client waits behind one or two of them (docs/architecture.md,
 * "Sessions"). The test shares two cores with other test files, which stretch a first read of 25 ms to
 * hundreds at times. Before issue 21, the six reads ran back to back, each answering 500.
 */
async function sixReads(id: string, script: string): Promise<WalkMessage[]> {
  const [other, twin] = [await sessionWith('x = 1;'), await sessionWith(script)];
  await (await Stepper.start(service.url, other)).stopAfter(200);
  const started = performance.now();
  expect((await fetch(`${service.url}/walker/view/sessions/${twin}`)).status).toBe(200);
  const one = performance.now() - started;
  const stepper = await Stepper.start(service.url, other);
  const reads = await Promise.all(Array.from({ length: 6 }, () => fetch(`${service.url}/walker/view/sessions/${id}`)));
  const latencies = await stepper.stop();
  const report = JSON.stringify({ oneRead: Math.round(one), latencies: latencies.map(Math.round) });
  expect(Math.max(...latencies), report).toBeLessThan(Math.max(250, 2 * one));
  for (const read of reads) expect(read.status).toBe(200);
  return Promise.all(reads.map(async (read) => (await read.json()) as WalkMessage));
}

async function isolated(id: string): Promise<boolean> {
  return ((await (await fetch(`${service.url}/walker/sessions/${id}`)).json()) as { isolated: boolean }).isolated;
}

describe('a view read that runs a getter', () => {
  it('that loops shows the variables as unavailable and the rest of the walk, and leaves another session stepping', async () => {
    service = limited;
    const id = await sessionWith(LOOPS);
    for (const { walk } of await sixReads(id, LOOPS)) {
      expect(walk?.steps).toBe(3);
      expect(walk?.variables).toEqual([]);
      expect(walk?.variablesUnavailable).toMatch(/^model '.+', getData: Script exceeded the time limit of 25 ms$/);
    }
    // A time limit stopped the getter: how far it got depends on the machine's pace, so the walk cannot be
    // rebuilt in a thread (core/journal.ts) and stays where it is until its next load or restart. The reads
    // after the first show the first one's reason without running the getter again, until the walk changes.
    expect(await isolated(id)).toBe(false);
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
    service = clocked;
    const id = await sessionWith(SLOW);
    for (const { walk } of await sixReads(id, SLOW)) expect(walk?.variables, walk?.variablesUnavailable).toContainEqual(['slow', '1']);
    expect(await isolated(id)).toBe(true);
    expect(service.output().stderr).toContain(`Session ${id} moved to a thread of its own`);
  }, 60_000);
});
