/**
 * The one place that loads reflect-metadata (before tsyringe, as tsyringe requires) and names the injection
 * tokens of the composition root (composition.ts). `core` stays free of both: a library user of the engine
 * gets no global `Reflect` patch.
 */
import 'reflect-metadata';

export { container, instanceCachingFactory, type DependencyContainer } from 'tsyringe';

/** The app's resolved {@link AppOptions} (options.ts). */
export const APP_OPTIONS = Symbol('walker.appOptions');
/** The plugins of this app, registered one by one: the built-in ones first, then the user's. */
export const PLUGINS = Symbol('walker.plugins');
/** The {@link Registries} the plugins filled. */
export const REGISTRIES = Symbol('walker.registries');
/** The {@link Walker} that opens walks against the registries. */
export const WALKER = Symbol('walker.walker');
/** The app's default session (a HostedSession), served by the `/walker` and `/graphwalker` execution routes. */
export const EXECUTION_SESSION = Symbol('walker.executionSession');
/** The sessions of `/walker/sessions` (a SessionStore). */
export const SESSION_STORE = Symbol('walker.sessionStore');
/** The app's {@link DraftStore}, served by the `/walker/drafts` routes. */
export const DRAFT_STORE = Symbol('walker.draftStore');
/** The app's {@link Conversions} of model files (server/conversion/conversions.ts), made on first use. */
export const CONVERSIONS = Symbol('walker.conversions');
