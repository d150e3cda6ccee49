import { DEFAULT_WALK_SETTINGS, type WalkSettings } from '../core/walk-settings.js';
import type { StepReportOptions } from '../core/machine/step-report.js';

/** Limits of the draft-authoring API (docs/api-drafts.md). */
export interface DraftLimits {
  /** Seconds a draft may go untouched before it expires (410 draft_expired). Default 3600. */
  readonly ttlSeconds: number;
  /** Live drafts at most (429 draft_limit_reached). Default 1000. */
  readonly maxDrafts: number;
  /** Vertices plus edges per draft at most (429 model_limit_reached). Default 100000. */
  readonly maxElements: number;
  /** Estimated bytes all drafts together may hold (429 memory_limit_reached). Default 512 MiB. */
  readonly maxMemoryBytes: number;
}

export const DEFAULT_DRAFT_LIMITS: DraftLimits = Object.freeze({
  ttlSeconds: 3600,
  maxDrafts: 1000,
  maxElements: 100_000,
  maxMemoryBytes: 512 * 1024 * 1024,
});

/** Limits of the sessions API (docs/api-sessions.md) and when a session's walk leaves the event loop. */
export interface SessionLimits {
  /** Seconds a session may go without a request before it expires (410 session_expired). Default 1800. */
  readonly ttlSeconds: number;
  /** Live sessions at most (429 session_limit_reached). Default 64. */
  readonly maxSessions: number;
  /**
   * A request that keeps the event loop busy this many milliseconds or more by its own work is slow; a session
   * two of whose last eight requests were slow moves its walk to a worker thread of its own
   * (server/sessions/slow-requests.ts, docs/architecture.md "Sessions"). Default 20.
   */
  readonly slowRequestMs: number;
}

export const DEFAULT_SESSION_LIMITS: SessionLimits = Object.freeze({
  ttlSeconds: 1800,
  maxSessions: 64,
  slowRequestMs: 20,
});

/**
 * Limits of the web view's event streams (docs/view.md, "What it costs"): what bounds the memory and the time
 * that pages watching the service can take from it.
 */
export interface ViewLimits {
  /** Event streams open at once, in all (`--max-view-streams`); 503 `too_many_streams` beyond. Default 256. */
  readonly maxStreams: number;
  /** Event streams open at once on one session or draft (`--max-view-streams-per-session`). Default 32. */
  readonly maxStreamsPerSource: number;
  /**
   * A stream whose reader has taken nothing of what was sent to it for this many milliseconds is closed
   * (`--view-stream-timeout`); a quiet stream is kept alive by a comment every 15 s at most. Default 30 s.
   */
  readonly streamTimeoutMs: number;
}

export const DEFAULT_VIEW_LIMITS: ViewLimits = Object.freeze({
  maxStreams: 256,
  maxStreamsPerSource: 32,
  streamTimeoutMs: 30_000,
});

/**
 * Limits of the conversion thread, where large model conversions run (docs/api-drafts.md, "Converting a model
 * file"): what one conversion may take of it before it is stopped, with 422 `conversion_limit_reached`.
 */
export interface ConversionLimits {
  /** Milliseconds a conversion may run in the thread (`--conversion-timeout`). Default 60 s. */
  readonly timeLimitMs: number;
  /** The thread's JavaScript heap in MiB (`--conversion-memory`); a conversion that needs more is stopped. Default 1024. */
  readonly memoryMiB: number;
}

export const DEFAULT_CONVERSION_LIMITS: ConversionLimits = Object.freeze({
  timeLimitMs: 60_000,
  memoryMiB: 1024,
});

/**
 * How long the HTTP server waits for a slow or silent client, in milliseconds (docs/api-execution.md, "Slow
 * clients"). Each is a positive number: none of them can be switched off, so no client holds a socket forever.
 */
export interface HttpTimeouts {
  /** The request line and headers must arrive within this (Node's `headersTimeout`); 408 otherwise. Default 10 s. */
  readonly headersMs: number;
  /** The whole request, body included (Node's `requestTimeout`); 408 otherwise. At least `headersMs`. Default 60 s. */
  readonly requestMs: number;
  /** A keep-alive connection idle between two requests is closed after this (`keepAliveTimeout`). Default 72 s. */
  readonly keepAliveMs: number;
  /**
   * A connection with a request under way but no traffic either way for this long — a client that stopped
   * reading its answer — is dropped (Fastify's `connectionTimeout`). Default 60 s.
   */
  readonly idleMs: number;
}

export const DEFAULT_HTTP_TIMEOUTS: HttpTimeouts = Object.freeze({
  headersMs: 10_000,
  requestMs: 60_000,
  keepAliveMs: 72_000,
  idleMs: 60_000,
});

/** Everything `buildApp` can be told; every field has a default. */
export interface AppOptions {
  /** Largest `load` body in bytes (`--max-model-bytes`). Default 32 MiB. */
  readonly maxModelBytes: number;
  readonly drafts: DraftLimits;
  readonly sessions: SessionLimits;
  readonly view: ViewLimits;
  readonly conversions: ConversionLimits;
  /**
   * This process's name among several behind one load balancer (`--node-id`): every session and draft id
   * starts with it and a dot, so that a prefix rule routes them (docs/scaling.md). Default none.
   */
  readonly nodeId?: string;
  /**
   * What every load, step and draft validation shares (core/walk-settings.ts): the seed (`--seed`), blocked
   * elements (`--blocked`), what scripts may use (docs/behaviour.md, "Scripts": `--script-timeout`,
   * `--script-budget`, `--script-memory`, `--real-clock`) and the planning bounds (`--plan-states`,
   * `--plan-time`, docs/planning.md). `buildApp` takes its fields at the top level, as the command line sets them.
   */
  readonly walk: WalkSettings;
  /**
   * Fastify's (pino) logger; off by default. `walker online --log-level <level>` passes `{ level, stream }`
   * (silent, fatal, error, warn, info, debug or trace). What is logged at which level: server/logging.ts.
   */
  readonly logger?: boolean | { readonly level: string; readonly stream?: NodeJS.WritableStream };
  /** Milliseconds clock (for draft expiry); default `Date.now`. Tests pass a fake one. */
  readonly now?: () => number;
  readonly timeouts: HttpTimeouts;
  /**
   * Largest request line plus headers, in bytes (Node's `maxHeaderSize`; 431 beyond). Default 256 KiB: a 64 KiB
   * setData script or fail reason fits however it is percent-encoded.
   */
  readonly maxHeaderBytes: number;
  /**
   * Origins besides the service's own whose browser requests are served, with CORS headers (`--allow-origin`,
   * e.g. `http://localhost:3000`). Default none: a page of any other site is refused (server/network.ts).
   */
  readonly allowOrigins: readonly string[];
  /**
   * Host names besides the service's own addresses that requests may name in `Host` (`--allow-host`, e.g. the
   * name a load balancer in front of it is reached by, `walker.example.com` or `lb:8887`). Default none.
   */
  readonly allowHosts: readonly string[];
  /** When set, every request must carry `Authorization: Bearer <token>` (`--token`, `WALKER_TOKEN`); 401 otherwise. */
  readonly token?: string;
  /** How long a plugin's `setup` may take before startup fails naming the plugin (WALKER_PLUGIN). Default 10 s. */
  readonly pluginSetupTimeoutMs: number;
  /**
   * What `getNext` says beside the element, on every dialect (`--verbose`, `--unvisited`); fixed for the
   * server's life, as in GraphWalker. Default neither.
   */
  readonly stepReport: StepReportOptions;
}

export const DEFAULT_APP_OPTIONS: AppOptions = Object.freeze({
  maxModelBytes: 32 * 1024 * 1024,
  drafts: DEFAULT_DRAFT_LIMITS,
  sessions: DEFAULT_SESSION_LIMITS,
  view: DEFAULT_VIEW_LIMITS,
  conversions: DEFAULT_CONVERSION_LIMITS,
  timeouts: DEFAULT_HTTP_TIMEOUTS,
  maxHeaderBytes: 256 * 1024,
  allowOrigins: Object.freeze([]),
  allowHosts: Object.freeze([]),
  pluginSetupTimeoutMs: 10_000,
  stepReport: Object.freeze({}),
  walk: DEFAULT_WALK_SETTINGS,
});
