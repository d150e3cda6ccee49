/**
 * Injection tokens of an app's container (registered in `server/composition.ts`). Route families resolve what
 * they need from the `services` container they are registered with; see also `APP_OPTIONS` in options.ts
 * and `PLUGINS` / `REGISTRIES` in core/di.ts.
 */

/** The app's one {@link ExecutionSession} (core/session.ts), served by the `/walker` execution routes. */
export const EXECUTION_SESSION = Symbol('walker.executionSession');
