import type { FastifyError, FastifyPluginAsync, FastifyReply, FastifyRequest } from 'fastify';
import { errorBody, type ApiError } from './api-error.js';

/** A request answered before any route runs: an error of the one table (server/api-error.ts). */
export type Refusal = ApiError;

/**
 * A family of routes, discovered at startup by @fastify/autoload in `server/routes/<family>/index.(js|ts)`,
 * whose default export is the plugin {@link routeFamily} makes of it. Each is registered as its own
 * encapsulated Fastify plugin under `prefix`, so its error
 * handler, content-type parsers and hooks apply to its routes only (the execution routes answer
 * `{"result":"nok"}` with HTTP 200, the draft routes real status codes with `{code, message}`). What it
 * serves it reads from the app's `services` decorator (server/services-plugin.ts).
 */
export interface RouteFamily {
  /** Unique name, e.g. `execution`, `drafts`. */
  readonly name: string;
  /** URL prefix, e.g. `/walker` or `/walker/drafts`. */
  readonly prefix: string;
  /** The OpenAPI tag its routes carry, and what the document says of them. */
  readonly tag?: { readonly name: string; readonly description: string };
  readonly plugin: FastifyPluginAsync;
  /**
   * Words the errors Fastify raises before any route or hook runs (a URL it cannot decode, a path parameter
   * longer than its router takes) for URLs under `prefix`, when the family has something better to say than
   * server/framework-errors.ts (which it does with undefined); the longest matching prefix wins. Answered in
   * the family's format, as every refusal ({@link refusalBody}).
   */
  readonly frameworkRefusal?: (error: FastifyError, request: FastifyRequest) => Refusal | undefined;
  /**
   * The body of a refusal the app answers before any route of the family runs (403 for a foreign Host or
   * Origin, 401 without the token: server/network.ts; 503 once the service is closing: server/closing.ts; a
   * URL the router refuses: server/framework-errors.ts),
   * from a stable `code` and a `message`. Default `{code, message}`, the draft format.
   */
  readonly refusalBody?: (code: string, message: string) => object;
}

/** What every family plugin is given: the app's list of the families, which it enters itself in. */
export interface RouteFamilyOptions {
  readonly families: RouteFamily[];
}

/** The Fastify plugin of a family, as @fastify/autoload registers it: under `autoPrefix`, with the app's list. */
export type RouteFamilyPlugin = FastifyPluginAsync<RouteFamilyOptions> & { readonly autoPrefix: string };

/**
 * The plugin a family folder's index module exports as default. Registered, it enters the family in the
 * app's list (which the refusals before routing and the OpenAPI document read, once the app is ready) and
 * runs the family's own plugin in its encapsulated scope under the prefix.
 */
export function routeFamily(family: RouteFamily): RouteFamilyPlugin {
  const plugin = async (scope: Parameters<FastifyPluginAsync>[0], { families }: RouteFamilyOptions): Promise<void> => {
    if (families.some((other) => other.name === family.name)) throw new Error(`Two route families are named '${family.name}'.`);
    families.push(family);
    await family.plugin(scope, {});
  };
  return Object.assign(plugin, { autoPrefix: family.prefix });
}

/**
 * The family a URL belongs to: the one with the longest prefix that is the whole path or a leading part of
 * it, so that `/walker/drafts/x` is the drafts family's and `/walker/hasNext` the execution family's.
 */
export function familyOfUrl(families: readonly RouteFamily[], url: string): RouteFamily | undefined {
  let found: RouteFamily | undefined;
  for (const family of families) {
    const { prefix } = family;
    const under = url === prefix || url.startsWith(`${prefix}/`) || url.startsWith(`${prefix}?`);
    if (under && (found === undefined || prefix.length > found.prefix.length)) found = family;
  }
  return found;
}

/**
 * Answers a request before any route runs (a refused Host or token, a service that is closing, a URL the
 * router refuses), in the format
 * of the family its URL belongs to: {@link RouteFamily.refusalBody}, else `{code, message}`.
 */
export function sendRefusal(reply: FastifyReply, families: readonly RouteFamily[], url: string, refusal: Refusal): void {
  const { status, code, message } = refusal;
  const body = familyOfUrl(families, url)?.refusalBody?.(code, message) ?? errorBody(refusal);
  void reply.code(status).type('application/json; charset=utf-8').send(JSON.stringify(body));
}
