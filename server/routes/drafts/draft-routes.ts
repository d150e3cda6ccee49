import type { TypeBoxTypeProvider } from '@fastify/type-provider-typebox';
import type {
  FastifyBaseLogger,
  FastifyInstance,
  RawReplyDefaultExpression,
  RawRequestDefaultExpression,
  RawServerDefault,
} from 'fastify';
import { Type, type TSchema } from 'typebox';
import type { Registries } from '../../../core/plugin.js';
import { WalkerError } from '../../../core/errors.js';
import { apiError } from '../../api-error.js';
import { draftSummary } from '../../drafts/envelope.js';
import { exportModelFile } from '../../drafts/export.js';
import { patchModel } from '../../drafts/model-fields.js';
import {
  DiscardResponse,
  draftResponses,
  DraftSummary,
  ExportResponse,
  ValidationResponse,
} from '../../drafts/responses.js';
import { BodyContracts, ChangeHeaders, ExportQuery, ReadHeaders, type BodyContract } from '../../drafts/schemas.js';
import type { DraftStore } from '../../drafts/store.js';
import { validateDraft, type ValidationOptions } from '../../drafts/validation.js';
import type { Walker } from '../../../core/walker.js';
import type { Conversions } from '../../conversion/conversions.js';
import type { DraftRouteConfig } from './errors.js';
import { answeredNotModified, preconditionsOf, withETag } from './revision-http.js';
import { exportFormat } from './export-format.js';

/**
 * The draft scope, typed by its TypeBox schemas: handlers get `request.body`, `params` and `query` as the
 * `Static` of their schemas and `reply.send` is checked against the response schemas. The type provider is
 * types only; validation stays with the scope's strict Ajv (validator.ts), which TypeBox schemas, being JSON
 * Schema, compile under unchanged — so the two do not fight.
 */
export type DraftApp = FastifyInstance<
  RawServerDefault,
  RawRequestDefaultExpression,
  RawReplyDefaultExpression,
  FastifyBaseLogger,
  TypeBoxTypeProvider
>;

/** What the routes of a draft family share. */
export interface DraftRouteContext {
  readonly store: DraftStore;
  readonly registries: Registries;
  /** The service's walker, which validation opens walks with as load does. */
  readonly walker: Walker;
  /** Where models are read and written in other formats: large ones off the event loop. */
  readonly conversions: Conversions;
  readonly maxElements: number;
  readonly validation: ValidationOptions;
}

/** Params of every route below `/{draft_id}`. */
export const DraftParams = Type.Object({ draft_id: Type.String({ description: 'As POST /walker/drafts answered.' }) });

/** The OpenAPI operation of a draft route (ignored by Fastify itself). */
export function operation(operationId: string, summary: string, description?: string) {
  return { tags: ['drafts'], operationId, summary, ...(description === undefined ? {} : { description }) };
}

/** Route options for a route whose body follows `contract`: its schema, and the contract for 422 messages. */
export function withBody<B extends TSchema, S extends object>(
  contract: BodyContract<B>,
  schema: S,
): { schema: S & { body: B }; config: DraftRouteConfig } {
  return { schema: { ...schema, body: contract.schema }, config: { body: contract } };
}

/**
 * The routes of whole drafts: create, export, change the model-level fields, discard, validate. Handlers
 * have no `await` between reading a draft and changing it, so a change is never interleaved with another.
 * Every answer that shows a revision carries it as its ETag.
 */
export function registerDraftRoutes(app: DraftApp, ctx: DraftRouteContext): void {
  registerLifecycle(app, ctx);
  registerReads(app, ctx);
}

/** How a change of the draft can fail, besides 500 (docs/api-drafts.md, Errors). */
const PATCH_FAILURES = [400, 404, 409, 410, 412, 413, 415, 422, 429] as const;

function registerLifecycle(app: DraftApp, { store }: DraftRouteContext): void {
  const create = withBody(BodyContracts.createDraft, {
    ...operation('createDraft', 'Create a draft', 'A new, empty model at revision 0; every member is optional.'),
    response: draftResponses(201, DraftSummary, [400, 413, 415, 422, 429], { etag: true }),
  });
  app.post('/', create, async (request, reply) => {
    const draft = store.create(request.body);
    return withETag(reply, draft.revision).code(201).send(draftSummary(draft));
  });

  const patch = withBody(BodyContracts.patchDraft, {
    ...operation('patchDraft', 'Change the model-level fields', 'Absent members are kept; null puts back the default.'),
    params: DraftParams,
    headers: ChangeHeaders,
    response: draftResponses(200, DraftSummary, PATCH_FAILURES, { etag: true }),
  });
  app.patch('/:draft_id', patch, async (request, reply) => {
    const pre = preconditionsOf(request, request.body.expected_revision);
    const { draft } = store.change(request.params.draft_id, pre, patchModel(request.body));
    return withETag(reply, draft.revision).send(draftSummary(draft));
  });

  const discard = {
    ...operation('discardDraft', 'Discard a draft', 'Its memory is freed at once; its id answers 404 afterwards.'),
    params: DraftParams,
    headers: ChangeHeaders,
    response: draftResponses(200, DiscardResponse, [400, 404, 410, 412, 413, 415]),
  };
  app.delete('/:draft_id', { schema: discard }, async (request) => {
    store.discard(request.params.draft_id, preconditionsOf(request, undefined));
    return { discarded: true as const };
  });
}

/** Export and validation read the draft only: they change nothing and renew no lease (docs/api-drafts.md). */
function registerReads(app: DraftApp, { store, registries, walker, validation, conversions }: DraftRouteContext): void {
  const exported = {
    ...operation(
      'exportDraft',
      'Export the draft as a model file',
      'POST /walker/load accepts the model as it is. With format=graphml (or Accept: application/graphml+xml) ' +
        'the answer is the model as yEd GraphML text instead, with format=dot as Graphviz DOT.',
    ),
    params: DraftParams,
    querystring: ExportQuery,
    headers: ReadHeaders,
    response: draftResponses(200, ExportResponse, [400, 404, 410, 422, 503], READ_HEADERS),
  };
  app.get('/:draft_id', { schema: exported }, async (request, reply) => {
    const format = exportFormat(registries.formats, request.query.format, request.headers.accept);
    const draft = store.read(request.params.draft_id);
    reply.header('vary', 'Accept');
    if (answeredNotModified(request, reply, draft.revision)) return reply;
    if (format === undefined) return reply.send({ model: exportModelFile(draft.model), revision: draft.revision });
    let text: string;
    try {
      text = await conversions.writeModel(format.name, exportModelFile(draft.model), draft.model.size);
    } catch (error) {
      // A format refuses what it cannot hold with a ModelError that names the element (a WalkerError of its
      // code, once it has crossed from the conversion thread); anything else is a bug.
      if (!(error instanceof WalkerError)) throw error;
      throw apiError('not_exportable', `The draft cannot be exported as ${format.name}: ${error.message}`);
    }
    return reply.type(`${format.mediaType}; charset=utf-8`).send(text);
  });

  const validate = {
    ...operation(
      'validateDraft',
      'Validate the draft as POST /walker/load would judge its export',
      'A draft that validates also loads. Errors come first, then warnings.',
    ),
    params: DraftParams,
    headers: ReadHeaders,
    response: draftResponses(200, ValidationResponse, [404, 410], READ_HEADERS),
  };
  app.get('/:draft_id/validation', { schema: validate }, async (request, reply) => {
    const id = request.params.draft_id;
    if (answeredNotModified(request, reply, store.read(id).revision)) return reply;
    // Read again once reserved: the draft may have changed meanwhile, and the answer names what was validated.
    const { report, revision } = await walker.reserved((reservation) => {
      const draft = store.read(id);
      return { report: validateDraft(draft.model, walker, validation, reservation), revision: draft.revision };
    });
    return reply.send({ valid: report.valid, issues: report.issues, revision });
  });
}

const READ_HEADERS = { etag: true, notModified: true } as const;
