import { readdirSync, readFileSync } from 'node:fs';
import { Agent, get } from 'node:http';
import { PerformanceObserver, type PerformanceEntry } from 'node:perf_hooks';
import { expect } from 'vitest';
import type { Service } from '../cli/online-helpers.js';
import { walkThreadName } from '../../server/sessions/thread-name.js';

/**
 * What another client of a service waits while a hostile or heavy request runs (issue 21): a client walks the
 * session `probe`, one getNext after another, on the real process over loopback.
 */

/** What the other client may wait, at most, while such a request runs: the target. */
export const TARGET_MS = 250;

/**
 * A GET of `url` on `agent`'s connection, and its JSON answer. The probe has a connection of its own, as
 * another client would: through `fetch`, it shared this process's pool with the requests under test, and
 * waited in it for a connection while they were under way (500 ms where the service answered in 250).
 */
function getOn(agent: Agent, url: string): Promise<{ status: number; body: Record<string, unknown> }> {
  return new Promise((resolve, reject) => {
    get(url, { agent }, (response) => {
      let text = '';
      response.setEncoding('utf8');
      response.on('data', (chunk: string) => (text += chunk));
      response.on('end', () => resolve({ status: response.statusCode ?? 0, body: JSON.parse(text) as Record<string, unknown> }));
      response.on('error', reject);
    }).on('error', reject);
  });
}

/** A request and its JSON answer. */
export async function json(url: string, method: string, path: string, body?: string): Promise<{ status: number; body: Record<string, unknown> }> {
  const response = await fetch(`${url}${path}`, { method, body });
  const text = await response.text();
  return { status: response.status, body: text === '' ? {} : (JSON.parse(text) as Record<string, unknown>) };
}

/** A request whose body is `value` as JSON (none when undefined), and its JSON answer. */
export async function sendJson(url: string, method: string, path: string, value?: unknown): Promise<{ status: number; body: Record<string, unknown> }> {
  const init = value === undefined ? { method } : { method, headers: { 'content-type': 'application/json' }, body: JSON.stringify(value) };
  const response = await fetch(`${url}${path}`, init);
  return { status: response.status, body: (await response.json()) as Record<string, unknown> };
}

/**
 * How long the main thread of process `pid` has waited for a core, in ms: the kernel's run-queue delay
 * (/proc/<pid>/task/<pid>/schedstat, Linux; 0 where there is none). That wait is the machine's, not the
 * process's: on two cores shared with other test files, a loop that is ready to answer may wait for a core
 * for hundreds of ms.
 */
function waitedForCoreMs(pid: number, tid = pid): number {
  return schedstatMs(pid, 1, tid);
}

/**
 * The thread of process `pid` that walks session `id`, found by its name; undefined while the walk runs on the
 * event loop. A request of a walk in a thread crosses it: that thread's wait for a core is the machine's too.
 */
export function walkThreadOf(pid: number, id: string): number | undefined {
  const name = walkThreadName(id);
  try {
    for (const tid of readdirSync(`/proc/${pid}/task`)) {
      if (readFileSync(`/proc/${pid}/task/${tid}/comm`, 'utf8').trim() === name) return Number(tid);
    }
  } catch {
    // The process ended, or the system has no /proc.
  }
  return undefined;
}

/** How long the main thread of process `pid` has run on a core, in ms (the same file's first field). */
function ranMs(pid: number): number {
  return schedstatMs(pid, 0);
}

function schedstatMs(pid: number, field: number, tid = pid): number {
  try {
    return Number(readFileSync(`/proc/${pid}/task/${tid}/schedstat`, 'utf8').split(' ')[field]) / 1e6;
  } catch {
    return 0;
  }
}

/** One request of the client, in ms: how long it took, and what of it the machine and the client took. */
export interface WorstSpan {
  readonly ms: number;
  /** What the service's event loop, and the probe's walk thread when it has one, waited for a core. */
  readonly serviceWaitedMs: number;
  /** Of that, what the probe's walk thread waited. */
  readonly walkWaitedMs: number;
  readonly clientWaitedMs: number;
  readonly clientCollectedMs: number;
  /** How long the service's event loop ran meanwhile: the rest of the request it was neither running nor waiting for a core. */
  readonly serviceRanMs: number;
  /** How long this process's main thread ran meanwhile (the client's own work, and whatever else the test file ran). */
  readonly clientRanMs: number;
}

/** Milliseconds of `pauses` (this process's garbage collections) within `from`..`to`. */
function pausedMs(pauses: readonly PerformanceEntry[], from: number, to: number): number {
  let paused = 0;
  for (const pause of pauses) paused += Math.max(0, Math.min(to, pause.startTime + pause.duration) - Math.max(from, pause.startTime));
  return paused;
}

/**
 * Runs `work` while a client walks the session `probe` of `service`, and answers the longest any of its
 * requests took that was under way while `work` ran (a request the loop held for the whole of `work` counts
 * whole), how many there were and how long `work` took. `worstOwnMs` is the longest of them less the time that
 * the service's event loop, the probe's walk thread if it has one, and this process waited for a core
 * meanwhile, and that this process spent
 * collecting its garbage (the client is this process, and a test file's heap is hundreds of MB): what the
 * service itself made the client wait, however busy the machine.
 */
export async function worstLatencyDuring<T>(
  service: Service,
  probe: string,
  work: () => Promise<T>,
): Promise<{ result: T; worstMs: number; worstOwnMs: number; worstOwn: WorstSpan | undefined; requests: number; windowMs: number }> {
  const pid = service.process.pid as number;
  const pauses: PerformanceEntry[] = [];
  const collections = new PerformanceObserver((list) => void pauses.push(...list.getEntries()));
  collections.observe({ entryTypes: ['gc'] });
  const spans: Array<{
    started: number;
    ended: number;
    serviceWaitedMs: number;
    walkWaitedMs: number;
    clientWaitedMs: number;
    serviceRanMs: number;
    clientRanMs: number;
  }> = [];
  let walkThread: number | undefined;
  let stop = false;
  const connection = new Agent({ keepAlive: true, maxSockets: 1 });
  let first: () => void = () => {};
  const warmed = new Promise<void>((resolve) => (first = resolve));
  const client = (async () => {
    while (!stop) {
      // Looked for before the request's clock starts: the search reads a file per thread of the service.
      walkThread ??= walkThreadOf(pid, probe);
      const thread = walkThread;
      const started = performance.now();
      const [serviceBefore, clientBefore, ranBefore, clientRanBefore] = [waitedForCoreMs(pid), waitedForCoreMs(process.pid), ranMs(pid), ranMs(process.pid)];
      const walkBefore = thread === undefined ? 0 : waitedForCoreMs(pid, thread);
      const next = await getOn(connection, `${service.url}/walker/sessions/${probe}/getNext`);
      const ended = performance.now();
      // Nothing when the thread ended meanwhile (its file is gone, and reads as 0).
      const walkWaitedMs = thread === undefined ? 0 : Math.max(0, waitedForCoreMs(pid, thread) - walkBefore);
      spans.push({
        started,
        ended,
        serviceWaitedMs: waitedForCoreMs(pid) - serviceBefore + walkWaitedMs,
        walkWaitedMs,
        clientWaitedMs: waitedForCoreMs(process.pid) - clientBefore,
        serviceRanMs: ranMs(pid) - ranBefore,
        clientRanMs: ranMs(process.pid) - clientRanBefore,
      });
      expect(next.body.result).toBe('ok');
      first();
    }
  })();
  await warmed;
  const from = performance.now();
  let result: T;
  try {
    result = await work();
  } finally {
    stop = true;
  }
  const to = performance.now();
  await client.finally(() => connection.destroy());
  pauses.push(...collections.takeRecords());
  collections.disconnect();
  const during = spans.filter(({ started, ended }) => ended >= from && started <= to);
  // The client's own stalls, its wait for a core and its collections, may overlap: only the larger counts.
  const own = ({ started, ended, serviceWaitedMs, clientWaitedMs }: (typeof spans)[number]): number =>
    ended - started - serviceWaitedMs - Math.max(clientWaitedMs, pausedMs(pauses, started, ended));
  const worst = during.reduce<(typeof spans)[number] | undefined>((a, b) => (a === undefined || own(b) > own(a) ? b : a), undefined);
  return {
    result,
    worstMs: Math.max(...during.map(({ started, ended }) => ended - started)),
    worstOwnMs: Math.max(...during.map(own)),
    // What the worst was made of, for a failure's message.
    worstOwn: worst && {
      ms: worst.ended - worst.started,
      serviceWaitedMs: worst.serviceWaitedMs,
      walkWaitedMs: worst.walkWaitedMs,
      clientWaitedMs: worst.clientWaitedMs,
      clientCollectedMs: pausedMs(pauses, worst.started, worst.ended),
      serviceRanMs: worst.serviceRanMs,
      clientRanMs: worst.clientRanMs,
    },
    requests: during.length,
    windowMs: to - from,
  };
}

/**
 * Runs `work` while the client walks `probe`, and expects the service never to have made the client wait more
 * than the 250 ms (or `allowedMs`, for work that may hold the loop longer by design), leaving out the
 * time the machine kept either process from a core (worstLatencyDuring). Work on the event loop holds the
 * client for all of its time. On a busy machine this counts the loop's own CPU: a script held to a time limit
 * of wall time holds the loop that long, of which a busy machine gives it only a share; the quiet machine's
 * runs count all of it.
 */
export async function expectOthersServed<T>(service: Service, probe: string, work: () => Promise<T>, allowedMs = TARGET_MS): Promise<T> {
  const load = await worstLatencyDuring(service, probe, work);
  const report = { ...load, result: undefined, allowedMs };
  expect(load.worstOwnMs, JSON.stringify(report)).toBeLessThan(allowedMs);
  return load.result;
}
