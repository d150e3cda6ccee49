/**
 * The entry of a walk worker thread (server/sessions/worker-walk.ts starts it): one session's walk, rebuilt
 * from its journal, or none yet when the session's load runs here from the start, then served one request
 * at a time. It runs only code the main thread runs too — the same built-in plugins and the user's plugins
 * loaded from the same modules — so the walk it rebuilds is the walk the main thread had, and a load fails
 * here as it would there.
 */
import { parentPort, workerData } from 'node:worker_threads';
import { isPromiseLike } from '../../core/awaitable.js';
import { SerialQueue } from '../serial-queue.js';
import { ExecutionSession, replayJournal, WALK_OPERATIONS, type WalkOperation } from '../../core/session.js';
import { Walker } from '../../core/walker.js';
import type { WalkOperationName } from '../../core/walk-proxy.js';
import { threadRegistries } from '../thread-plugins.js';
import { WalkPace } from './walk-pace.js';
import { LocalWalk } from './local-walk.js';
import { SlowRequests } from './slow-requests.js';
import { threadCpuMs } from './thread-cpu.js';
import { nameThisThread } from './thread-name.js';
import { thrownData } from './thrown-data.js';
import type { WalkReply, WalkRequest, WorkerReady, WorkerSetup } from './worker-protocol.js';

const port = parentPort;
if (port === null) throw new Error('walk-worker.js runs as a worker thread only (server/sessions/worker-walk.ts).');

const setup = workerData as WorkerSetup;
if (setup.threadName !== undefined) nameThisThread(setup.threadName);

/**
 * A walk comes to a thread because its scripts keep a core busy, and there it is paced while other sessions
 * are served, so that it leaves the event loop its share of the cores (server/sessions/walk-pace.ts). A walk
 * rebuilt from a journal is paced from the start. One that came for its load's cost runs at its full pace
 * until its own requests turn slow by the rule that moves walks off the event loop: its steps may be cheap.
 */
const pace = new WalkPace();
let paced = setup.journal !== undefined;

/** The rule that judges the requests of a walk that came for its load; undefined once they turned slow. */
let steps = setup.journal === undefined && setup.slowRule !== undefined ? new SlowRequests(setup.slowRule, threadCpuMs) : undefined;

/** Runs a request's synchronous work; judged as the event loop judges it while the thread has not yielded. */
function judged(op: WalkOperationName, work: () => unknown): unknown {
  const rule = steps;
  // Loads and restarts do their work once reserved, later: a load's cost is what brought the walk here.
  if (rule === undefined || (WALK_OPERATIONS[op] as WalkOperation).opens !== undefined) return work();
  const cpuStarted = rule.cpuStart();
  const started = performance.now();
  try {
    return work();
  } finally {
    if (rule.judge(performance.now() - started, cpuStarted, false)) {
      steps = undefined;
      paced = true;
    }
  }
}

/**
 * The walk rebuilt: loaded with a memory of its own (the worker's engine has a pool of its own), then replayed.
 * Without a journal, a walk with no model, for a load whose cost is not known yet.
 */
async function rebuild(): Promise<{ walk: LocalWalk; fingerprint: number }> {
  const walker = new Walker(await threadRegistries(setup.plugins));
  // Journaled, as on the event loop: the journal is what undoes a request that a limit cut short (serve).
  const walk = new LocalWalk(new ExecutionSession(walker, { ...setup.defaults, journal: true }), walker);
  if (setup.journal === undefined) return { walk, fingerprint: 0 };
  const { start } = setup.journal;
  const options = { ...start.options, seed: start.seed };
  if ('text' in start.source) await walk.load(start.source.text, options);
  else await walk.loadModel(start.source.value, options);
  return { walk, fingerprint: replayJournal(walk.session, setup.journal) };
}

/**
 * Answers one request through `post`. Loads and restarts wait for their reservation (the queue keeps the
 * requests after them waiting too); the rest are answered at once. A timed request's answer says what it
 * took of the thread's CPU, waiting for the reservation included (the thread does nothing else meanwhile).
 */
function serve(walk: LocalWalk, request: WalkRequest, post: (reply: WalkReply) => void): Promise<void> | undefined {
  const { id } = request;
  const cpuStarted = request.timed === true ? threadCpuMs() : undefined;
  const answer = (settled: unknown): void =>
    post(cpuStarted === undefined ? { id, value: settled } : { id, value: settled, cpuMs: threadCpuMs() - cpuStarted });
  const fail = (error: unknown): Promise<void> | undefined => {
    if (walk.journal?.cutShort !== true) return void post({ id, error: thrownData(error) });
    // As on the event loop (server/sessions/hosted-session.ts): a failed request changes nothing.
    return walk.undoCut(error).then(() => post({ id, error: thrownData(error) }));
  };
  let value: unknown;
  try {
    if (!Object.hasOwn(WALK_OPERATIONS, request.op)) throw new Error(`a walk has no operation ${String(request.op)}`);
    const method = walk[request.op] as (...args: unknown[]) => unknown;
    value = judged(request.op, () => method.apply(walk, request.args as unknown[]));
  } catch (error) {
    return fail(error);
  }
  if (!isPromiseLike(value)) {
    answer(value);
    return undefined;
  }
  return Promise.resolve(value).then(answer, fail);
}

try {
  const { walk, fingerprint } = await rebuild();
  const queue = new SerialQueue();
  const post = (reply: WalkReply): void => port.postMessage(reply);
  const timed = (request: WalkRequest): Promise<void> | undefined => {
    const cpuStarted = pace.begin();
    const served = serve(walk, request, post);
    if (served === undefined) return void pace.ran(cpuStarted, performance.now());
    return served.then(() => pace.ran(cpuStarted, performance.now()));
  };
  port.on('message', (request: WalkRequest) => {
    void queue.run(() => {
      const owed = pace.owed(paced && request.pace === true, performance.now());
      return owed === 0 ? timed(request) : new Promise((resolve) => setTimeout(resolve, owed)).then(() => timed(request));
    });
  });
  port.postMessage({ ready: true, fingerprint } satisfies WorkerReady);
} catch (error) {
  port.postMessage({ ready: false, error: thrownData(error) } satisfies WorkerReady);
}
