import { createHash } from 'node:crypto';
import { readFileSync } from 'node:fs';
import type { FastifyInstance } from 'fastify';
import { routeFamily, type RouteFamily } from '../../route-family.js';
import { missingAssets, webAssetsDirectory } from '../../view/assets.js';

/** The page's files, at the URL each is served at, with their media types. */
const FILES = [
  { url: '/', file: 'index.html', type: 'text/html; charset=utf-8' },
  { url: '/assets/app.js', file: 'app.js', type: 'text/javascript; charset=utf-8' },
  { url: '/assets/app.css', file: 'app.css', type: 'text/css; charset=utf-8' },
  { url: '/assets/elk-worker.js', file: 'elk-worker.js', type: 'text/javascript; charset=utf-8' },
] as const;

/**
 * The web page of docs/view.md at `/` (`/?session=<id>`, `/?draft=<id>`), and its script and stylesheet
 * under `/assets/`, from the files `npm run build` made; what the page reads comes from the view family
 * (`/walker/view`). None of it is an API operation: the OpenAPI document leaves it out.
 *
 * The page is four files fixed at build time (the fourth ELK's layout worker, which the page starts itself), read once and served from memory with an ETag. Not
 * @fastify/static: every version of it for Fastify 5 depends on glob 11 or later, which refuses Node 21,
 * and walker runs on every Node from 20 (package.json engines).
 */
const plugin = async (scope: FastifyInstance): Promise<void> => {
  const root = webAssetsDirectory();
  const missing = missingAssets(root);
  for (const { url, file, type } of FILES) {
    const body = missing === undefined ? readFileSync(`${root}${file}`) : undefined;
    const etag = body === undefined ? '' : `"${createHash('sha256').update(body).digest('base64url').slice(0, 27)}"`;
    scope.get(url, { schema: { hide: true } }, async (request, reply) => {
      if (body === undefined) return reply.code(500).type('text/plain; charset=utf-8').send(missing);
      reply.header('etag', etag).header('cache-control', 'no-cache');
      if (request.headers['if-none-match'] === etag) return reply.code(304).send();
      return reply.type(type).send(body);
    });
  }
};

const page: RouteFamily = {
  name: 'page',
  prefix: '',
  plugin,
};

export default routeFamily(page);
