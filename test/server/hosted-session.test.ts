import { afterEach, beforeAll, describe, expect, it } from 'vitest';
import type { SessionWalk } from '../../core/session.js';
import { Walker } from '../../core/walker.js';
import { builtinPlugins } from '../../plugins/index.js';
import { HostedSession } from '../../server/sessions/hosted-session.js';
import { LocalWalk } from '../../server/sessions/local-walk.js';
import { LoopOverruns, WARY_MS } from '../../server/sessions/loop-overruns.js';
import { SessionActivity } from '../../server/sessions/walk-pace.js';
import type { WorkerWalk } from '../../server/sessions/worker-walk.js';
import { ExecutionSession } from '../../core/session.js';
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

async function clockedSession(options: Parameters<typeof builtinPlugins>[0] = {}, slowRequestMs = 20) {
  const walker = await Walker.create(builtinPlugins(options));
  let wall = 0;
  let cpu = 0;
  const notes: string[] = [];
  // The limits go to the walk's thread with the session's defaults, as the server passes them.
  const session = new HostedSession('s', walker, { scriptLimits: options.scriptLimits }, {
    slowRequestMs,
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

  it('loads in a thread first after a load that held the loop long, and walks there when it cost as much there', async () => {
    // Room for the model action below on a busy machine.
    const { session, request, notes } = await clockedSession({ scriptLimits: { timeoutMs: 20_000, budgetMs: 20_000 } });
    // 300 ms of work that is not scripts (a large parse, say), which no yield stops.
    await request((walk) => walk.load(MODEL), 300);
    expect(session.isolated).toBe(false);
    // Half a second or more of a core in the thread, where scripts run to their limits.
    const busy = JSON.parse(MODEL) as { models: Array<{ actions?: string[] }> };
    busy.models[0].actions = ['var s = 0; for (var i = 0; i < 10000000; i++) { s += i % 7; }'];
    await session.run((walk) => walk.load(JSON.stringify(busy)));
    expect(session.isolated).toBe(true);
    expect(notes).toEqual([expect.stringMatching(/^Session s walks in a thread of its own: its load took \d+ ms of a core there\.$/)]);
  }, 120_000);

  it('moves its walk at once when one request held the loop longer than a script may run: a built-in no limit interrupts', async () => {
    const { session, request, notes } = await clockedSession({ scriptLimits: { timeoutMs: 300 } });
    await request((walk) => walk.load(MODEL), 2);
    await request(step, 1);
    // One setData whose JSON.stringify of a large array ran 900 ms in one call, and then finished.
    await request((walk) => walk.setData('s = 1;'), 900, 900);
    expect(await request((walk) => walk.stepCount(), 1)).toBe(1);
    expect(session.isolated).toBe(true);
    expect(notes).toEqual(['Session s moved to a thread of its own: a request kept the event loop busy for 900 ms.']);
  }, 120_000);

  it('keeps its walk when one request passed a script’s limit only because the thread waited for a core', async () => {
    const { session, request, notes } = await clockedSession({ scriptLimits: { timeoutMs: 25 } });
    await request((walk) => walk.load(MODEL), 2);
    // Steps of microseconds to a millisecond that a busy machine kept off their core for 70 ms: less than a
    // quarter of the limit, or of the slow-request time, on the CPU (server/sessions/slow-requests.ts, CPU_SHARE).
    await request(step, 70, 0.01);
    await request(step, 70, 1);
    expect(await request((walk) => walk.stepCount(), 1)).toBe(2);
    expect(session.isolated).toBe(false);
    expect(notes).toEqual([]);
  });

  it('undoes a request that a time limit cut short by rebuilding the walk without it in a thread of its own', async () => {
    // The case: `n` counted up by a pace-dependent amount, the journal stopped and the walk stayed on
    // the loop for good. Now the request answers its error once the walk is as it was before it, off the loop.
    // The yield on the loop is five slow requests' time, here 1 s: a machine that keeps the thread from its
    // core between two clock readings past the yield (100 ms by default) has the yield win over the 20 ms
    // limit, by design, and a paired run of the suite did (server/sessions/slow-requests.ts, loopYieldMs).
    const { session, request, notes } = await clockedSession({ scriptLimits: { timeoutMs: 20 } }, 200);
    const runaway = (walk: SessionWalk) => walk.setData('n = n + 1; Math.random(); for (;;) n++;');
    const n = async () => new Map(await request((walk) => walk.variables(), 1)).get('n');
    await request((walk) => walk.load(MODEL), 2);
    await request(step, 1);
    await request((walk) => walk.setData('n = 1;'), 1);
    await expect(request(runaway, 1)).rejects.toThrow('Script exceeded the time limit of 20 ms');
    expect(session.isolated).toBe(true);
    expect(notes).toEqual([
      'Session s moved to a thread of its own: a script that a limit stopped ran on the event loop, and its walk was rebuilt as it was before that request.',
    ]);
    expect(await n()).toBe('1');
    // In the thread, a cut request is undone too, by a rebuild there.
    await expect(request(runaway, 1)).rejects.toThrow('Script exceeded the time limit of 20 ms');
    expect(await n()).toBe('1');
    // The walk goes on as a twin that never had the runaway requests.
    const twin = await clockedSession();
    await twin.request((walk) => walk.load(MODEL), 2);
    await twin.request(step, 1);
    await twin.request((walk) => walk.setData('n = 1;'), 1);
    for (let i = 0; i < 5; i++) {
      expect((await request(step, 1)).step.id).toBe((await twin.request(step, 1)).step.id);
    }
  }, 120_000);

  it('undoes a cut request in place without a policy, since the session keeps its journal for it', async () => {
    const walker = await Walker.create(builtinPlugins({ scriptLimits: { timeoutMs: 20 } }));
    const session = new HostedSession('s', walker, {}, undefined, 0);
    sessions.push(session);
    await session.run((walk) => walk.load(MODEL));
    await session.run((walk) => walk.setData('n = 1;'));
    await expect(session.run((walk) => walk.setData('n = 2; for (;;) {}'))).rejects.toThrow('Script exceeded the time limit of 20 ms');
    expect(new Map(await session.run((walk) => walk.variables())).get('n')).toBe('1');
    expect(session.isolated).toBe(false);
  });

  it('says so in the error when the walk cannot be put back: its journal no longer holds it', async () => {
    const walker = await Walker.create(builtinPlugins({ scriptLimits: { timeoutMs: 20 } }));
    const walk = new LocalWalk(new ExecutionSession(walker, { journal: true }), walker);
    await walk.load(MODEL);
    walk.setData('n = 1;');
    let cut: unknown;
    try {
      walk.setData('n = 2; for (;;) {}');
    } catch (error) {
      cut = error;
    }
    // Asked before it was undone: the journal lost the walk.
    walk.hasNext();
    expect(await walk.undoCut(cut)).toMatch(/^The walk keeps what the script did before it was stopped/);
    expect((cut as Error).message).toMatch(
      /setData: Script exceeded the time limit of 20 ms\. The walk keeps what the script did before it was stopped, as it could not be rebuilt without it: its journal does not hold the walk as it was/,
    );
    expect(new Map(walk.variables()).get('n')).toBe('2');
    walk.dispose();
  });

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

describe('the sessions of one app, once a request held the loop past every script limit', () => {
  /** Sessions of one policy, on one pair of fake clocks, as an app's sessions share the loop and its clocks. */
  async function app() {
    const walker = await Walker.create(builtinPlugins({ scriptLimits: { timeoutMs: 300 } }));
    const clock = { wall: 0, cpu: 0 };
    const notes: string[] = [];
    const note = (message: string) => notes.push(message);
    const policy = {
      slowRequestMs: 20,
      slowRequests: 2,
      plugins: [],
      note: (_level: string, message: string) => note(message),
      clock: () => clock.wall,
      cpuClock: () => clock.cpu,
      overruns: new LoopOverruns(note, () => clock.wall),
      activity: new SessionActivity(),
    };
    const open = async (id: string) => {
      const session = new HostedSession(id, walker, { scriptLimits: { timeoutMs: 300 } }, policy, 0);
      sessions.push(session);
      return session;
    };
    /** A request of `session` that costs `ms` of the loop, by both clocks. */
    const request = <T>(session: HostedSession, task: (walk: SessionWalk) => T | Promise<T>, ms = 1): Promise<T> =>
      session.run((walk) => {
        clock.wall += ms;
        clock.cpu += ms;
        return task(walk);
      });
    return { clock, notes, open, request };
  }

  it('moves every walk to a thread before its next request, older sessions and new ones, until the while has passed', async () => {
    const { clock, notes, open, request } = await app();
    const [older, culprit] = [await open('older'), await open('culprit')];
    for (const session of [older, culprit]) {
      await request(session, (walk) => walk.load(MODEL));
      await request(session, step);
    }
    // A setData whose built-in ran 900 ms in one call, past the 300 ms limit, which nothing interrupted.
    await request(culprit, (walk) => walk.setData('s = 1;'), 900);
    expect(await request(culprit, (walk) => walk.stepCount())).toBe(1);
    expect(culprit.isolated).toBe(true);
    expect(older.isolated).toBe(false);
    // The older session moves before its next request runs, which the walk in its thread answers where it stood.
    expect(await request(older, (walk) => walk.stepCount())).toBe(1);
    expect(older.isolated).toBe(true);
    // A new session's walk is made in a thread before its first load.
    const newer = await open('newer');
    expect((await request(newer, (walk) => walk.load(MODEL))).seed).toBe(5);
    expect(newer.isolated).toBe(true);
    expect(notes).toEqual([
      'Session culprit held the event loop for 900 ms, past every script limit: every walk runs in a thread of its own until 10 minutes pass without another such request.',
      'Session culprit moved to a thread of its own: a request kept the event loop busy for 900 ms.',
      'Session older moved to a thread of its own: walks keep off the event loop since a request held it past every script limit.',
      'Session newer moved to a thread of its own: walks keep off the event loop since a request held it past every script limit.',
    ]);
    // Ten minutes on, walks stay on the loop again.
    clock.wall += WARY_MS;
    const later = await open('later');
    await request(later, (walk) => walk.load(MODEL));
    expect(await request(later, step)).toMatchObject({ step: { id: 'e0' } });
    expect(later.isolated).toBe(false);
  }, 120_000);

  it('counts a load that held the loop so long too, and does not count one that waited for a core', async () => {
    const { clock, notes, open, request } = await app();
    const waited = await open('waited');
    // 900 ms by the wall clock, of which 10 on the CPU: the machine kept the thread waiting.
    await waited.run((walk) => {
      clock.wall += 900;
      clock.cpu += 10;
      return walk.load(MODEL);
    });
    const other = await open('other');
    await request(other, (walk) => walk.load(MODEL));
    expect(other.isolated).toBe(false);
    await request(waited, (walk) => walk.load(MODEL), 900);
    await request(other, step);
    expect(other.isolated).toBe(true);
    expect(notes[0]).toBe(
      'Session waited held the event loop for 900 ms, past every script limit: every walk runs in a thread of its own until 10 minutes pass without another such request.',
    );
  }, 120_000);

  it("tells a walk in a thread to keep its pace when, and only when, another session's request started since its last", async () => {
    const { open, request } = await app();
    const [moved, other] = [await open('moved'), await open('other')];
    await request(other, (walk) => walk.load(MODEL));
    await request(moved, (walk) => walk.load(MODEL));
    // Past every script limit: the walk moves before its next request.
    await request(moved, (walk) => walk.setData('s = 1;'), 900);
    await request(moved, (walk) => walk.stepCount());
    expect(moved.isolated).toBe(true);
    // A task gets the walk it runs on: in a thread, the WorkerWalk, whose flag goes with each of its requests.
    const paced = () => request(moved, (walk) => (walk as WorkerWalk).pace);
    expect(await paced()).toBe(false);
    await request(other, (walk) => walk.stepCount());
    expect(await paced()).toBe(true);
    expect(await paced()).toBe(false);
    await request(other, (walk) => walk.stepCount());
    await request(other, (walk) => walk.stepCount());
    expect(await paced()).toBe(true);
  }, 120_000);
});

/** Runs on the host's clock (scripts read it under realClock) for `ms`: past the loop's yield of 100 ms. */
const waits = (ms: number) => `(function () { var t0 = Date.now(); while (Date.now() - t0 < ${ms}) {} })();`;

describe('a request of a hosted session whose scripts run long on the event loop', () => {
  async function yieldingSession(plugins: Array<{ specifier: string; fromDirectory: string }> = []) {
    const walker = await Walker.create(builtinPlugins());
    const notes: string[] = [];
    const policy = { slowRequestMs: 20, slowRequests: 2, plugins, note: (_level: string, message: string) => notes.push(message) };
    const session = new HostedSession('s', walker, { scriptLimits: { realClock: true } }, policy, 0);
    sessions.push(session);
    return { session, notes };
  }
  const variables = async (session: HostedSession) => new Map(await session.run((walk) => walk.variables()));

  it('yields, and runs again in a thread of its own, where it runs once and answers', async () => {
    const { session, notes } = await yieldingSession();
    await session.run((walk) => walk.load(MODEL));
    await session.run((walk) => walk.setData('n = 1;'));
    await session.run(step);
    expect(session.isolated).toBe(false);
    await session.run((walk) => walk.setData(`n = n + 1; ${waits(150)}`));
    expect(session.isolated).toBe(true);
    expect(notes).toEqual(['Session s moved to a thread of its own: its scripts ran past 100 ms in one request on the event loop.']);
    expect((await variables(session)).get('n')).toBe('2');
  }, 120_000);

  it('yields in the first load, whose walk is then made in a thread with no model', async () => {
    const { session } = await yieldingSession();
    const model = JSON.parse(MODEL) as { models: Array<{ actions?: string[] }> };
    model.models[0].actions = [waits(150), 'loaded = 1;'];
    await session.run((walk) => walk.load(JSON.stringify(model)));
    expect(session.isolated).toBe(true);
    expect((await variables(session)).get('loaded')).toBe('1');
    expect((await session.look((walk) => walk.view(0))).load).toBe(1);
  }, 120_000);

  it('runs to its limits on the loop when no thread can take the walk, and yields no more', async () => {
    // A plugin no thread can load: every thread fails to start.
    const { session, notes } = await yieldingSession([{ specifier: './no-such-plugin.mjs', fromDirectory: '/nonexistent' }]);
    await session.run((walk) => walk.load(MODEL));
    await session.run((walk) => walk.setData('n = 1;'));
    await session.run((walk) => walk.setData(`n = n + 1; ${waits(150)}`));
    await session.run((walk) => walk.setData(`n = n + 1; ${waits(150)}`));
    expect(session.isolated).toBe(false);
    expect((await variables(session)).get('n')).toBe('3');
    // Each move tried, for the yield and then for the slow requests, found no thread.
    expect(notes.length).toBeGreaterThan(0);
    for (const note of notes) expect(note).toMatch(/^Session s stays on the event loop: /);
  }, 120_000);
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
