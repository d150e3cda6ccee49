import type { SessionWalk, WalkSummary } from '../../core/session.js';
import type { LoopOverruns } from './loop-overruns.js';
import type { SessionActivity } from './walk-pace.js';
import type { LoopTimeRule } from './loop-time.js';
import type { PluginSource } from './worker-protocol.js';

/** What a hosted session (server/sessions/hosted-session.ts) is given, who may watch it, and what it shows. */

/**
 * When a session's walk leaves the event loop for a thread of its own (docs/architecture.md, "Sessions"):
 * once `slowRequests` of its recent requests each kept the loop busy for `slowRequestMs` or more
 * (server/sessions/slow-requests.ts); for a load whose work is large, before the load
 * (server/sessions/load-placement.ts); and before its next request, while any session's request lately held
 * the loop past every limit (server/sessions/loop-overruns.ts). Without a policy every walk stays on the loop.
 */
export interface IsolationPolicy extends LoopTimeRule {
  /** The user's plugins by module, for the worker to load; without them a walk cannot leave the loop. */
  readonly plugins: readonly PluginSource[];
  /** Told what happened, for the log. */
  readonly note: (level: 'info' | 'warn', message: string) => void;
  /**
   * The app's, shared by its sessions: while a request of any of them lately held the loop past every script
   * limit, every walk leaves the loop before its next request. Without it, each session judges only itself.
   */
  readonly overruns?: LoopOverruns;
  /**
   * The app's, shared by its sessions: whether others are served, which paces a walk that keeps its thread
   * busy (server/sessions/walk-pace.ts). Without it such a walk runs at its full pace.
   */
  readonly activity?: SessionActivity;
}

/**
 * Who watches a session (the web view, server/view/): told of every request, and given the walk each request
 * runs on, so that it can see the steps go by. Only while someone watches; otherwise a request pays one
 * check of an undefined field.
 */
export interface SessionWatcher {
  /** The walk a request's task gets: the watcher's view of `walk`, which it hands everything on to. */
  around(walk: SessionWalk): SessionWalk;
  /** A request ran, or failed: the walk may have moved. */
  changed(): void;
  /** A model was loaded by other means than the walk's own `load` (a draft's revision). */
  loaded(): void;
  /** The walk was rebuilt in a thread of its own: what the watcher knows of its loads no longer holds. */
  replaced(): void;
}

/** What `GET /walker/sessions` shows of a session. */
export interface SessionInfo extends WalkSummary {
  readonly id: string;
  readonly created: string;
  readonly lastUsed: string;
  /** True when its walk runs in a thread of its own. */
  readonly isolated: boolean;
}
