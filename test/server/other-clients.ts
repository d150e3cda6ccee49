import { expect } from 'vitest';

/**
 * What another client of a service waits while a hostile or heavy request runs (issue 21): a client walks the
 * session `probe`, one getNext after another, on the real process over loopback.
 */

/** What the other client may wait, at most, while such a request runs: the target. */
export const TARGET_MS = 250;

/** A request and its JSON answer. */
export async function json(url: string, method: string, path: string, body?: string): Promise<{ status: number; body: Record<string, unknown> }> {
  const response = await fetch(`${url}${path}`, { method, body });
  const text = await response.text();
  return { status: response.status, body: text === '' ? {} : (JSON.parse(text) as Record<string, unknown>) };
}

/**
 * Runs `work` while a client walks the session `probe` of the service at `url`, and answers the longest any of
 * its requests took that was under way while `work` ran (a request the loop held for the whole of `work` counts
 * whole), how many there were and how long `work` took.
 */
export async function worstLatencyDuring<T>(
  url: string,
  probe: string,
  work: () => Promise<T>,
): Promise<{ result: T; worstMs: number; requests: number; windowMs: number }> {
  const spans: Array<[number, number]> = [];
  let stop = false;
  let first: () => void = () => {};
  const warmed = new Promise<void>((resolve) => (first = resolve));
  const client = (async () => {
    while (!stop) {
      const started = performance.now();
      const next = await json(url, 'GET', `/walker/sessions/${probe}/getNext`);
      spans.push([started, performance.now()]);
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
  await client;
  const during = spans.filter(([started, ended]) => ended >= from && started <= to);
  const worstMs = Math.max(...during.map(([started, ended]) => ended - started));
  return { result, worstMs, requests: during.length, windowMs: to - from };
}

/** The worst latency of the client over `ms` in which nothing else of the test runs. */
export async function idleWorst(url: string, probe: string, ms: number): Promise<number> {
  return (await worstLatencyDuring(url, probe, () => new Promise((resolve) => setTimeout(resolve, ms)))).worstMs;
}

/**
 * Runs `work` while the client walks `probe`, and expects the client never to have waited more than the issue's
 * 250 ms (or `allowedMs`, for work that may hold the loop longer by design) beyond what the machine alone makes
 * it wait: other test files share its two cores, and there a getNext
 * of an idle service waited up to 365 ms (2026-11-27, load average 17). That is measured over `idleMs` before
 * the work and over as long as the work took after it (at most 15 s), since the longer the window, the worse its
 * worst. Work on the event loop holds the client for all of its time.
 */
export async function expectOthersServed<T>(url: string, probe: string, work: () => Promise<T>, idleMs = 3000, allowedMs = TARGET_MS): Promise<T> {
  const before = await idleWorst(url, probe, idleMs);
  const load = await worstLatencyDuring(url, probe, work);
  const after = await idleWorst(url, probe, Math.min(Math.max(load.windowMs, 500), 15_000));
  const report = { ...load, result: undefined, allowedMs, idleWorstMs: [before, after] };
  expect(load.worstMs, JSON.stringify(report)).toBeLessThan(allowedMs + Math.max(before, after));
  return load.result;
}
