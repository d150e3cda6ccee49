import Fastify, { LogController, type FastifyInstance } from 'fastify';
import type { WalkerPlugin } from '../core/plugin.js';
import type { PluginSource } from './sessions/worker-protocol.js';
import { createClientErrorHandler } from './client-errors.js';
import { closingPlugin } from './closing.js';
import { compose } from './composition.js';
import { registerRouteFamilies } from './discovery.js';
import { loggingPlugin } from './logging.js';
import { networkPlugin } from './network.js';
import { openApiPlugin } from './openapi.js';
import type { AppOptions } from './options.js';
import { optionWarnings, resolveAppOptions, type AppOptionsInput } from './resolve-options.js';
import { frameworkErrorsOf } from './framework-errors.js';
import { lazyCompilers } from './lazy-compilers.js';
import type { RouteFamily } from './route-family.js';
import { servicesPlugin } from './services-plugin.js';
import { servingTimePlugin } from './serving-time.js';
import { thrownValuesPlugin } from './thrown.js';
import { upgradeConstraint } from './upgrade-constraint.js';

export { resolveAppOptions } from './resolve-options.js';

/** What {@link buildApp} takes: any of the {@link AppOptions}, and plugins beside the built-in ones. */
export interface BuildAppOptions extends AppOptionsInput {
  /** Plugins installed after the built-in ones (generators, stop conditions, QuickJS). */
  readonly plugins?: readonly WalkerPlugin[];
  /**
   * Where each of `plugins` was loaded from (as `--plugin` gives them), so that a slow session's walk can move
   * to a worker thread, which loads them again. Without a source for every plugin, walks stay on the event loop.
   */
  readonly pluginSources?: readonly PluginSource[];
}

/**
 * Builds the service: a Fastify app with every route family found in `server/routes/` registered under its prefix,
 * each in its own encapsulated scope, and `GET /openapi.json` describing them all. It never listens (see `startServer`); tests use `app.inject`.
 * Closing the app frees the execution session's machine and the drafts.
 */
export async function buildApp(options: BuildAppOptions = {}): Promise<FastifyInstance> {
  const { plugins = [], pluginSources = [], ...rest } = options;
  const resolved = resolveAppOptions(rest);
  const services = await compose(resolved, plugins, pluginSources);
  // Filled as the families register (server/discovery.ts); read only by requests, once the app is ready.
  const families: RouteFamily[] = [];
  const app = Fastify(fastifyOptions(resolved, families));
  services.tellNotesTo((level, message) => app.log[level](message));
  for (const warning of optionWarnings(rest)) app.log.warn(warning);
  await app.register(closingPlugin, { services, families });
  await app.register(servingTimePlugin, { idleMs: resolved.timeouts.idleMs });
  await app.register(networkPlugin, { allowOrigins: resolved.allowOrigins, allowHosts: resolved.allowHosts, token: resolved.token, families });
  await app.register(thrownValuesPlugin);
  await app.register(loggingPlugin);
  await app.register(servicesPlugin, { services });
  await app.register(openApiPlugin, { families });
  await registerRouteFamilies(app, families);
  return app;
}

/** The HTTP server's limits and timeouts (docs/api-execution.md, "Limits of the HTTP server") and the logger. */
function fastifyOptions(resolved: AppOptions, families: readonly RouteFamily[]) {
  const { headersMs, requestMs, keepAliveMs, idleMs } = resolved.timeouts;
  const logger = typeof resolved.logger === 'object' ? { ...resolved.logger } : (resolved.logger ?? false);
  return {
    logger,
    // Fastify's own request lines are off: loggingPlugin writes one line per request, at debug.
    logController: new LogController({ disableRequestLogging: true }),
    frameworkErrors: frameworkErrorsOf(families),
    clientErrorHandler: createClientErrorHandler(resolved),
    requestTimeout: requestMs,
    keepAliveTimeout: keepAliveMs,
    connectionTimeout: idleMs,
    http: {
      headersTimeout: headersMs,
      requestTimeout: requestMs,
      maxHeaderSize: resolved.maxHeaderBytes,
      // Node checks the two timeouts above on this beat (30 s by default), which would stretch a 10 s limit to 40.
      connectionsCheckingInterval: Math.min(1000, Math.ceil(headersMs / 4)),
    },
    // closingPlugin answers requests that arrive while the app closes, 503 in the format of their route.
    return503OnClosing: false,
    // GraphWalker's WebSocket service shares `/` with the page (server/routes/websocket).
    routerOptions: { constraints: { upgrade: upgradeConstraint } },
    schemaController: { compilersFactory: lazyCompilers() },
  };
}
