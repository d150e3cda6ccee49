import type { FastifyInstance } from 'fastify';
import fastifyPlugin from 'fastify-plugin';

/**
 * Keeps the idle timeout (`timeouts.idleMs`, Fastify's `connectionTimeout`) off a connection while its request
 * is served. The timeout is for a client that stopped reading its answer, but a request that waits its turn in
 * a session's queue, or whose scripts run long, has no traffic either way too: twenty loads queued on one
 * session of a busy machine waited past the default 60 s and had their connections dropped unanswered. The
 * timer stops when the request is read and starts again when its answer is sent, so a reader that stops
 * reading is still dropped. Streams that take over their socket (the view's events, WebSocket) bound their
 * readers themselves.
 */
export const servingTimePlugin = fastifyPlugin(
  async (app: FastifyInstance, { idleMs }: { readonly idleMs: number }) => {
    app.addHook('onRequest', (request, _reply, done) => {
      // app.inject's requests have a socket of light-my-request's without timers.
      request.raw.socket?.setTimeout?.(0);
      done();
    });
    app.addHook('onSend', (request, _reply, payload, done) => {
      request.raw.socket?.setTimeout?.(idleMs);
      done(null, payload);
    });
  },
  { name: 'walker-serving-time' },
);
