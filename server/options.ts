import type { ScriptLimits } from '../core/scripting.js';

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

/** Everything `buildApp` can be told; every field has a default. */
export interface AppOptions {
  /** Largest `load` body in bytes (`--max-model-bytes`). Default 32 MiB. */
  readonly maxModelBytes: number;
  /** Fixes the seed of every load (`--seed`); otherwise the file's seed or a fresh one. */
  readonly seed?: number;
  readonly drafts: DraftLimits;
  readonly scriptLimits?: Partial<ScriptLimits>;
  /**
   * Fastify's (pino) logger; off by default. `walker online --log-level <level>` passes `{ level, stream }`
   * (silent, fatal, error, warn, info, debug or trace). What is logged at which level: server/logging.ts.
   */
  readonly logger?: boolean | { readonly level: string; readonly stream?: NodeJS.WritableStream };
  /** Milliseconds clock (for draft expiry); default `Date.now`. Tests pass a fake one. */
  readonly now?: () => number;
}

export const DEFAULT_APP_OPTIONS: AppOptions = Object.freeze({
  maxModelBytes: 32 * 1024 * 1024,
  drafts: DEFAULT_DRAFT_LIMITS,
});
