import { afterEach, beforeAll, describe, expect, it } from 'vitest';
import type { SessionWalk } from '../../core/session.js';
import { Walker } from '../../core/walker.js';
import { builtinPlugins } from '../../plugins/index.js';
import { HostedSession } from '../../server/sessions/hosted-session.js';
import { ensureBuilt } from '../cli/online-helpers.js';
import { generateModel } from '../../core/model/generate.js';
import { loop } from './models.js';

/**
 * When a session's walk moves to a thread of its own, on fake clocks: each request says what it cost by the
 * wall clock and in CPU time, and the real walk does the rest. A move starts a real worker (from dist/).
 */

beforeAll(() => ensureBuilt(), 120_000);

const sessions: HostedSession[] = [];
afterEach(() => sessions.splice(0).forEach((session) => session.release()));

const MODEL = JSON.stringify(loop('random(never)', 5));

async function clockedSession(options: Parameters<typeof builtinPlugins>[0] = {}) {
  const walker = await Walker.create(builtinPlugins(options));
  let wall = 0;
  let cpu = 0;
  const notes: string[] = [];
  const session = new HostedSession('s', walker, {}, {
    slowRequestMs: 20,
    slowRequests: 2,
    plugins: [],
    note: (_level, message) => notes.push(message),
    clock: () => wall,
    cpuClock: () => cpu,
  }, 0);
  sessions.push(session);
  /** One request: `task` on the walk, costing `wallMs` by the wall clock and `cpuMs` of the thread's CPU time. */
  const request = <T>(task: (walk: SessionWalk) => T | Promise<T>, wallMs: number, cpuMs = wallMs): Promise<T> =>
    session.run((walk) => {
      wall += wallMs;
      cpu += cpuMs;
      return task(walk);
    });
  /** Time passes outside any request of this session (other sessions' work on the same thread). */
  const elapse = (ms: number): void => {
    wall += ms;
    cpu += ms;
  };
  return { session, request, elapse, notes };
}

const step = (walk: SessionWalk) => walk.next();

describe('a hosted session', () => {
  it('moves its walk to a thread once two of its recent requests held the loop by their own work', async () => {
    const { session, request, notes } = await clockedSession();
    await request((walk) => walk.load(MODEL), 2);
    await request(step, 1);
    await request(step, 200);
    await request(step, 1);
    await request(step, 200);
    // Queued behind the move: answered by the walk in its thread, where it stands.
    expect(await request((walk) => walk.stepCount(), 1)).toBe(4);
    expect(session.isolated).toBe(true);
    expect(notes).toEqual(['Session s moved to a thread of its own: a request kept the event loop busy for 200 ms.']);
  }, 120_000);

  it('keeps its walk when its requests were slow only because the thread waited for a core', async () => {
    const { session, request, notes } = await clockedSession();
    await request((walk) => walk.load(MODEL), 2);
    for (let i = 0; i < 40; i++) await request(step, i % 2 === 0 ? 45 : 1, 1);
    expect(session.isolated).toBe(false);
    expect(notes).toEqual([]);
  });

  it('judges loads apart from steps: a slow load and a slow step make no pair, two slow loads do', async () => {
    const { session, request } = await clockedSession();
    await request((walk) => walk.load(MODEL), 300);
    await request(step, 200);
    await request(step, 1);
    expect(session.isolated).toBe(false);
    await request((walk) => walk.load(MODEL), 300);
    await request((walk) => walk.stepCount(), 1);
    expect(session.isolated).toBe(true);
  }, 120_000);

  it('keeps a walk whose script a time limit cut short until its restart, which no rebuild could repeat', async () => {
    // The case: the third of three runaway setData scripts waited for a thread that replayed the first
    // two to their limits, and the replay counted `n` to another number than the client had seen.
    const { session, request, notes } = await clockedSession({ scriptLimits: { timeoutMs: 20 } });
    const runaway = (walk: SessionWalk) => walk.setData('n = 0; for (;;) n++;');
    await request((walk) => walk.load(MODEL), 2);
    await expect(request(runaway, 200)).rejects.toThrow('Script exceeded the time limit of 20 ms');
    await expect(request(runaway, 200)).rejects.toThrow('Script exceeded the time limit of 20 ms');
    await request(step, 200);
    await request((walk) => walk.stepCount(), 1);
    expect(session.isolated).toBe(false);
    await request((walk) => walk.restart(), 1);
    await request(step, 200);
    await request((walk) => walk.stepCount(), 1);
    expect(session.isolated).toBe(true);
    expect(notes).toEqual(['Session s moved to a thread of its own: a request kept the event loop busy for 200 ms.']);
  }, 120_000);

  it('counts only a request’s own work, not its wait in the queue while other work ran', async () => {
    const { session, request, elapse } = await clockedSession();
    await request((walk) => walk.load(MODEL), 2);
    await request(step, 200);
    let release: () => void = () => {};
    const holding = session.run(() => new Promise<void>((resolve) => (release = resolve)));
    const waiting = [request(step, 1), request(step, 1)];
    elapse(500);
    release();
    await Promise.all([holding, ...waiting]);
    await request(step, 1);
    expect(session.isolated).toBe(false);
  });
});

describe('a large load of a hosted session', () => {
  it("runs in a thread of its own when it is a model file value (a draft's), and the walk stays there when it was costly", async () => {
    const walker = await Walker.create(builtinPlugins());
    const notes: string[] = [];
    const session = new HostedSession('s', walker, {}, { slowRequestMs: 20, slowRequests: 2, plugins: [], note: (_level, message) => notes.push(message) }, 0);
    sessions.push(session);
    // 40,000 elements, each with a script to parse: well over LOOP_LOAD_MS of a core.
    const value = generateModel({ vertices: 20_000, edges: 20_001, seed: 1, guards: true, actions: true });
    expect((await session.loadModel(value)).seed).toEqual(expect.any(Number));
    expect(session.isolated).toBe(true);
    expect(notes).toEqual([expect.stringMatching(/^Session s walks in a thread of its own: its load took \d+ ms of a core there\.$/)]);
    expect((await session.run((walk) => walk.next())).step).toMatchObject({ id: 'e0' });
    expect((await session.look((walk) => walk.view(1))).load).toBe(1);
  }, 120_000);
});
