import { timingSafeEqual } from 'node:crypto';
import type { AddressInfo } from 'node:net';
import { hostname, networkInterfaces } from 'node:os';
import cors from '@fastify/cors';
import type { FastifyInstance, FastifyRequest } from 'fastify';
import fastifyPlugin from 'fastify-plugin';
import { bearerOf, hasLoginCookie, loginValue, tokenDigest } from './login-cookie.js';
import { hostAndPort, isLoopbackAddress, isWildcardAddress, loopbackHosts, normalHost, parseOrigin } from './origins.js';
import { apiError, type ApiError } from './api-error.js';
import { sendRefusal, type RouteFamily } from './route-family.js';

/** What {@link networkPlugin} enforces. */
export interface NetworkPluginOptions {
  /** Normalised origins (server/origins.ts) whose browser requests are served, with CORS headers. */
  readonly allowOrigins: readonly string[];
  /** Normalised Host values (`name:port`) accepted besides the bound addresses' own (`--allow-host`). */
  readonly allowHosts?: readonly string[];
  /**
   * When set, every request must carry `Authorization: Bearer <token>`, or the login cookie the page gets for it
   * (server/login-cookie.ts); the page itself and the login route answer without, to ask for the token.
   */
  readonly token?: string;
  /** The route families, whose {@link RouteFamily.refusalBody} words a refusal under their prefix. */
  readonly families: readonly RouteFamily[];
}

/** Why a request is refused by these checks. */
type Refusal = ApiError<'host_not_allowed' | 'origin_not_allowed' | 'unauthorized'>;

/**
 * Keeps web pages out (docs/api-execution.md, "Who may call the service"). The service runs the scripts of
 * whatever model it is sent, so a page of another site must not reach it: not through DNS rebinding (its
 * requests name the attacker's host in `Host`), not by a cross-site request (they carry a foreign `Origin`, or
 * `Sec-Fetch-Site: cross-site`). Clients that are not browsers send neither and are served as before. With a
 * token, every request must also carry it. One onRequest hook, on the root, ahead of every route family;
 * @fastify/cors answers preflights and adds CORS headers, only for the allowed origins.
 */
export const networkPlugin = fastifyPlugin(
  async (app: FastifyInstance, options: NetworkPluginOptions) => {
    const check = requestCheck(app, options);
    app.addHook('onRequest', (request, reply, done) => {
      const refusal = check(request);
      if (refusal === undefined) return done();
      if (refusal.status === 401) reply.header('www-authenticate', 'Bearer realm="walker"');
      sendRefusal(reply, options.families, request.url, refusal);
    });
    if (options.allowOrigins.length > 0) await app.register(cors, { origin: [...options.allowOrigins] });
  },
  { name: 'walker-network', fastify: '5.x' },
);

/** The check of one request, with what it learns once from the listening server. */
function requestCheck(app: FastifyInstance, options: NetworkPluginOptions): (request: FastifyRequest) => Refusal | undefined {
  const token = options.token === undefined ? undefined : tokenDigest(options.token);
  const cookie = options.token === undefined ? undefined : Buffer.from(loginValue(options.token));
  /** The Host values the bound addresses answer to; undefined before listening (`app.inject`). */
  let hosts: Set<string> | undefined;
  return (request) => {
    if (hosts === undefined && app.server.listening) hosts = boundHosts(app, options.allowHosts ?? []);
    const { host, origin } = request.headers;
    if (hosts && host !== undefined && !hosts.has(normalHost(host) ?? '')) return hostRefusal(host, hosts);
    if (origin !== undefined) {
      if (!allowedOrigin(origin, host, hosts, options.allowOrigins)) return originRefusal(origin);
    } else if (isCrossSite(request.headers['sec-fetch-site'])) {
      return originRefusal(undefined);
    }
    if (token === undefined || isPreflight(request, options.allowOrigins) || isOpenWithoutToken(request)) return undefined;
    if (request.headers.authorization === undefined && hasLoginCookie(request.headers.cookie, cookie as Buffer)) return undefined;
    return bearerRefusal(request.headers.authorization, token);
  };
}

function boundHosts(app: FastifyInstance, allowed: readonly string[]): Set<string> {
  const hosts = hostsOf(app.addresses().filter((a): a is AddressInfo => typeof a === 'object'));
  for (const host of allowed) hosts.add(host);
  return hosts;
}

/** The names of this machine a bind to every interface answers to, besides its loopback names. */
export interface MachineNames {
  /** The addresses of its network interfaces (`os.networkInterfaces()`). */
  readonly addresses: readonly string[];
  /** Its host name (`os.hostname()`). */
  readonly hostname: string;
}

/** This machine's interface addresses and host name, as they are now. */
export function machineNames(): MachineNames {
  const addresses = Object.values(networkInterfaces()).flatMap((infos) => (infos ?? []).map((info) => info.address));
  return { addresses, hostname: hostname() };
}

/**
 * The Host values that name a server listening on `addresses`: its loopback names for a loopback bind, the
 * address itself for a bind to a particular interface, and for a bind to every interface (`0.0.0.0`, `::`)
 * the loopback names, the address of every interface of the machine and its host name. Other names that
 * DNS or a hosts file give the machine cannot be known: `--allow-host` adds them.
 */
export function hostsOf(addresses: readonly AddressInfo[], machine: MachineNames = machineNames()): Set<string> {
  const hosts = new Set<string>();
  for (const { address, port } of addresses) {
    const everywhere = isWildcardAddress(address);
    if (everywhere || isLoopbackAddress(address)) for (const name of loopbackHosts(port)) hosts.add(name);
    const own = everywhere ? [machine.hostname, ...machine.addresses] : isLoopbackAddress(address) ? [] : [address];
    for (const name of own) hosts.add(hostOfAddress(name, port));
  }
  return hosts;
}

/** `name:port` as a Host header gives it: lower case, an IPv6 address in brackets and without its zone (`%eth0`). */
function hostOfAddress(address: string, port: number): string {
  const host = hostAndPort(address, port);
  return normalHost(host) ?? host;
}

function allowedOrigin(origin: string, host: string | undefined, hosts: Set<string> | undefined, allowed: readonly string[]): boolean {
  const url = urlOf(origin);
  if (url === undefined) return false;
  if (allowed.includes(url.origin)) return true;
  if (url.protocol !== 'http:') return false;
  const own = normalHost(url.host);
  return own !== undefined && (hosts ? hosts.has(own) : own === normalHost(host ?? ''));
}

function urlOf(text: string): URL | undefined {
  try {
    return new URL(text);
  } catch {
    return undefined;
  }
}

/** `Sec-Fetch-Site` of a request a page of another site made without `Origin` (an `<img>`, a link). */
function isCrossSite(site: string | string[] | undefined): boolean {
  return site === 'cross-site' || site === 'same-site';
}

/**
 * What a browser must reach to ask for the token: the page's fixed files (no data of the service) and the login
 * route, which checks the token itself. The Host and Origin checks above still hold for them.
 */
function isOpenWithoutToken(request: FastifyRequest): boolean {
  // `/` is also GraphWalker's WebSocket service: an upgrade there walks, so it needs the token like any walk.
  if (request.headers.upgrade !== undefined) return false;
  const path = request.url.split('?', 1)[0];
  if (path === '/walker/login') return true;
  return (request.method === 'GET' || request.method === 'HEAD') && (path === '/' || PAGE_FILES.test(path));
}

const PAGE_FILES = /^\/assets\/(app\.js|app\.css|elk-worker\.js)$/;

/** A CORS preflight from an allowed origin: browsers never send credentials with one. */
function isPreflight(request: FastifyRequest, allowed: readonly string[]): boolean {
  const { origin } = request.headers;
  if (request.method !== 'OPTIONS' || request.headers['access-control-request-method'] === undefined) return false;
  const url = origin === undefined ? undefined : urlOf(origin);
  return url !== undefined && allowed.includes(url.origin);
}

function hostRefusal(host: string, hosts: Set<string>): Refusal {
  const names = [...hosts].join(', ');
  const name = normalHost(host) === undefined ? '<name>' : host.trim();
  const message =
    `The Host header '${host}' does not name this service, which answers to ${names}: ` +
    'a request sent to another name (DNS rebinding) is refused. Use one of those names, or start walker with ' +
    `--allow-host ${name} if that is a name it is reached by (a load balancer in front of it, a DNS name of this machine).`;
  return apiError('host_not_allowed', message);
}

function originRefusal(origin: string | undefined): Refusal {
  return apiError('origin_not_allowed', originMessage(origin));
}

/** Why a page's request is refused; `--allow-origin` is suggested only for an origin it can take. */
function originMessage(origin: string | undefined): string {
  if (origin === undefined) return 'A cross-site browser request (Sec-Fetch-Site) is refused: web pages of other sites may not call this service.';
  const refused = `A request from the web page at '${origin}' is refused: only the service's own pages may call it.`;
  try {
    return `${refused} Start walker with --allow-origin ${parseOrigin(origin)} to let that site in.`;
  } catch {
    const why =
      origin === 'null'
        ? 'sandboxed frames, files opened from disk and redirected requests send that origin, so any web page can'
        : 'it is not an http or https origin';
    return `${refused} No --allow-origin can let it in: ${why}. Serve the page from an http or https origin and allow that one.`;
  }
}

function bearerRefusal(authorization: string | undefined, token: Buffer): Refusal | undefined {
  const given = bearerOf(authorization);
  if (given !== undefined && timingSafeEqual(tokenDigest(given), token)) return undefined;
  const message =
    given === undefined
      ? "This service requires a token: send the header 'Authorization: Bearer <token>' with the token it was started with (--token or WALKER_TOKEN)."
      : 'The bearer token is not the one this service was started with (--token or WALKER_TOKEN).';
  return apiError('unauthorized', message);
}
