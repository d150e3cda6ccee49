import { readFileSync } from 'node:fs';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { ensureBuilt, startService, type Service } from '../../cli/online-helpers.js';
import type { WalkMessage } from '../../../server/view/messages.js';
import { Stepper } from '../../../bench/stream-clients.js';

/**
 * A view read runs the model's scripts (reading the variables runs their getters) and is held to the same
 * rules as any request (issue 21): its failure shows as variables unavailable, and a session whose reads hold
 * the event loop moves to a thread of its own, so that other sessions go on.
 */

const LOGIN = readFileSync('test/fixtures/models/graphwalker/Login.json', 'utf8');

/**
 * Each read of the variables runs into the time limit: 50 ms rather than the default 1000. What a slow session
 * costs the others is its first slow requests, each as long as the limit (docs/architecture.md, "Sessions"):
 * here the view's first read (which brings the graph, and is not judged), then the two that move the session,
 * a client of another session waiting behind one or two of them. With the default limit those alone would
 * pass the 250 ms whatever the view does; with 50 ms, six reads back to back (the service before issue
 * 21) pass it, and what the rules allow does not.
 */
const TIMEOUT_MS = 50;
const EVIL = 'Object.defineProperty(globalThis, "evil", { get() { while (true) {} }, enumerable: true });';

let service: Service;

beforeAll(async () => {
  ensureBuilt();
  service = await startService(['-s', 'RESTFUL', '-p', '0', '--script-timeout', String(TIMEOUT_MS), '--log-level', 'info']);
}, 120_000);

afterAll(async () => {
  await service?.stop();
});

async function newSession(): Promise<string> {
  const created = await fetch(`${service.url}/walker/sessions?generator=random(never)`, { method: 'POST', body: LOGIN });
  expect(created.status).toBe(201);
  return ((await created.json()) as { id: string }).id;
}

describe('a view read whose getter loops', () => {
  it('shows the variables as unavailable, moves the session to its thread, and leaves another session stepping', async () => {
    const evil = await newSession();
    const other = await newSession();
    for (let i = 0; i < 3; i++) await fetch(`${service.url}/walker/sessions/${evil}/getNext`);
    const set = await fetch(`${service.url}/walker/sessions/${evil}/setData/${encodeURIComponent(EVIL)}`, { method: 'PUT' });
    expect(await set.json()).toEqual({ result: 'ok' });
    const alone = await (await Stepper.start(service.url, other)).stopAfter(1000);
    const stepper = await Stepper.start(service.url, other);
    const reads = await Promise.all(Array.from({ length: 6 }, () => fetch(`${service.url}/walker/view/sessions/${evil}`)));
    const latencies = await stepper.stop();
    const report = JSON.stringify({ alone: alone.map(Math.round), latencies: latencies.map(Math.round) });
    for (const read of reads) {
      expect(read.status).toBe(200);
      const { walk } = (await read.json()) as WalkMessage;
      // The rest of the walk is shown; the variables say why they are not.
      expect(walk?.steps).toBe(3);
      expect(walk?.variables).toEqual([]);
      expect(walk?.variablesUnavailable).toMatch(/^model '.+', getData: Script exceeded the time limit of 50 ms$/);
    }
    // A time limit stopped the getter: how far it got depends on the machine's pace, so the walk cannot be
    // rebuilt in a thread (core/journal.ts) and stays where it is until its next load or restart. The reads
    // after the first show the first one's reason without running the getter again, until the walk changes.
    expect(((await (await fetch(`${service.url}/walker/sessions/${evil}`)).json()) as { isolated: boolean }).isolated).toBe(false);
    // The 250 ms, unless this machine alone already put the slowest step past half of it: the test
    // shares two cores with other test files.
    expect(Math.max(...latencies), report).toBeLessThan(Math.max(250, 2 * Math.max(...alone)));
    // Its stream says the same, and the service walks on.
    const events = await fetch(`${service.url}/walker/view/sessions/${evil}/events`);
    const reader = events.body!.pipeThrough(new TextDecoderStream()).getReader();
    let text = '';
    while (!text.includes('\n\n')) text += (await reader.read()).value ?? '';
    await reader.cancel();
    const first = JSON.parse(text.slice(text.indexOf('data: ') + 6, text.indexOf('\n\n'))) as WalkMessage;
    expect(first.walk?.variablesUnavailable).toContain('Script exceeded the time limit');
    expect(((await (await fetch(`${service.url}/walker/sessions/${evil}/getNext`)).json()) as { result: string }).result).toBe('ok');
  }, 30_000);
});
