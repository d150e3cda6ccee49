import type { IncomingMessage } from 'node:http';
import type { Socket } from 'node:net';
import fastifyWebsocket from '@fastify/websocket';
import type { FastifyInstance } from 'fastify';
import { isApiError } from '../../api-error.js';
import { sendApiError } from '../../error-handler.js';
import { routeFamily, type RouteFamily } from '../../route-family.js';
import type { HostedSession } from '../../sessions/hosted-session.js';
import { toError } from '../../thrown.js';
import { WEBSOCKET_UPGRADE } from '../../upgrade-constraint.js';
import { serveConnection } from './connection.js';

/** How long a connection closed by the service may take to answer the close before it is cut. */
const CLOSE_GRACE_MS = 1000;

/** Why the service closes a connection when it stops (close code 1001, going away). */
const STOPPING_REASON = 'The service is shutting down.';

/**
 * GraphWalker 4.3's WebSocket service (docs/graphwalker.md, "The WebSocket service") at `/`, where its clients
 * connect (`ws://<host>:8887`), on the port of the REST service: an upgrade request to `/` is this family's
 * (server/upgrade-constraint.ts), any other request to `/` the page's. The upgrade passes the app's Host,
 * Origin and token checks like any request, so a page of another site is refused before it is a WebSocket.
 * Each connection walks in a session of its own (`--max-sessions` counts it, `GET /walker/sessions` lists it),
 * made before the upgrade and deleted when the connection closes; a message is at most `--max-model-bytes`.
 */
const plugin = async (scope: FastifyInstance): Promise<void> => {
  const { sessions, conversions, options } = scope.services;
  await scope.register(fastifyWebsocket, {
    // A message over the limit closes the connection with 1009 (message too big) before it is buffered whole.
    options: { maxPayload: options.maxModelBytes },
    errorHandler: (error, socket, request) => {
      // A client that broke the protocol or sent too much; ws has closed the connection with the code that says so.
      request.log.info({ err: error }, 'a WebSocket connection failed');
      socket.terminate();
    },
    preClose: (done) => {
      closeConnections(scope);
      done();
    },
  });
  const ownSessions = new WeakMap<IncomingMessage, HostedSession>();
  const upgrading = guardUpgrades(scope, options.timeouts.headersMs);

  scope.route({
    method: 'GET',
    url: '/',
    constraints: { upgrade: WEBSOCKET_UPGRADE },
    websocket: true,
    // Not an HTTP operation: the protocol is docs/graphwalker.md's, which OpenAPI cannot describe.
    schema: { hide: true },
    // Before the upgrade, so that a connection beyond --max-sessions, or while the service closes, is refused over HTTP.
    preHandler: (request, reply, done) => {
      let session: HostedSession;
      try {
        // The steps of a connection's walk carry what GraphWalker pushes of them (visitedElement).
        session = sessions.create({ stepReport: { progress: true } });
      } catch (error) {
        if (!isApiError(error)) return done(toError(error));
        sendApiError(reply, error);
        return;
      }
      ownSessions.set(request.raw, session);
      // However the connection ends, upgraded or not, its walk goes with it.
      request.raw.socket.once('close', () => sessions.discard(session.id));
      done();
    },
    handler: (socket, request) => {
      upgrading.delete(request.raw.socket);
      const session = ownSessions.get(request.raw) as HostedSession;
      serveConnection(socket, { session, conversions, log: request.log, renew: () => void sessions.use(session.id) });
    },
  });

  // An upgrade refused over HTTP (Host, Origin, token, a full store) is answered, then its connection ends.
  scope.addHook('onResponse', (request, _reply, done) => {
    if ((request.raw as IncomingMessage & { upgrade?: boolean }).upgrade === true) request.raw.socket.end();
    done();
  });
};

/**
 * The sockets of upgrade requests not (yet) WebSockets. Node hands them over without its timeouts or its
 * handling of a client's end: a refusal (or a 404 for a path that is no WebSocket route) is answered, and the
 * socket is ended when the client ends its side, dropped when idle as long as headers may take, and dropped
 * when the app closes, which would otherwise wait for it. ws turns the timer off as it takes a socket.
 */
function guardUpgrades(scope: FastifyInstance, idleMs: number): Set<Socket> {
  const pending = new Set<Socket>();
  const onUpgrade = (_request: IncomingMessage, socket: Socket): void => {
    pending.add(socket);
    socket.setTimeout(idleMs, () => socket.destroy());
    socket.once('end', () => {
      if (pending.has(socket)) socket.end();
    });
    socket.once('close', () => pending.delete(socket));
  };
  // First among the upgrade listeners: @fastify/websocket's may hand the socket to ws before a later listener
  // runs, and a timer armed after ws turned its own off dropped every WebSocket idle as long as headers may take.
  scope.server.prependListener('upgrade', onUpgrade);
  scope.addHook('preClose', (done) => {
    scope.server.off('upgrade', onUpgrade);
    for (const socket of pending) socket.destroy();
    done();
  });
  return pending;
}

/** Closes every connection as going away, and cuts those that do not answer the close in time. */
function closeConnections(scope: FastifyInstance): void {
  const clients = [...scope.websocketServer.clients];
  for (const client of clients) client.close(1001, STOPPING_REASON);
  if (clients.length === 0) return;
  setTimeout(() => {
    for (const client of clients) client.terminate();
  }, CLOSE_GRACE_MS).unref();
}

const websocket: RouteFamily = {
  name: 'websocket',
  prefix: '',
  plugin,
};

export default routeFamily(websocket);

