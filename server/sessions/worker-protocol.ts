import type { JournalRecord } from '../../core/journal.js';
import type { SessionDefaults } from '../../core/session.js';

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
  /** The walk to rebuild before the first request. */
  readonly journal: JournalRecord;
}

/** The operations a walk worker answers: the methods of SessionWalk. */
export type WalkOperation =
  | 'load'
  | 'hasNext'
  | 'next'
  | 'variables'
  | 'setData'
  | 'restart'
  | 'fail'
  | 'stepCount'
  | 'statistics'
  | 'describe'
  | 'view';

export interface WalkRequest {
  readonly id: number;
  readonly op: WalkOperation;
  readonly args: readonly unknown[];
}

/** A failure as it crosses the thread: enough to rebuild a WalkerError, or to say what else went wrong. */
export interface ThrownData {
  readonly name: string;
  readonly message: string;
  readonly code?: string;
}

export type WalkReply =
  | { readonly id: number; readonly value: unknown }
  | { readonly id: number; readonly error: ThrownData };

/** The worker's first message: the walk rebuilt (and the fingerprint of its replay), or why it could not be. */
export type WorkerReady =
  | { readonly ready: true; readonly fingerprint: number }
  | { readonly ready: false; readonly error: ThrownData };
