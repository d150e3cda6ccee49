import { Readable } from 'node:stream';
import type { FastifyInstance } from 'fastify';
import { Type } from 'typebox';
import { apiErrorHandler, unknownRouteHandler } from '../../error-handler.js';
import { routeFamily, type RouteFamily } from '../../route-family.js';
import { EventStream } from '../../view/event-stream.js';
import { StreamCaps } from '../../view/stream-caps.js';
import { VIEW_ENDPOINTS, type ViewEndpoint } from './endpoints.js';

const JSON_TYPE = 'application/json; charset=utf-8';

/** A message, as the OpenAPI document describes it: its members are in docs/view.md. */
const MESSAGE = Type.Object(
  { kind: Type.Enum(['walk', 'draft'], { type: 'string' }) },
  { additionalProperties: true, description: 'A walk or draft message (docs/view.md).' },
);

const FAILURE = Type.Object({ code: Type.String(), message: Type.String() });

/**
 * What the web page reads (docs/view.md): for each endpoint of the table, the message as it stands
 * (`GET`), and a stream of Server-Sent Events that carries it on (`GET .../events`), at most twenty
 * messages a second, as many streams as `--max-view-streams` allows. Failures are `{code, message}` with
 * their status, as in the session and draft APIs.
 */
const plugin = async (scope: FastifyInstance): Promise<void> => {
  const streams = new Set<EventStream>();
  const caps = new StreamCaps(scope.services.options.view);
  // Open streams would hold the server's close until its grace ran out; what a stream still had to write is
  // of no use to a reader of a service that stops.
  scope.addHook('preClose', async () => {
    for (const stream of streams) stream.drop();
  });
  scope.setErrorHandler(apiErrorHandler());
  scope.setNotFoundHandler(unknownRouteHandler('view', 'docs/view.md'));
  for (const endpoint of VIEW_ENDPOINTS) registerEndpoint(scope, endpoint, streams, caps);
};

function registerEndpoint(scope: FastifyInstance, endpoint: ViewEndpoint, streams: Set<EventStream>, caps: StreamCaps): void {
  const failures = { 404: FAILURE, 410: FAILURE };
  scope.get(
    endpoint.url,
    {
      schema: {
        tags: ['view'],
        operationId: `view${endpoint.name}`,
        summary: endpoint.summary,
        ...(endpoint.params === undefined ? {} : { params: endpoint.params }),
        response: { 200: MESSAGE, ...failures },
      },
    },
    async (request, reply) => {
      const parts = await endpoint.read(scope, request);
      // Several parts are a large graph shared with the streams: written from where it is, not copied.
      return reply.type(JSON_TYPE).send(parts.length === 1 ? parts[0] : Readable.from(parts));
    },
  );
  scope.get(
    `${endpoint.url}/events`,
    {
      schema: {
        tags: ['view'],
        operationId: `view${endpoint.name}Events`,
        summary: `${endpoint.summary}, as Server-Sent Events`,
        description: 'Each event is one message of the JSON shape of the route without /events, after changes (docs/view.md).',
        ...(endpoint.params === undefined ? {} : { params: endpoint.params }),
        response: {
          200: { description: 'A text/event-stream of messages.', content: { 'text/event-stream': { schema: Type.String() } } },
          ...failures,
          503: FAILURE,
        },
      },
    },
    async (request, reply) => {
      // Throws for a session or draft that is not there, or one stream too many, before the stream opens: a
      // real status, then.
      const followed = endpoint.follow(scope, request);
      const release = caps.admit(followed.source);
      let stream: EventStream;
      try {
        stream = EventStream.open(reply, scope.services.options.view.streamTimeoutMs);
      } catch (error) {
        release();
        throw error;
      }
      streams.add(stream);
      stream.onClose(() => {
        streams.delete(stream);
        release();
      });
      followed.start(stream);
      return reply;
    },
  );
}

const view: RouteFamily = {
  name: 'view',
  prefix: '/walker/view',
  tag: {
    name: 'view',
    description:
      "What the web page at / shows: a session's walk or a draft, as JSON now and as Server-Sent Events from now on " +
      '(docs/view.md). Reading renews no session or draft. Failures are {"code": "...", "message": "..."} with their status.',
  },
  plugin,
};

export default routeFamily(view);
