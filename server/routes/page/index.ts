import fastifyStatic from '@fastify/static';
import type { FastifyInstance } from 'fastify';
import type { RouteFamily } from '../../route-family.js';
import { missingAssets, webAssetsDirectory } from '../../view/assets.js';

/**
 * The web page of docs/view.md at `/` (`/?session=<id>`, `/?draft=<id>`), and its script and stylesheet
 * under `/assets/`, from the files `npm run build` made. What the page reads comes from the view family
 * (`/walker/view`). None of it is an API operation: the OpenAPI document leaves it out.
 */
const plugin = async (scope: FastifyInstance): Promise<void> => {
  const root = webAssetsDirectory();
  await scope.register(fastifyStatic, { root, prefix: '/assets/', index: false, schemaHide: true });
  scope.get('/', { schema: { hide: true } }, async (_request, reply) => {
    const missing = missingAssets(root);
    if (missing !== undefined) return reply.code(500).type('text/plain; charset=utf-8').send(missing);
    return reply.header('cache-control', 'no-cache').sendFile('index.html');
  });
};

const page: RouteFamily = {
  name: 'page',
  prefix: '',
  plugin,
};

export default page;
