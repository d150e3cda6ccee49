/**
 * The entry of a walk worker thread (server/sessions/worker-walk.ts starts it): one session's walk, rebuilt
 * from its journal, then served one request at a time. It runs only code the main thread runs too — the same
 * built-in plugins and the user's plugins loaded from the same modules — so the walk it rebuilds is the walk
 * the main thread had.
 */
import { execFile } from 'node:child_process';
import { readlinkSync } from 'node:fs';
import { setPriority } from 'node:os';
import { parentPort, workerData } from 'node:worker_threads';
import { replayJournal } from '../../core/journal.js';
import { loadPlugin } from '../../core/plugin-loader.js';
import { createRegistries, installPlugins } from '../../core/plugin.js';
import { isPromiseLike, SerialQueue } from '../../core/serial-queue.js';
import { ExecutionSession } from '../../core/session.js';
import { Walker } from '../../core/walker.js';
import { builtinPlugins } from '../../plugins/index.js';
import { LocalWalk } from './local-walk.js';
import { thrownData } from './thrown-data.js';
import type { WalkReply, WalkRequest, WorkerReady, WorkerSetup } from './worker-protocol.js';

/** Linux niceness of a walk's thread, the lowest priority there is, for systems without `chrt`. */
const WALK_THREAD_NICENESS = 19;

const port = parentPort;
if (port === null) throw new Error('walk-worker.js runs as a worker thread only (server/sessions/worker-walk.ts).');

const setup = workerData as WorkerSetup;

/**
 * A walk comes to a thread because its scripts keep a core busy; it yields the cores to the event loop, which
 * serves every other session. On Linux a thread has a scheduling class of its own, set through its thread id
 * (read from /proc/thread-self): SCHED_IDLE (`chrt --idle`, util-linux) runs it only on a core nothing else
 * wants, which niceness alone does not do — the scheduler gives a niced thread a core of its own as soon as
 * there are two. Where `chrt` is missing, the thread is niced; elsewhere it keeps the process's priority.
 */
function yieldToTheEventLoop(): void {
  let threadId: number;
  try {
    threadId = Number(readlinkSync('/proc/thread-self').split('/').pop());
    if (!Number.isSafeInteger(threadId) || threadId <= 0) return;
    setPriority(threadId, WALK_THREAD_NICENESS);
  } catch {
    // No /proc, or a system that sets priorities per process only: the default priority it is.
    return;
  }
  execFile('chrt', ['--idle', '-p', '0', String(threadId)], () => {
    // Without chrt the niceness stays: a weaker yield, not a failure.
  });
}

yieldToTheEventLoop();

/** The walk rebuilt: loaded with a memory of its own (the worker's engine has a pool of its own), then replayed. */
async function rebuild(): Promise<{ walk: LocalWalk; fingerprint: number }> {
  const registries = createRegistries();
  const users = [];
  for (const source of setup.plugins) users.push(await loadPlugin(source.specifier, source.fromDirectory));
  await installPlugins(registries, [...builtinPlugins({ scriptLimits: setup.defaults.scriptLimits }), ...users]);
  const walker = new Walker(registries);
  const walk = new LocalWalk(new ExecutionSession(walker, setup.defaults), walker);
  const { start } = setup.journal;
  const options = { ...start.options, seed: start.seed };
  if ('text' in start.source) await walk.load(start.source.text, options);
  else await walk.loadModel(start.source.value, options);
  return { walk, fingerprint: replayJournal(walk.session, setup.journal) };
}

/**
 * Answers one request through `post`. Loads and restarts wait for their reservation (the queue keeps the
 * requests after them waiting too); the rest are answered at once.
 */
function serve(walk: LocalWalk, request: WalkRequest, post: (reply: WalkReply) => void): Promise<void> | undefined {
  const { id } = request;
  let value: unknown;
  try {
    const method = walk[request.op] as (...args: unknown[]) => unknown;
    value = method.apply(walk, request.args as unknown[]);
  } catch (error) {
    post({ id, error: thrownData(error) });
    return undefined;
  }
  if (!isPromiseLike(value)) {
    post({ id, value });
    return undefined;
  }
  return Promise.resolve(value).then(
    (settled) => post({ id, value: settled }),
    (error: unknown) => post({ id, error: thrownData(error) }),
  );
}

try {
  const { walk, fingerprint } = await rebuild();
  const queue = new SerialQueue();
  const post = (reply: WalkReply): void => port.postMessage(reply);
  port.on('message', (request: WalkRequest) => void queue.run(() => serve(walk, request, post)));
  port.postMessage({ ready: true, fingerprint } satisfies WorkerReady);
} catch (error) {
  port.postMessage({ ready: false, error: thrownData(error) } satisfies WorkerReady);
}
