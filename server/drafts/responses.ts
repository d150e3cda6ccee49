import { Type, type Static, type TSchema } from 'typebox';
import type { ModelFileJson } from '../../core/model/types.js';
import { ApiErrors, type ApiErrorCode } from '../api-error.js';
import { DRAFT_ERROR_CODES } from './errors.js';
import { JsonObject, Nullable } from './schemas.js';

/**
 * The draft responses, each defined once as a TypeBox schema: the routes declare them as response schemas
 * (so Fastify serialises with them and the OpenAPI document shows them) and the code builds values of their
 * `Static` types. Every member is always present, null when unset (docs/api-drafts.md). No `anyOf`/`oneOf`:
 * the serialiser would have to validate each value against the branches to pick one.
 */

const revision = Type.Integer({ minimum: 0, description: 'The revision of the draft after this request.' });
const texts = Type.Array(Type.String());
const nullableText = Nullable(Type.String());

/** A vertex in responses. */
export const VertexEnvelope = Type.Object({
  id: Type.String(),
  name: Type.String(),
  shared_state: nullableText,
  actions: texts,
  requirements: texts,
  properties: JsonObject,
});
export type VertexEnvelope = Static<typeof VertexEnvelope>;

/** An edge in responses; unset `weight` and `dependency` are null. */
export const EdgeEnvelope = Type.Object({
  id: Type.String(),
  name: Type.String(),
  source_vertex_id: nullableText,
  target_vertex_id: Type.String(),
  guard: nullableText,
  actions: texts,
  requirements: texts,
  properties: JsonObject,
  weight: Nullable(Type.Number()),
  dependency: Nullable(Type.Integer()),
});
export type EdgeEnvelope = Static<typeof EdgeEnvelope>;

/** The draft and its model-level fields, as `POST` and `PATCH /walker/drafts[/{draft_id}]` answer. */
export const DraftSummary = Type.Object(
  {
    draft_id: Type.String(),
    model_id: Type.String(),
    revision,
    name: nullableText,
    generator: nullableText,
    start_element_id: nullableText,
    actions: texts,
    requirements: texts,
    properties: JsonObject,
    predefined_path_edge_ids: texts,
  },
  { description: 'The draft: its id, model id, revision and model-level fields.' },
);
export type DraftSummary = Static<typeof DraftSummary>;

const described = (description: string) => ({ description });

export const VertexResponse = Type.Object({ vertex: VertexEnvelope, revision }, described('The vertex as stored.'));
export const EdgeResponse = Type.Object({ edge: EdgeEnvelope, revision }, described('The edge as stored.'));

/**
 * The model is an open object here, not the model file schema the load body is documented with: the
 * serialiser then hands it to JSON.stringify whole, which writes a 40,000-element export in half the time the
 * code compiled from the full schema takes, and keeps the export's member order as it is.
 */
const ModelFile = Type.Unsafe<ModelFileJson>({
  type: 'object',
  additionalProperties: true,
  description: 'A model file, {"models": [...]}, in the format of the body of POST /walker/load.',
});

export const ExportResponse = Type.Object(
  { model: ModelFile, revision: Type.Integer({ minimum: 0, description: 'The revision exported.' }) },
  described('The draft as a model file that POST /walker/load accepts as it is.'),
);

export const RemovalResponse = Type.Object(
  {
    removed_ids: Type.Array(Type.String(), { description: 'The element first, then the edges removed with it.' }),
    revision,
  },
  described('What was removed.'),
);

export const DiscardResponse = Type.Object({ discarded: Type.Literal(true) }, described('The draft is gone.'));

/** One finding of draft validation. */
export const ValidationIssue = Type.Object({
  code: Type.String({ description: 'A model check code, or missing_generator, invalid_generator, ...' }),
  message: Type.String(),
  severity: Type.Enum(['error', 'warning'], {
    type: 'string',
    description: 'An error makes POST /walker/load refuse the export; a warning does not.',
  }),
  element_id: nullableText,
});
export type ValidationIssue = Static<typeof ValidationIssue>;

export const ValidationResponse = Type.Object(
  {
    valid: Type.Boolean({ description: 'True when no issue is an error.' }),
    issues: Type.Array(ValidationIssue, { description: 'Errors first, then warnings.' }),
    revision: Type.Integer({ minimum: 0, description: 'The revision judged.' }),
  },
  described('The issues POST /walker/load would find in the export.'),
);

/**
 * The body of every draft failure answered with `status`, for the OpenAPI document: the draft codes that carry
 * that status (server/drafts/errors.ts, their statuses from the one table), the message, and the place when
 * known. Here, not beside the table: what needs no schema (the commands of `walker` that run no server) then
 * loads no TypeBox.
 */
function errorBody(status: number) {
  const these = DRAFT_ERROR_CODES.filter((code: ApiErrorCode) => ApiErrors[code].status === status);
  const where = Type.Optional(Type.String());
  return Type.Object(
    {
      code: Type.Enum(these, { type: 'string' }),
      message: Type.String({ description: 'What to fix.' }),
      model_id: where,
      element_id: where,
      field: where,
    },
    { description: `${these.join(', ')}: see docs/api-drafts.md` },
  );
}

/** The statuses a draft route can fail with. */
export type ErrorStatus = 400 | 404 | 409 | 410 | 412 | 413 | 415 | 422 | 429 | 500 | 503;

/** What a route's answers carry besides their bodies (docs/api-drafts.md, Revisions and ETags). */
export interface RevisionHeaders {
  /** The success answer shows a revision, so it carries it as its `ETag`. */
  readonly etag?: boolean;
  /** The route answers 304 to an `If-None-Match` that names the current revision. */
  readonly notModified?: boolean;
}

const etagHeader = {
  ETag: {
    type: 'string',
    description: 'The revision of the draft as a strong ETag, e.g. "8": send it back in If-Match or If-None-Match.',
  },
};

const notModifiedAnswer = Type.Null({
  description: 'Not Modified: the draft is still at the revision that If-None-Match names. No body.',
  headers: etagHeader,
});

/**
 * A route's response schemas: its success body under its status and `{code, message}` under each failure
 * status (every route can fail with 500). Failures go through the same serialiser as successes. The body
 * schemas are shared by several routes, so a header is added to a copy.
 */
export function draftResponses<S extends TSchema, N extends number>(
  status: N,
  body: S,
  failures: readonly ErrorStatus[],
  headers: RevisionHeaders = {},
) {
  const errors = Object.fromEntries([...failures, 500].map((code) => [code, errorBody(code)]));
  const success = headers.etag ? { ...body, headers: etagHeader } : body;
  const unchanged = headers.notModified ? { 304: notModifiedAnswer } : {};
  return { ...errors, ...unchanged, [status]: success } as Record<number, TSchema> & { [K in N]: S };
}
