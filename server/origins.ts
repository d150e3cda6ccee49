import { isIP } from 'node:net';

/**
 * Origins and Host headers as the network checks (server/network.ts) compare them: lower case, an IPv6
 * address in brackets, the port always written out.
 */

/**
 * An `--allow-origin` value as browsers send it in `Origin`: `scheme://host[:port]`, normalised (lower case,
 * default port dropped, as `URL` writes it). A trailing `/` is forgiven; a path, query, credentials, `*` or
 * `null` are refused with a RangeError that says what to write.
 */
export function parseOrigin(text: string): string {
  const refuse = (why: string): never => {
    throw new RangeError(`allowOrigins: '${text}' ${why}; write an origin as a browser sends it, e.g. 'http://localhost:3000'`);
  };
  if (text === '*') refuse('would let every web site in (there is no wildcard)');
  if (text === 'null') refuse('is the origin of sandboxed frames and local files, which any page can produce');
  let url: URL;
  try {
    url = new URL(text);
  } catch {
    return refuse('is not a URL');
  }
  if (url.protocol !== 'http:' && url.protocol !== 'https:') refuse('is not an http: or https: origin');
  if (url.username || url.password || url.search || url.hash || url.pathname !== '/') {
    refuse('has more than scheme, host and port');
  }
  return url.origin;
}

/** The Host header values that name this machine's loopback interface on `port`. */
export function loopbackHosts(port: number): Set<string> {
  return new Set(['localhost', '127.0.0.1', '[::1]'].map((name) => `${name}:${port}`));
}

/**
 * A Host header written the way {@link loopbackHosts} writes hosts: lower case, with the port (80 when the
 * header has none, as for a plain `http://localhost/`). Undefined when it is not a host at all.
 */
export function normalHost(header: string): string | undefined {
  const host = header.trim().toLowerCase();
  const match = /^(\[[0-9a-f:.]+\]|[^:[\]]+)(?::(\d{1,5}))?$/.exec(host);
  if (match === null) return undefined;
  return `${match[1]}:${match[2] ?? '80'}`;
}

/** An `--allow-host` value, normalised like a Host header (`name:port`, port 80 when none); a RangeError names a malformed one. */
export function parseHost(host: string): string {
  const normal = normalHost(host);
  if (normal === undefined || host.includes('/')) {
    throw new RangeError(`allowHosts (--allow-host): '${host}' is not a host name as a Host header gives it: a name or address, and ':port' unless it is 80`);
  }
  return normal;
}

/** `address:port` as a URL or a Host header writes it: an IPv6 address in brackets, without its zone (`%eth0`). */
export function hostAndPort(address: string, port: number): string {
  const bare = address.split('%', 1)[0];
  return `${isIP(bare) === 6 ? `[${bare}]` : bare}:${port}`;
}

/** True when the address the server listens on is loopback (127.0.0.0/8, ::1, or IPv4 loopback mapped to IPv6). */
export function isLoopbackAddress(address: string): boolean {
  if (isIP(address) === 4) return address.startsWith('127.');
  const lower = address.toLowerCase();
  return lower === '::1' || lower.startsWith('::ffff:127.');
}

/** True for the addresses that mean every interface of the machine. */
export function isWildcardAddress(address: string): boolean {
  return address === '0.0.0.0' || address === '::' || address.toLowerCase() === '::ffff:0.0.0.0';
}
