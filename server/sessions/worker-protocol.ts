import type { JournalRecord } from '../../core/journal.js';
import type { SessionDefaults } from '../../core/session.js';
import type { WalkOperationName } from '../../core/walk-proxy.js';
import type { SlowRule } from './slow-requests.js';

/** Where a plugin module was loaded from, so that a worker thread can load it again (`--plugin`). */
export interface PluginSource {
  readonly specifier: string;
  readonly fromDirectory: string;
}

/** What a walk worker is started with (its `workerData`): plain data only. */
export interface WorkerSetup {
  /** The session's defaults; the worker keeps no journal. */
  readonly defaults: Omit<SessionDefaults, 'journal'>;
  /** The user's plugins, loaded after the built-in ones, in this order. */
  readonly plugins: readonly PluginSource[];
  /**
   * The walk to rebuild before the first request; without one the worker starts with no model, for a load
   * that runs in the thread from the start (server/sessions/load-placement.ts).
   */
  readonly journal?: JournalRecord;
  /**
   * When a walk that came for its load (no journal) has slow requests, as the event loop judges them: its
   * thread is paced from then on (walk-pace.ts). A walk rebuilt from a journal came because it was slow, and is paced at once.
   */
  readonly slowRule?: SlowRule;
  /** What the thread is called where the system shows threads (server/sessions/thread-name.ts). */
  readonly threadName?: string;
}

export interface WalkRequest {
  readonly id: number;
  /** A row of `WALK_OPERATIONS` (core/session.ts). */
  readonly op: WalkOperationName;
  readonly args: readonly unknown[];
  /** Answer the milliseconds of the thread's CPU the operation took, too. */
  readonly timed?: boolean;
  /** Other sessions are served: a walk whose scripts keep its thread busy keeps its pace (server/sessions/walk-pace.ts). */
  readonly pace?: boolean;
}

/** A failure as it crosses the thread: enough to rebuild a WalkerError, or to say what else went wrong. */
export interface ThrownData {
  readonly name: string;
  readonly message: string;
  readonly code?: string;
}

export type WalkReply =
  | { readonly id: number; readonly value: unknown; readonly cpuMs?: number }
  | { readonly id: number; readonly error: ThrownData };

/** The worker's first message: the walk rebuilt (and the fingerprint of its replay), or why it could not be. */
export type WorkerReady =
  | { readonly ready: true; readonly fingerprint: number }
  | { readonly ready: false; readonly error: ThrownData };
