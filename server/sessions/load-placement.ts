import type { JournalStart } from '../../core/journal.js';
import type { SessionLoadOptions, SessionLoadResult } from '../../core/session.js';
import { WorkerWalk } from './worker-walk.js';
import type { WorkerSetup } from './worker-protocol.js';

/**
 * Where a session's load runs (docs/architecture.md, "Sessions"). A load parses, checks and plans a whole
 * model synchronously: on the event loop, a large one holds every other session for as long as it takes. So a
 * load that is large, or that follows a load of the same session that held the loop long, runs first in a
 * thread of its own; the walk comes back to the loop when the thread loaded it cheaply, and stays in the
 * thread otherwise. Small loads, nearly all of them, run on the loop as they always did, without a thread.
 */

/** The model as a load gets it: text in any format, or a model file value (a draft's). */
export type LoadSource = JournalStart['source'];

/**
 * Characters of model text from which a load is large. Loads are linear in their text, so a smaller one holds
 * the loop a few tens of milliseconds on the project's machine (docs/benchmarks.md, "Measurements behind the
 * code"); every model of GraphWalker's examples is smaller (SuperLarge.json: 441 KiB).
 */
export const LARGE_LOAD_CHARS = 1024 * 1024;

/** Vertices and edges of a model file value from which its load is large: about {@link LARGE_LOAD_CHARS} of JSON. */
export const LARGE_LOAD_ELEMENTS = 15_000;

/**
 * Milliseconds of a core under which a load is opened again on the event loop after its thread loaded it:
 * the loop is then held about that long once (less: the thread's code is not yet compiled hot), and keeps a
 * walk whose steps are cheap out of a thread, where each request would pay two messages. A load that cost
 * more keeps its thread; so does a load on the loop that held it this long, for the session's next load.
 */
export const LOOP_LOAD_MS = 200;

/** True when a load of `source` runs in a thread first. */
export function isLargeLoad(source: LoadSource): boolean {
  if ('text' in source) return source.text.length >= LARGE_LOAD_CHARS;
  return elementCount(source.value) >= LARGE_LOAD_ELEMENTS;
}

/** What a load in a thread came to, when it did not fail. */
export type ThreadLoad =
  /** No thread could start; the reason, for the log. */
  | { readonly kind: 'unavailable'; readonly why: string }
  /** Loaded in under {@link LOOP_LOAD_MS}; the thread is stopped, and the load is to be run on the loop. */
  | { readonly kind: 'cheap' }
  /** Loaded at a cost of `cpuMs`; the walk stays in its thread. */
  | { readonly kind: 'kept'; readonly walk: WorkerWalk; readonly result: SessionLoadResult; readonly cpuMs: number };

/**
 * Starts a thread with no model and loads `source` there. A load that fails rejects with what the load threw,
 * as the event loop would have thrown it (or with the thread's own failure, should it die meanwhile), and
 * its thread is stopped; aborting `signal` stops it too.
 */
export async function loadInThread(
  setup: Omit<WorkerSetup, 'journal'>,
  source: LoadSource,
  options: SessionLoadOptions | undefined,
  signal: AbortSignal,
): Promise<ThreadLoad> {
  let walk: WorkerWalk;
  try {
    walk = await WorkerWalk.start(setup, signal);
  } catch (error) {
    if (signal.aborted) throw error;
    return { kind: 'unavailable', why: (error as Error).message };
  }
  const stop = (): void => void walk.close();
  signal.addEventListener('abort', stop, { once: true });
  // Aborted while the start settled: the load is refused at once.
  if (signal.aborted) stop();
  try {
    const { result, cpuMs } = await walk.timedLoad(source, options);
    if (cpuMs < LOOP_LOAD_MS) {
      stop();
      return { kind: 'cheap' };
    }
    return { kind: 'kept', walk, result, cpuMs };
  } catch (error) {
    stop();
    throw error;
  } finally {
    signal.removeEventListener('abort', stop);
  }
}

/** Vertices and edges over the models of a model file value, as far as it has them. */
function elementCount(value: unknown): number {
  const models = (value as { models?: unknown } | null)?.models;
  if (!Array.isArray(models)) return 0;
  let count = 0;
  for (const model of models) {
    const { vertices, edges } = (model ?? {}) as { vertices?: unknown; edges?: unknown };
    count += (Array.isArray(vertices) ? vertices.length : 0) + (Array.isArray(edges) ? edges.length : 0);
  }
  return count;
}
