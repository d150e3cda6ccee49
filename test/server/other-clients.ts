import { Agent, get } from 'node:http';
import { PerformanceObserver, type PerformanceEntry } from 'node:perf_hooks';
import { expect } from 'vitest';
import type { Service } from '../cli/online-helpers.js';
import { ThreadAccounts, waitedBetween, walkThreadOf } from './thread-accounts.js';

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

/** One request of the client, in ms: how long it took, and what of it the machine and the client took. */
export interface WorstSpan {
  readonly ms: number;
  /** What the service's event loop, and the probe's walk thread when it has one, waited for a core. */
  readonly serviceWaitedMs: number;
  /** Of that, what the probe's walk thread waited. */
  readonly walkWaitedMs: number;
  /** What the service's helper threads waited for a core, in all (helpersWaitedMs); counted only up to {@link idleMs}. */
  readonly helpersWaitedMs: number;
  /** The time none of the request's own threads ran or waited for a core: the loop, the probe's walk thread, this process. */
  readonly idleMs: number;
  readonly clientWaitedMs: number;
  readonly clientCollectedMs: number;
  /** How long the service's event loop ran meanwhile: the rest of the request it was neither running nor waiting for a core. */
  readonly serviceRanMs: number;
  /** How long this process's main thread ran meanwhile (the client's own work, and whatever else the test file ran). */
  readonly clientRanMs: number;
  /** How long the probe's walk thread ran meanwhile, when it has one. */
  readonly walkRanMs: number;
}

/** Milliseconds of `pauses` (this process's garbage collections) within `from`..`to`. */
function pausedMs(pauses: readonly PerformanceEntry[], from: number, to: number): number {
  let paused = 0;
  for (const pause of pauses) paused += Math.max(0, Math.min(to, pause.startTime + pause.duration) - Math.max(from, pause.startTime));
  return paused;
}

/** One request of a client, as read from the kernel's accounts before and after it. */
export interface Span {
  readonly started: number;
  readonly ended: number;
  readonly loopWaitedMs: number;
  readonly walkWaitedMs: number;
  readonly helpersWaitedMs: number;
  readonly clientWaitedMs: number;
  readonly serviceRanMs: number;
  readonly walkRanMs: number;
  readonly clientRanMs: number;
}

/**
 * What of a request the service itself made the client wait: its time less what the service's loop and the
 * probe's walk thread waited for a core, less the client's own stall (its wait for a core or its collections,
 * which may overlap: the larger counts), and less what the service's helpers waited for a core, but only up to
 * the time none of those threads ran or waited: a loop that runs or waits for a core is not waiting for a
 * helper, so helpers that wait beside it excuse nothing.
 */
function accountFor(span: Span, pauses: readonly PerformanceEntry[]): AccountedSpan {
  const ms = span.ended - span.started;
  const clientCollectedMs = pausedMs(pauses, span.started, span.ended);
  const serviceWaitedMs = span.loopWaitedMs + span.walkWaitedMs;
  const beforeHelpers = ms - serviceWaitedMs - Math.max(span.clientWaitedMs, clientCollectedMs);
  const idleMs = Math.max(0, beforeHelpers - span.serviceRanMs - span.walkRanMs - span.clientRanMs);
  return {
    ms,
    serviceWaitedMs,
    walkWaitedMs: span.walkWaitedMs,
    helpersWaitedMs: span.helpersWaitedMs,
    idleMs,
    clientWaitedMs: span.clientWaitedMs,
    clientCollectedMs,
    serviceRanMs: span.serviceRanMs,
    walkRanMs: span.walkRanMs,
    clientRanMs: span.clientRanMs,
    ownMs: beforeHelpers - Math.min(span.helpersWaitedMs, idleMs),
  };
}

/** A request, and what of it the service itself made its client wait ({@link accountFor}). */
export type AccountedSpan = WorstSpan & { readonly ownMs: number };

/**
 * Times the requests of this process to the service of process `pid`, reading before and after each what the
 * threads it crosses ran and waited for a core, and watching this process's collections meanwhile.
 */
export class RequestTimer {
  private readonly pauses: PerformanceEntry[] = [];
  private readonly collections = new PerformanceObserver((list) => void this.pauses.push(...list.getEntries()));
  private readonly service: ThreadAccounts;
  private readonly client = new ThreadAccounts(process.pid);

  constructor(pid: number) {
    this.service = new ThreadAccounts(pid);
    this.collections.observe({ entryTypes: ['gc'] });
  }

  /** Sends a request through `send`; `walkThread` is the thread of the service that answers it, if not the loop. */
  async time<T>(send: () => Promise<T>, walkThread?: number): Promise<{ value: T; span: Span }> {
    const before = this.accounts(walkThread);
    const started = performance.now();
    const value = await send();
    const ended = performance.now();
    const after = this.accounts(walkThread);
    const span = {
      started,
      ended,
      loopWaitedMs: after.loopWaited - before.loopWaited,
      walkWaitedMs: Math.max(0, after.walkWaited - before.walkWaited),
      helpersWaitedMs: waitedBetween(before.helpersWaited, after.helpersWaited),
      clientWaitedMs: after.clientWaited - before.clientWaited,
      serviceRanMs: after.loopRan - before.loopRan,
      walkRanMs: Math.max(0, after.walkRan - before.walkRan),
      clientRanMs: after.clientRan - before.clientRan,
    };
    return { value, span };
  }

  /** What the service itself made the client wait in `span`, once the collections meanwhile are known. */
  account(span: Span): AccountedSpan {
    this.pauses.push(...this.collections.takeRecords());
    return accountFor(span, this.pauses);
  }

  dispose(): void {
    this.collections.disconnect();
    this.service.close();
    this.client.close();
  }

  /** The accounts of the threads a request crosses, read before or after it. */
  private accounts(walkThread: number | undefined) {
    const [loop, client] = [this.service.times(), this.client.times()];
    // Nothing while the walk runs on the loop, nor once its thread ended (it reads as 0).
    const walk = walkThread === undefined ? { ranMs: 0, waitedMs: 0 } : this.service.times(walkThread);
    return {
      loopWaited: loop.waitedMs,
      loopRan: loop.ranMs,
      walkWaited: walk.waitedMs,
      walkRan: walk.ranMs,
      helpersWaited: this.service.helpersWaited(),
      clientWaited: client.waitedMs,
      clientRan: client.ranMs,
    };
  }
}

/**
 * Runs `work` while a client walks the session `probe` of `service`, and answers the longest any of its
 * requests took that was under way while `work` ran (a request the loop held for the whole of `work` counts
 * whole), how many there were and how long `work` took. `worstOwnMs` is the longest of what the service itself
 * made the client wait in them ({@link accountFor}), however busy the machine.
 */
export async function worstLatencyDuring<T>(
  service: Service,
  probe: string,
  work: () => Promise<T>,
): Promise<{ result: T; worstMs: number; worstOwnMs: number; worstOwn: WorstSpan | undefined; requests: number; windowMs: number }> {
  const pid = service.process.pid as number;
  const timer = new RequestTimer(pid);
  const connection = new Agent({ keepAlive: true, maxSockets: 1 });
  const spans: Span[] = [];
  let walkThread: number | undefined;
  let stop = false;
  let first: () => void = () => {};
  const warmed = new Promise<void>((resolve) => (first = resolve));
  const client = (async () => {
    while (!stop) {
      // Looked for before the request's clock starts: the search reads a file per thread of the service.
      walkThread ??= walkThreadOf(pid, probe);
      const { value: next, span } = await timer.time(() => getOn(connection, `${service.url}/walker/sessions/${probe}/getNext`), walkThread);
      spans.push(span);
      expect(next.body.result).toBe('ok');
      first();
    }
  })();
  let from = 0;
  let to = 0;
  let result: T;
  let during: AccountedSpan[];
  try {
    await warmed;
    from = performance.now();
    try {
      result = await work();
    } finally {
      to = performance.now();
      stop = true;
      await client;
    }
    during = spans.filter(({ started, ended }) => ended >= from && started <= to).map((span) => timer.account(span));
  } finally {
    connection.destroy();
    timer.dispose();
  }
  const worst = during.reduce<(typeof during)[number] | undefined>((a, b) => (a === undefined || b.ownMs > a.ownMs ? b : a), undefined);
  return {
    result,
    worstMs: Math.max(...during.map(({ ms }) => ms)),
    worstOwnMs: worst?.ownMs ?? Number.NEGATIVE_INFINITY,
    // What the worst was made of, for a failure's message.
    worstOwn: worst,
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
