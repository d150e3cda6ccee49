/**
 * walker's HTTP service as a library: build the app (it never listens), then start it. See
 * docs/api-execution.md for the execution endpoints.
 */
export { buildApp, resolveAppOptions, type BuildAppOptions } from './app.js';
export { startServer, ListenError, DEFAULT_SHUTDOWN_TIMEOUT_MS, type StartOptions, type RunningServer } from './start.js';
export {
  DEFAULT_APP_OPTIONS,
  DEFAULT_DRAFT_LIMITS,
  DEFAULT_HTTP_TIMEOUTS,
  DEFAULT_VIEW_LIMITS,
  type AppOptions,
  type DraftLimits,
  type HttpTimeouts,
  type ViewLimits,
} from './options.js';
export { MAX_MODEL_BYTES, optionWarnings, type AppOptionsInput } from './resolve-options.js';
export { compose, type Services } from './composition.js';
export type { RouteFamily } from './route-family.js';
export { ExecutionSession, NOT_LOADED_MESSAGE, type SessionDefaults } from '../core/session.js';
