import type { FastifyError, FastifyInstance, FastifyRequest } from 'fastify';
import { Type } from 'typebox';
import { apiError, isApiError, type ApiError } from '../../api-error.js';
import { apiErrorHandler, payloadTooLarge, sendApiError, unknownRouteHandler } from '../../error-handler.js';
import { overlongSegment } from '../../framework-errors.js';
import { routeFamily, type RouteFamily } from '../../route-family.js';
import { sessionStartOf, startSession } from '../../sessions/creation.js';
import { acceptAnyBodyAsText, acceptAnyContentType, registerExecutionRoutes } from '../execution/family.js';
import type { Dialect } from '../execution/dialect.js';
import { walkerDialect } from '../execution/walker-dialect.js';

/** The id in the path of every route below `/walker/sessions/{session_id}`. */
interface SessionParams {
  readonly session_id: string;
}

/** A session as the lifecycle routes show it (docs/api-sessions.md). */
const sessionSchema = Type.Object({
  id: Type.String({ description: 'A random UUID, after `<node-id>.` when the process has a --node-id.' }),
  created: Type.String({ format: 'date-time' }),
  lastUsed: Type.String({ format: 'date-time', description: 'The last request of the session; reads of it do not count.' }),
  models: Type.Array(Type.Object({ id: Type.String(), name: Type.Optional(Type.String()) })),
  seed: Type.Optional(Type.Integer({ description: 'The seed of the loaded walk; absent before a load.' })),
  steps: Type.Integer(),
  vertexCoverage: Type.Integer(),
  edgeCoverage: Type.Integer(),
  isolated: Type.Boolean({ description: 'True once the walk runs in a worker thread of its own.' }),
});

/** `/walker`'s answers, as operations of their own in the OpenAPI document. */
const inSessionDialect: Dialect = { ...walkerDialect, name: 'sessions', tag: 'sessions', operationPrefix: 'session' };

/**
 * Sessions (docs/api-sessions.md) under `/walker/sessions`: the lifecycle routes answer real status codes
 * with the draft API's `{code, message}`; below `/{session_id}` every execution endpoint answers exactly as
 * under `/walker`, on that session's own walk.
 */
const plugin = async (scope: FastifyInstance): Promise<void> => {
  const { sessions } = scope.services;
  sessions.startSweeping();
  scope.addHook('onClose', async () => sessions.close());
  await scope.register(lifecycleRoutes);
  await scope.register(
    async (inSession) =>
      registerExecutionRoutes(inSession, inSessionDialect, (request) => sessions.use((request.params as SessionParams).session_id), {
        // A session that is not there, or a service that is closing: refused before the walk, as the lifecycle routes refuse.
        lookupErrors: (error, reply) => {
          if (!isApiError(error)) return false;
          sendApiError(reply, error);
          return true;
        },
      }),
    { prefix: '/:session_id' },
  );
};

async function lifecycleRoutes(scope: FastifyInstance): Promise<void> {
  const { sessions, drafts, options } = scope.services;
  acceptAnyBodyAsText(scope, options.maxModelBytes);
  scope.setErrorHandler(apiErrorHandler({ tooLarge: (request) => payloadTooLarge(request, options.maxModelBytes) }));
  scope.setNotFoundHandler(unknownRouteHandler('session', 'docs/api-sessions.md'));

  scope.post(
    '/',
    {
      onRequest: acceptAnyContentType,
      bodyLimit: options.maxModelBytes,
      schema: {
        tags: ['sessions'],
        operationId: 'createSession',
        summary: 'Create a session',
        description:
          'An empty body or {} makes an empty session (load in it next); {"draft": id, "revision": n} walks the ' +
          "draft's current revision; any other body is a model file, as load takes it. Answers 201 with the session.",
        querystring: Type.Object({ generator: Type.Optional(Type.String()) }),
        response: { 201: sessionSchema },
      },
    },
    async (request, reply) => {
      const start = sessionStartOf(typeof request.body === 'string' ? request.body : '');
      const { generator } = request.query as { generator?: string };
      const session = sessions.create();
      try {
        await startSession(session, start, drafts, generator || undefined);
      } catch (error) {
        // A session whose model does not load was never there.
        sessions.delete(session.id);
        throw error;
      }
      return reply.code(201).send(await session.info());
    },
  );

  const listSchema = Type.Object({ sessions: Type.Array(sessionSchema) });
  scope.get('/', { schema: { tags: ['sessions'], operationId: 'listSessions', summary: 'The live sessions', response: { 200: listSchema } } }, async () => ({
    sessions: await Promise.all(sessions.list().map((s) => s.info())),
  }));

  scope.get<{ Params: SessionParams }>(
    '/:session_id',
    { schema: { tags: ['sessions'], operationId: 'getSession', summary: 'One session; reading renews nothing', response: { 200: sessionSchema } } },
    async (request) => sessions.read(request.params.session_id).info(),
  );

  scope.delete<{ Params: SessionParams }>(
    '/:session_id',
    { schema: { tags: ['sessions'], operationId: 'deleteSession', summary: 'Delete a session and free its walk', response: { 204: Type.Null() } } },
    async (request, reply) => {
      sessions.delete(request.params.session_id);
      return reply.code(204).send();
    },
  );
}

const sessionsFamily: RouteFamily = {
  name: 'sessions',
  prefix: '/walker/sessions',
  tag: {
    name: 'sessions',
    description:
      'Many walks in one server, each isolated from the others. The lifecycle routes answer real status codes, ' +
      'failures as {"code": "...", "message": "..."}; below /walker/sessions/{session_id} every execution ' +
      'endpoint answers exactly as under /walker, on that session.',
  },
  plugin,
  frameworkRefusal: sessionFrameworkRefusal,
};

/**
 * An id longer than the router takes names no session (ids are at most 77 characters); a URL that cannot be
 * decoded is worded as everywhere (server/framework-errors.ts). Both in `{code, message}`, below
 * `/{session_id}` too, as every refusal of the family.
 */
function sessionFrameworkRefusal(error: FastifyError, request: FastifyRequest): ApiError | undefined {
  if (error.code !== 'FST_ERR_MAX_PARAM_LENGTH') return undefined;
  const { length } = overlongSegment(request.url);
  return apiError('session_not_found', `No session has an id of ${length} characters: use the id that POST /walker/sessions answered.`);
}

export default routeFamily(sessionsFamily);
