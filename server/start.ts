import type { Server } from 'node:http';
import type { AddressInfo, Socket } from 'node:net';
import type { FastifyInstance } from 'fastify';
import { hostAndPort, isLoopbackAddress } from './origins.js';

/** Where to listen. */
export interface StartOptions {
  /** 0 picks a free port; read the one chosen from {@link RunningServer.port}. */
  readonly port: number;
  /** Default `127.0.0.1`: the service runs scripts for whoever reaches it, so it is local unless asked. */
  readonly host?: string;
  /** Signals that close the server; default SIGINT and SIGTERM. Pass `[]` to close it yourself. */
  readonly signals?: readonly NodeJS.Signals[];
  /**
   * How long closing waits for requests in flight, in milliseconds, before it drops every connection left —
   * a half-sent request, a client that stopped reading — so that closing ends whatever clients do. Default
   * 3000, which with the process's own exit stays well within 5 s.
   */
  readonly shutdownTimeoutMs?: number;
  /**
   * Told, once listening, what the user must hear whatever the log level: that the service is open beyond
   * this machine without a token. Default: the app's logger, at warn.
   */
  readonly warn?: (message: string) => void;
}

/** Default of {@link StartOptions.shutdownTimeoutMs}. */
export const DEFAULT_SHUTDOWN_TIMEOUT_MS = 3000;

/** A listening app. */
export interface RunningServer {
  readonly host: string;
  readonly port: number;
  /** e.g. `http://127.0.0.1:8887` (IPv6 hosts in brackets). */
  readonly url: string;
  /** Settles once the app is closed, by a signal (its name) or by {@link close} (`undefined`). */
  readonly closed: Promise<NodeJS.Signals | undefined>;
  /**
   * Closes the app: stops accepting connections, closes idle ones, lets requests in flight finish within
   * {@link StartOptions.shutdownTimeoutMs} and drops what is left, frees the session.
   */
  close(): Promise<void>;
}

/** The server could not listen: the message says why in one line (port taken, address not available). */
export class ListenError extends Error {
  override readonly name = 'ListenError';
  constructor(
    message: string,
    readonly code: string | undefined,
  ) {
    super(message);
  }
}

/** Listens, and closes the app cleanly on the first of `signals`. Throws a {@link ListenError}. */
export async function startServer(app: FastifyInstance, options: StartOptions): Promise<RunningServer> {
  const host = options.host ?? '127.0.0.1';
  try {
    // Fastify logs each address it listens on, at info; this only words the line.
    await app.listen({ port: options.port, host, listenTextResolver: (address) => `Listening on ${address}` });
  } catch (error) {
    await app.close();
    throw listenError(error, options.port, host);
  }
  const { port } = app.server.address() as AddressInfo;
  const warning = exposure(app, host, port);
  if (warning !== undefined) (options.warn ?? ((message) => app.log.warn(message)))(warning);
  const graceMs = options.shutdownTimeoutMs ?? DEFAULT_SHUTDOWN_TIMEOUT_MS;
  const connections = openConnections(app.server);
  let settle: (signal: NodeJS.Signals | undefined) => void = () => {};
  const closed = new Promise<NodeJS.Signals | undefined>((resolve) => (settle = resolve));
  const signals = options.signals ?? ['SIGINT', 'SIGTERM'];
  let closing: Promise<void> | undefined;
  const close = (signal?: NodeJS.Signals): Promise<void> => {
    for (const s of signals) process.off(s, onSignal);
    // At once, not in the app's close hooks, which run later: requests already read are refused from here on.
    app.services.beginClosing();
    closing ??= closeWithin(app, graceMs, connections).then(() => settle(signal));
    return closing;
  };
  const onSignal = (signal: NodeJS.Signals): void => void close(signal);
  for (const s of signals) process.once(s, onSignal);
  return { host, port, url: `http://${hostAndPort(host, port)}`, closed, close: () => close() };
}

/**
 * Closes the app; Node closes idle keep-alive connections at once and waits for the others. A connection
 * whose request never completes would hold the close forever (Node stops its header and request timers when
 * the server closes), so after `graceMs` every connection left is dropped. Node counts a connection whose
 * answer has ended as idle even while part of that answer is still to be written to a client that reads
 * slowly, and would cut it; so the close begins once those answers are written, or at the deadline.
 */
async function closeWithin(app: FastifyInstance, graceMs: number, connections: ReadonlySet<Socket>): Promise<void> {
  let timer: NodeJS.Timeout | undefined;
  const deadline = new Promise<void>((resolve) => {
    timer = setTimeout(() => {
      app.server.closeAllConnections();
      resolve();
    }, graceMs);
  });
  try {
    await Promise.race([written(connections), deadline]);
    await app.close();
  } finally {
    clearTimeout(timer);
  }
}

/** The server's open connections, kept up to date as they open and close. */
function openConnections(server: Server): ReadonlySet<Socket> {
  const sockets = new Set<Socket>();
  server.on('connection', (socket: Socket) => {
    sockets.add(socket);
    socket.once('close', () => sockets.delete(socket));
  });
  return sockets;
}

/** Settles once every connection has written what it was given to write, or closed. */
function written(connections: ReadonlySet<Socket>): Promise<unknown> {
  const writing = [...connections].filter((socket) => socket.writable && socket.writableLength > 0);
  // An empty write's callback runs once everything written before it has been handed to the system.
  return Promise.all(writing.map((socket) => new Promise((resolve) => socket.once('close', resolve).write('', resolve))));
}

/** What to say when the service listens beyond loopback without a token; undefined when it does not. */
function exposure(app: FastifyInstance, host: string, port: number): string | undefined {
  const addresses = app.addresses().filter((a): a is AddressInfo => typeof a === 'object');
  if (!addresses.some((a) => !isLoopbackAddress(a.address)) || app.services.options.token !== undefined) return undefined;
  return (
    `${host} is not a loopback address: anyone who can reach port ${port} can load models and run their scripts ` +
    'on this machine. Require a token with --token (or WALKER_TOKEN), or listen on 127.0.0.1.'
  );
}

function listenError(error: unknown, port: number, host: string): ListenError {
  const code = (error as NodeJS.ErrnoException)?.code;
  const messages: Record<string, string> = {
    EADDRINUSE: `Port ${port} is already in use on ${host}`,
    EACCES: `Not allowed to listen on port ${port} of ${host} (ports below 1024 need privileges)`,
    EADDRNOTAVAIL: `Cannot listen on ${host}: the address is not one of this machine's`,
    EAFNOSUPPORT: `Cannot listen on ${host}: this machine has its address family (IPv6, most likely) turned off`,
    ENOTFOUND: `Cannot listen on ${host}: no such host`,
  };
  const known = code === undefined ? undefined : messages[code];
  const message = known ?? `Cannot listen on ${host}:${port}: ${(error as Error)?.message ?? String(error)}`;
  return new ListenError(message, code);
}
