import type { TypeBoxTypeProvider } from '@fastify/type-provider-typebox';
import type { FastifyPluginAsync } from 'fastify';
import { routeFamily, type RouteFamily } from '../../route-family.js';
import { registerDraftRoutes } from './draft-routes.js';
import { registerElementRoutes } from './element-routes.js';
import { registerConvert } from './convert.js';
import { registerJointValidation } from './joint-validation.js';
import { registerScriptCheck } from './script-check.js';
import { unknownRouteHandler } from '../../error-handler.js';
import { draftFrameworkRefusal, handleDraftError } from './errors.js';
import { acceptJsonBodies } from './json-body.js';
import { draftSchemaCompiler } from './validator.js';

/**
 * The draft-authoring API (docs/api-drafts.md) under `/walker/drafts`. Everything
 * set here — JSON-only body parsing with a 1 MiB limit, the strict schema compiler, the `{code, message}`
 * error and 404 handlers — stays inside this encapsulated plugin, so the execution routes keep their own.
 */
const plugin: FastifyPluginAsync = async (scope) => {
  const app = scope.withTypeProvider<TypeBoxTypeProvider>();
  const { drafts: store, registries, walker, options, conversions } = app.services;
  const ctx = {
    store,
    registries,
    walker,
    conversions,
    maxElements: options.drafts.maxElements,
    validation: options.walk,
  };

  acceptJsonBodies(app);
  app.setValidatorCompiler(draftSchemaCompiler());
  app.setErrorHandler(handleDraftError);
  app.setNotFoundHandler(unknownRouteHandler('draft', 'docs/api-drafts.md (e.g. POST /walker/drafts, POST /walker/drafts/{draft_id}/vertices)'));
  registerDraftRoutes(app, ctx);
  registerElementRoutes(app, ctx);
  registerScriptCheck(app, ctx);
  registerConvert(app, ctx);
  registerJointValidation(app, ctx);

  store.startSweeping();
  app.addHook('onClose', async () => store.close());
};

const drafts: RouteFamily = {
  name: 'drafts',
  prefix: '/walker/drafts',
  tag: {
    name: 'drafts',
    description:
      'Build a model element by element under /walker/drafts. Success bodies are the objects shown; every ' +
      'failure is {"code": "...", "message": "..."} with its real status; any other path or method under ' +
      '/walker/drafts answers 404 not_found.',
  },
  plugin,
  frameworkRefusal: draftFrameworkRefusal,
};

export default routeFamily(drafts);
