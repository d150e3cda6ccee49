import type { FastifyInstance } from 'fastify';
import type { Registries } from '../../../core/plugin.js';
import { draftSummary } from '../../drafts/envelope.js';
import { exportModelFile } from '../../drafts/export.js';
import { patchModel } from '../../drafts/model-fields.js';
import { BodyContracts, type BodyContract } from '../../drafts/schemas.js';
import type { DraftStore } from '../../drafts/store.js';
import type { DraftCreateInput, DraftPatchInput } from '../../drafts/types.js';
import { validateDraft, type ValidationOptions } from '../../drafts/validation.js';
import type { DraftRouteConfig } from './errors.js';

/** What the routes of a draft family share. */
export interface DraftRouteContext {
  readonly store: DraftStore;
  readonly registries: Registries;
  readonly maxElements: number;
  readonly validation: ValidationOptions;
}

/** Params of every route below `/{draft_id}`. */
export interface DraftParams {
  draft_id: string;
}

/** Route options for a route whose body follows `contract`. */
export function withBody(contract: BodyContract): { schema: { body: object }; config: DraftRouteConfig } {
  return { schema: { body: contract.schema }, config: { body: contract } };
}

/**
 * The routes of whole drafts: create, export, change the model-level fields, discard, validate. Handlers
 * have no `await` between reading a draft and changing it, so a change is never interleaved with another.
 */
export function registerDraftRoutes(app: FastifyInstance, ctx: DraftRouteContext): void {
  registerLifecycle(app, ctx);
  registerReads(app, ctx);
}

function registerLifecycle(app: FastifyInstance, { store }: DraftRouteContext): void {
  app.post<{ Body: DraftCreateInput }>('/', withBody(BodyContracts.createDraft), async (request, reply) => {
    const body = request.body ?? {};
    const draft = store.create(body.model_id ?? undefined, {
      name: body.name ?? null,
      generator: body.generator ?? null,
      actions: body.actions ?? [],
      requirements: body.requirements ?? [],
      properties: body.properties ?? {},
    });
    return reply.code(201).send(draftSummary(draft));
  });

  const patch = withBody(BodyContracts.patchDraft);
  app.patch<{ Params: DraftParams; Body: DraftPatchInput }>('/:draft_id', patch, async (request) => {
    const draft = store.get(request.params.draft_id);
    const body = request.body ?? {};
    draft.mutate(body.expected_revision, patchModel(body));
    return draftSummary(draft);
  });

  app.delete<{ Params: DraftParams }>('/:draft_id', async (request) => {
    store.discard(request.params.draft_id);
    return { discarded: true };
  });
}

/** Export and validation read the draft only (docs/api-drafts.md). */
function registerReads(app: FastifyInstance, { store, registries, validation }: DraftRouteContext): void {
  app.get<{ Params: DraftParams }>('/:draft_id', async (request) => {
    const draft = store.get(request.params.draft_id);
    return { model: exportModelFile(draft.model), revision: draft.revision };
  });

  app.get<{ Params: DraftParams }>('/:draft_id/validation', async (request) => {
    const draft = store.get(request.params.draft_id);
    const report = validateDraft(draft.model, registries, validation);
    return { valid: report.valid, issues: report.issues, revision: draft.revision };
  });
}
