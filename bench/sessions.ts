import { setFlagsFromString } from 'node:v8';
import { runInNewContext } from 'node:vm';
import { performance } from 'node:perf_hooks';
import type { ModelFileJson } from '../core/model/types.js';
import { buildApp } from '../server/app.js';
import { Host, type Client } from './http-host.js';
import type { BenchRow, BenchSection } from './report.js';
import { sampleModel } from './samples.js';

const SECTION = 'sessions';
/** Sessions made for the memory measurement, so that one session's share stands out of the noise. */
const IDLE_SESSIONS: Record<string, number> = { 'Login.json': 60, 'SuperLarge.json': 20 };
const MEMORY_TARGETS_MB: Record<string, number> = { 'Login.json': 5, 'SuperLarge.json': 20 };
const CONCURRENCY = [1, 8, 32];
const RUN_MS = 3_000;
const WARM_UP_MS = 500;
/** Each guard of the slow session busy-waits this long (the fairness case). */
const SLOW_GUARD_MS = 200;
const FAST_SESSIONS = 7;

/**
 * Sessions: what an idle one costs, what many walking at once reach together against one alone, and how the
 * others fare beside one whose guards each take 200 ms (docs/architecture.md, "Sessions").
 */
export const benchSessions: BenchSection = async () => [...(await idleMemory()), ...(await aggregate()), ...(await fairness())];

/** The model file with every generator replaced by one that never ends. */
function neverEnding(file: ModelFileJson): string {
  return JSON.stringify({ ...file, models: file.models.map((m) => ({ ...m, generator: 'random(never)' })) });
}

/** RSS after collecting garbage twice, in bytes. */
async function settledRss(gc: () => void): Promise<number> {
  for (let i = 0; i < 3; i++) {
    gc();
    await new Promise((resolve) => setTimeout(resolve, 50));
  }
  return process.memoryUsage().rss;
}

/**
 * Memory of an idle session: RSS grown by making N sessions of a model (each loaded and walked 50 steps through
 * the routes), divided by N. The app and one session exist before the first reading, so shared costs (code,
 * compiled QuickJS) are not counted.
 */
async function idleMemory(): Promise<BenchRow[]> {
  setFlagsFromString('--expose-gc');
  const gc = runInNewContext('gc') as () => void;
  const rows: BenchRow[] = [];
  for (const [name, count] of Object.entries(IDLE_SESSIONS)) {
    const app = await buildApp();
    const text = neverEnding(JSON.parse(sampleModel(name)) as ModelFileJson);
    const make = async () => {
      const created = await app.inject({ method: 'POST', url: '/walker/sessions', payload: text });
      const id = (created.json() as { id: string }).id;
      for (let i = 0; i < 50; i++) await app.inject({ method: 'GET', url: `/walker/sessions/${id}/getNext` });
    };
    await make();
    const before = await settledRss(gc);
    for (let i = 0; i < count; i++) await make();
    const perSession = (await settledRss(gc)) - before;
    await app.close();
    const mb = Math.round((perSession / count / 2 ** 20) * 100) / 100;
    const target = MEMORY_TARGETS_MB[name];
    rows.push({ section: SECTION, subject: `idle session, ${name}`, metric: 'MB RSS per session', value: mb, target: `<= ${target}`, met: mb <= target });
  }
  return rows;
}

/** Makes a session of the model on the host and answers its path prefix. */
async function sessionOn(client: Client, text: string): Promise<string> {
  const answer = await client.send('POST', '/walker/sessions', text);
  const id = (JSON.parse(answer) as { id?: string }).id;
  if (id === undefined) throw new Error(`no session: ${answer.slice(0, 200)}`);
  return `/walker/sessions/${id}`;
}

/**
 * Steps per second of N sessions walking Login at once, each with a client of its own on its own keep-alive
 * connection, summed; against one session alone on the same server. The server runs in a worker thread, as
 * in the service section, so server and clients each have a core.
 */
async function aggregate(): Promise<BenchRow[]> {
  const text = neverEnding(JSON.parse(sampleModel('Login.json')) as ModelFileJson);
  const host = await Host.start('walker');
  const rows: BenchRow[] = [];
  try {
    let single = 0;
    for (const n of CONCURRENCY) {
      const clients = Array.from({ length: n }, () => host.newClient());
      const prefixes = await Promise.all(clients.map((c) => sessionOn(c, text)));
      await Promise.all(clients.map((c, i) => c.loop(WARM_UP_MS, prefixes[i])));
      const rates = await Promise.all(clients.map((c, i) => c.loop(RUN_MS, prefixes[i])));
      for (const c of clients) c.close();
      const total = rates.reduce((a, b) => a + b, 0);
      if (n === 1) single = total;
      const subject = `${n} session${n === 1 ? '' : 's'} walking Login at once`;
      const row: BenchRow =
        n === 1
          ? { section: SECTION, subject, metric: 'steps/s in all', value: total }
          : {
              section: SECTION,
              subject: `${subject} (${Math.round((100 * total) / single)} % of one)`,
              metric: 'steps/s in all',
              value: total,
              target: `>= ${Math.round(0.9 * single).toLocaleString('en-US')} (90 % of one)`,
              met: total >= 0.9 * single,
            };
      rows.push(row);
    }
  } finally {
    await host.close();
  }
  return rows;
}

/** A never-ending two-vertex walk whose every edge asks `guard`. */
function pingPong(id: string, guard: string): string {
  return JSON.stringify({
    models: [
      {
        id,
        generator: 'random(never)',
        startElementId: 'e0',
        vertices: [
          { id: 'a', name: 'v_A' },
          { id: 'b', name: 'v_B' },
        ],
        edges: [
          { id: 'e0', targetVertexId: 'a' },
          { id: 'e1', sourceVertexId: 'a', targetVertexId: 'b', guard },
          { id: 'e2', sourceVertexId: 'b', targetVertexId: 'a', guard },
        ],
      },
    ],
  });
}

/** Each client's getNext latencies for `ms`, one request at a time. */
async function timedSteps(client: Client, prefix: string, ms: number): Promise<number[]> {
  const latencies: number[] = [];
  const start = performance.now();
  while (performance.now() - start < ms) {
    const sent = performance.now();
    await client.send('GET', `${prefix}/getNext`);
    latencies.push(performance.now() - sent);
  }
  return latencies;
}

function percentile(values: readonly number[], p: number): number {
  const sorted = [...values].sort((a, b) => a - b);
  return sorted[Math.min(sorted.length - 1, Math.ceil((p / 100) * sorted.length) - 1)];
}

/**
 * The fairness case: seven sessions walking a cheap guard, first alone, then beside an eighth whose guards
 * busy-wait 200 ms by the real clock, once that one has moved to its thread; their pace beside it against
 * alone, and their p99 step latency.
 */
async function fairness(): Promise<BenchRow[]> {
  const host = await Host.start('walker-real-clock');
  try {
    const run = async (withSlow: boolean) => {
      const clients = Array.from({ length: FAST_SESSIONS }, () => host.newClient());
      const prefixes = await Promise.all(clients.map((c, i) => sessionOn(c, pingPong(`fast${i}`, 'true'))));
      const slowClient = host.newClient();
      let done = false;
      let slow: Promise<void> = Promise.resolve();
      if (withSlow) {
        const prefix = await sessionOn(slowClient, pingPong('slow', `(function () { var t = Date.now(); while (Date.now() - t < ${SLOW_GUARD_MS}) {} return true; })()`));
        slow = (async () => {
          while (!done) await slowClient.send('GET', `${prefix}/getNext`);
        })();
        // The steady state: measured once the slow walk has moved to its thread (its first two slow requests
        // hold the event loop), as the test suite's fairness case measures it too.
        const watcher = host.newClient();
        while (!(await watcher.send('GET', prefix)).includes('"isolated":true')) await new Promise((r) => setTimeout(r, 20));
        watcher.close();
      }
      const latencies = await Promise.all(clients.map((c, i) => timedSteps(c, prefixes[i], RUN_MS)));
      done = true;
      await slow;
      for (const c of [...clients, slowClient]) c.close();
      const steps = latencies.reduce((sum, l) => sum + l.length, 0);
      return { rate: (1000 * steps) / RUN_MS / FAST_SESSIONS, p99: percentile(latencies.flat(), 99) };
    };
    const alone = await run(false);
    const beside = await run(true);
    const share = Math.round((100 * beside.rate) / alone.rate);
    return [
      { section: SECTION, subject: '7 sessions alone', metric: 'steps/s per session', value: Math.round(alone.rate) },
      {
        section: SECTION,
        subject: `7 sessions beside one with 200 ms guards (${share} % of alone)`,
        metric: 'steps/s per session',
        value: Math.round(beside.rate),
        target: `>= ${Math.round(alone.rate / 2)} (50 % of alone)`,
        met: beside.rate >= alone.rate / 2,
      },
      {
        section: SECTION,
        subject: '7 sessions beside one with 200 ms guards',
        metric: 'p99 step latency ms',
        value: Math.round(beside.p99 * 10) / 10,
        target: '< 50',
        met: beside.p99 < 50,
      },
    ];
  } finally {
    await host.close();
  }
}
