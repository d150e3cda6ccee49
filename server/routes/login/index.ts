import type { FastifyError, FastifyInstance, FastifyReply, FastifyRequest } from 'fastify';
import { Type } from 'typebox';
import { apiError, type ApiError } from '../../api-error.js';
import { apiErrorHandler, sendApiError } from '../../error-handler.js';
import { bearerOf, hasLoginCookie, loginCookie, loginValue, sameToken } from '../../login-cookie.js';
import { routeFamily, type RouteFamily } from '../../route-family.js';


const LoginState = Type.Object({
  required: Type.Boolean({ description: 'Whether the service was started with --token.' }),
  authorized: Type.Boolean({ description: 'Whether this request carried the token or the login cookie.' }),
});

const LoginBody = Type.Object({ token: Type.String({ maxLength: 4096 }) }, { additionalProperties: false });

const NoBody = Type.Null();

/**
 * The web page's login (docs/editor.md): with `--token`, a browser cannot send the bearer header when it opens
 * the page, so the page asks for the token once and trades it here for an HttpOnly, SameSite=Strict cookie
 * that server/network.ts accepts beside the header. The Host and Origin checks run before these routes as
 * before every other, so no other site can log in or use the cookie.
 */
const plugin = async (scope: FastifyInstance): Promise<void> => {
  const { token } = scope.services.options;
  const cookie = token === undefined ? undefined : Buffer.from(loginValue(token));
  const authorized = (request: FastifyRequest): boolean => {
    if (token === undefined) return true;
    const bearer = bearerOf(request.headers.authorization);
    if (bearer !== undefined) return sameToken(bearer, token);
    return hasLoginCookie(request.headers.cookie, cookie as Buffer);
  };

  scope.setErrorHandler(apiErrorHandler({ own: loginRefusal }));

  scope.get('/', { schema: { tags: ['login'], operationId: 'loginState', summary: 'Whether the page must ask for the token', response: { 200: LoginState } } }, async (request) => ({
    required: token !== undefined,
    authorized: authorized(request),
  }));

  scope.post<{ Body: { token: string } }>(
    '/',
    { schema: { tags: ['login'], operationId: 'login', summary: 'Trade the token for the login cookie', body: LoginBody, response: { 204: NoBody } } },
    async (request, reply: FastifyReply) => {
      if (token === undefined) return reply.code(204).send();
      if (!sameToken(request.body.token, token)) {
        return sendApiError(reply, apiError('unauthorized', 'That is not the token this service was started with (--token or WALKER_TOKEN): try again.'));
      }
      return reply.code(204).header('set-cookie', loginCookie(loginValue(token))).header('cache-control', 'no-store').send();
    },
  );

  scope.delete('/', { schema: { tags: ['login'], operationId: 'logout', summary: 'Forget the login cookie', response: { 204: NoBody } } }, async (_request, reply) =>
    reply.code(204).header('set-cookie', loginCookie('')).send(),
  );
};

/**
 * A body Fastify refused: of another media type than JSON, 415; not JSON or not `{"token": "..."}`, 400
 * `invalid_login`; in Fastify's words of it.
 */
function loginRefusal(error: FastifyError): ApiError | undefined {
  const status = error.statusCode ?? 500;
  if (status >= 500 || status === 413) return undefined;
  const message = `The login takes {"token": "<the token>"} as JSON: ${error.message}.`;
  return apiError(status === 415 ? 'unsupported_media_type' : 'invalid_login', message);
}

const login: RouteFamily = {
  name: 'login',
  prefix: '/walker/login',
  tag: { name: 'login', description: "The web page's login to a service started with --token: an HttpOnly, SameSite=Strict cookie for the token." },
  plugin,
};

export default routeFamily(login);
