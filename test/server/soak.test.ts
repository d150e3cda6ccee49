import { readFileSync } from 'node:fs';
import { beforeAll, expect, it } from 'vitest';
import type { ModelFileJson } from '../../core/model/types.js';
import { ensureBuilt, startService } from '../cli/online-helpers.js';

/**
 * A bounded soak of the real process: 32 clients over loopback, each on its own keep-alive connection,
 * calling hasNext, getNext, getStatistics and setData against the one walk the service holds.
 *
 * An hour of traffic is out of a test suite's reach; a minute at the 2,000–4,000 requests a second this
 * machine serves is a few hundred thousand requests — every client interleaves with every other thousands of
 * times, which is what a lost or doubled step needs to show — and a leak of even 200 bytes per request would
 * add tens of MiB, over RSS_GROWTH_BOUND.
 */
const SOAK_MS = 60_000;
const CLIENTS = 32;
/** RSS is measured from here: by then the JIT, the heap and the socket buffers have reached their working size. */
const WARMUP_MS = 3_000;
/**
 * The most RSS may grow after the warm-up. The state the service keeps barely grows with requests (one walk,
 * CLIENTS variables overwritten in place, and the walk's journal: a byte per operation plus the text of each
 * setData, some 2 MiB in a minute); what moves RSS then is V8's young generation (16 MiB semi-spaces by
 * default on 64-bit) and how lazily old-generation garbage is returned. 48 MiB leaves room for those and
 * still catches a leak of 200 bytes per request, as argued above.
 */
const RSS_GROWTH_BOUND = 48 * 1024 * 1024;

beforeAll(() => ensureBuilt(), 120_000);

/** A ring of 10 vertices; every element's action counts `steps`, so getData tells how many steps were taken. */
function countingRing(): ModelFileJson {
  const vertices = Array.from({ length: 10 }, (_, i) => ({ id: `v${i}`, name: `v_${i}`, actions: ['steps++;'] }));
  const edges = [
    { id: 'e0', name: 'e_start', targetVertexId: 'v0', actions: ['steps++;'] },
    ...vertices.map((v, i) => ({ id: `e${i + 1}`, name: `e_${i + 1}`, sourceVertexId: v.id, targetVertexId: `v${(i + 1) % 10}`, actions: ['steps++;'] })),
  ];
  return { models: [{ id: 'ring', name: 'Ring', generator: 'random(never)', startElementId: 'e0', actions: ['steps = 0;'], vertices, edges }] };
}

function rssOf(pid: number): number {
  const kb = /VmRSS:\s+(\d+) kB/.exec(readFileSync(`/proc/${pid}/status`, 'utf8'));
  if (kb === null) throw new Error(`no VmRSS for process ${pid}`);
  return Number(kb[1]) * 1024;
}

/** What the clients saw: getNext answers, and every answer that was not a 200 with result ok. */
interface Tally {
  steps: number;
  requests: number;
  failures: string[];
}

async function client(base: string, index: number, until: number, tally: Tally): Promise<void> {
  const call = async (method: string, path: string): Promise<Record<string, unknown>> => {
    const res = await fetch(`${base}${path}`, { method });
    const body = (await res.json()) as Record<string, unknown>;
    tally.requests++;
    if (res.status !== 200 || body.result !== 'ok') tally.failures.push(`${method} ${path}: ${res.status} ${JSON.stringify(body)}`);
    return body;
  };
  for (let i = 0; Date.now() < until; i++) {
    if ((await call('GET', '/walker/hasNext')).hasNext === 'true' && (await call('GET', '/walker/getNext')).result === 'ok') tally.steps++;
    if (i % 8 === index % 8) await call('GET', '/walker/getStatistics');
    if (i % 8 === (index + 4) % 8) await call('PUT', `/walker/setData/${encodeURIComponent(`c${index} = ${i};`)}`);
  }
}

it(`holds ${CLIENTS} concurrent clients for ${SOAK_MS / 1000} s: no step lost or doubled, no 5xx, flat memory`, async () => {
  const service = await startService(['-s', 'RESTFUL', '-p', '0', '--seed', '7']);
  const pid = service.process.pid as number;
  try {
    const loaded = await fetch(`${service.url}/walker/load`, { method: 'POST', body: JSON.stringify(countingRing()) });
    expect(await loaded.json()).toMatchObject({ result: 'ok' });
    const tally: Tally = { steps: 0, requests: 0, failures: [] };
    const until = Date.now() + SOAK_MS;
    let warmRss = 0;
    const warm = setTimeout(() => (warmRss = rssOf(pid)), WARMUP_MS);
    await Promise.all(Array.from({ length: CLIENTS }, (_, i) => client(service.url, i, until, tally)));
    clearTimeout(warm);
    const endRss = rssOf(pid);

    expect(tally.failures).toEqual([]);
    expect(tally.requests).toBeGreaterThan(CLIENTS * 100);
    const data = String(((await (await fetch(`${service.url}/walker/getData`)).json()) as { data: string }).data);
    expect(data).toMatch(new RegExp(`(^|; )steps=${tally.steps}(;|$)`));
    expect(warmRss).toBeGreaterThan(0);
    expect(endRss - warmRss).toBeLessThan(RSS_GROWTH_BOUND);
    console.info(`soak: ${tally.requests} requests, ${tally.steps} steps, RSS ${mib(warmRss)} → ${mib(endRss)} MiB`);
  } finally {
    expect(await service.stop()).toBe(0);
  }
}, SOAK_MS + 60_000);

function mib(bytes: number): string {
  return (bytes / 1024 / 1024).toFixed(1);
}
