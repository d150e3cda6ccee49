import { fileURLToPath } from 'node:url';
import autoload from '@fastify/autoload';
import type { FastifyInstance } from 'fastify';
import type { RouteFamily } from './route-family.js';
import { SERVER_FOLDER } from './server-folder.js';

/** The running build's `routes/` folder: `server/routes` in the TS sources, `dist/server/routes` or `dist/bundle/server/routes` built. */
export const ROUTES_DIRECTORY = fileURLToPath(new URL('routes/', SERVER_FOLDER));

/** The entry of a family folder, `/<family>/index.js` built or `index.ts` in the sources; nothing deeper. */
const FAMILY_ENTRY = /^\/[^/]+\/index\.[jt]s$/;

/**
 * Registers every route family found at startup in `directory` with @fastify/autoload: the default export of
 * each `<family>/index.(js|ts)`, a plugin made by `routeFamily` (server/route-family.ts), under the family's
 * prefix. Other modules of a family folder are its own, never plugins. Each family enters itself in
 * `families` as it is registered.
 */
export async function registerRouteFamilies(app: FastifyInstance, families: RouteFamily[], directory: string = ROUTES_DIRECTORY): Promise<void> {
  await app.register(autoload, {
    dir: directory,
    // The prefix is the family's own (`/walker`, `/walker/drafts`), not its folder's name.
    dirNameRoutePrefix: false,
    matchFilter: (path: string) => FAMILY_ENTRY.test(path),
    options: { families },
  });
}
