import Fastify, {
  LogController,
  type FastifyError,
  type FastifyInstance,
  type FastifyReply,
  type FastifyRequest,
} from 'fastify';
import type { WalkerPlugin } from '../core/plugin.js';
import { isSeed } from '../core/random.js';
import { compose } from './composition.js';
import { discoverRouteFamilies } from './discovery.js';
import { loggingPlugin } from './logging.js';
import { openApiPlugin } from './openapi.js';
import { DEFAULT_APP_OPTIONS, DEFAULT_DRAFT_LIMITS, type AppOptions } from './options.js';
import type { RouteFamily } from './route-family.js';
import { servicesPlugin } from './services-plugin.js';

/** What {@link buildApp} takes: any of the {@link AppOptions}, and plugins beside the built-in ones. */
export interface BuildAppOptions extends Partial<Omit<AppOptions, 'drafts'>> {
  readonly drafts?: Partial<AppOptions['drafts']>;
  /** Plugins installed after the built-in ones (generators, stop conditions, QuickJS). */
  readonly plugins?: readonly WalkerPlugin[];
}

/**
 * Builds the service: a Fastify app with every route family of `server/routes/` registered under its prefix,
 * each in its own encapsulated scope, and `GET /openapi.json` describing them all. It never listens (see `startServer`); tests use `app.inject`.
 * Closing the app frees the execution session's machine and the drafts.
 */
export async function buildApp(options: BuildAppOptions = {}): Promise<FastifyInstance> {
  const { plugins = [], ...rest } = options;
  const resolved = resolveAppOptions(rest);
  const services = await compose(resolved, plugins);
  const families = await discoverRouteFamilies();
  const logger = typeof resolved.logger === 'object' ? { ...resolved.logger } : (resolved.logger ?? false);
  // Fastify's own request lines are off: loggingPlugin writes one line per request, at debug.
  const logController = new LogController({ disableRequestLogging: true });
  const app = Fastify({ logger, logController, frameworkErrors: frameworkErrorsOf(families) });
  await app.register(loggingPlugin);
  await app.register(servicesPlugin, { services });
  await app.register(openApiPlugin);
  for (const family of families) {
    await app.register(family.plugin, { prefix: family.prefix });
  }
  return app;
}

/** The options with defaults filled in, checked so that a mistake fails at startup rather than on a request. */
export function resolveAppOptions(options: Omit<BuildAppOptions, 'plugins'>): AppOptions {
  const resolved: AppOptions = {
    ...DEFAULT_APP_OPTIONS,
    ...options,
    maxModelBytes: options.maxModelBytes ?? DEFAULT_APP_OPTIONS.maxModelBytes,
    drafts: { ...DEFAULT_DRAFT_LIMITS, ...definedOnly(options.drafts ?? {}) },
  };
  const positive: Array<[string, number]> = [
    ['maxModelBytes', resolved.maxModelBytes],
    ['drafts.ttlSeconds', resolved.drafts.ttlSeconds],
    ['drafts.maxDrafts', resolved.drafts.maxDrafts],
    ['drafts.maxElements', resolved.drafts.maxElements],
  ];
  for (const [name, value] of positive) {
    if (!Number.isSafeInteger(value) || value <= 0) throw new RangeError(`${name} must be a positive whole number, got ${value}`);
  }
  if (resolved.seed !== undefined && !isSeed(resolved.seed)) {
    throw new RangeError(`seed must be a non-negative whole number, got ${resolved.seed}`);
  }
  return resolved;
}

/** The members that are not undefined, so that `{ maxDrafts: undefined }` keeps the default. */
function definedOnly<T extends object>(value: T): Partial<T> {
  return Object.fromEntries(Object.entries(value).filter(([, v]) => v !== undefined)) as Partial<T>;
}

/**
 * Fastify answers a URL it cannot decode before any route runs, so no family's error handler sees it: hand
 * it to the family whose prefix is the longest that matches, if that family has a handler.
 */
function frameworkErrorsOf(families: readonly RouteFamily[]) {
  const byLength = [...families].sort((a, b) => b.prefix.length - a.prefix.length);
  return function frameworkErrors(error: FastifyError, request: FastifyRequest, reply: FastifyReply): void {
    const url = request.url;
    const family = byLength.find((f) => url === f.prefix || url.startsWith(`${f.prefix}/`) || url.startsWith(`${f.prefix}?`));
    if (family?.frameworkErrorHandler !== undefined) return family.frameworkErrorHandler(error, request, reply);
    reply.code(error.statusCode ?? 400).send(error);
  };
}
