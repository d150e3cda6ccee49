import type { FastifyInstance } from 'fastify';
import fastifyPlugin from 'fastify-plugin';
import type { Services } from './composition.js';

declare module 'fastify' {
  interface FastifyInstance {
    /** What the route families serve: the session, the drafts, the registries, the options (composition.ts). */
    readonly services: Services;
  }
}

/**
 * Puts the app's {@link Services} on the root instance and frees them when the app closes. It is wrapped with
 * fastify-plugin because its decorator must reach every route family, each of which is an encapsulated
 * plugin of its own; without the wrapper the decorator would stay inside this plugin's scope.
 */
export const servicesPlugin = fastifyPlugin(
  async (app: FastifyInstance, { services }: { services: Services }) => {
    app.decorate('services', services);
    app.addHook('onClose', async () => services.dispose());
  },
  { name: 'walker-services', fastify: '5.x' },
);
