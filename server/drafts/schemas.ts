import { Type, type Static, type TSchema } from 'typebox';
import { Id } from './ids.js';

/**
 * The draft requests, each defined once as a TypeBox schema: the route validates the body (or the DELETE
 * query) against it and the handler's type is its `Static`. The schemas check shape only — members and their
 * types, unknown members refused; meaning (ranges, references, uniqueness) is checked by the planners, which
 * give those failures their own codes (`invalid_weight`, `unknown_vertex`, ...). A body that breaks its schema
 * answers 422 with the code of its {@link BodyContract} (docs/api-drafts.md), a query 400 `invalid_query`.
 */

/**
 * `T` or null, written `type: [T, 'null']` rather than TypeBox's `anyOf` union: Ajv then reports a single
 * `type` error and the 422 says "must be a string or null" (schema-errors.ts), where an `anyOf` would report
 * the first branch's error only ("must be a string").
 */
export function Nullable<T extends TSchema>(schema: T) {
  return Type.Unsafe<Static<T> | null>({ ...schema, type: [(schema as { type?: unknown }).type, 'null'] });
}

/** Any JSON object, as `properties` holds it (editors keep layout there). */
export const JsonObject = Type.Record(Type.String(), Type.Unknown(), { description: 'Any JSON object.' });
export type JsonObject = Static<typeof JsonObject>;

const text = (description: string) => Type.Optional(Nullable(Type.String({ description })));
const textList = (description: string) => Type.Optional(Nullable(Type.Array(Type.String(), { description })));
const id = (description: string) => Type.Optional(Nullable(Id(description)));
const number = (description: string) => Type.Optional(Nullable(Type.Number({ description })));
const jsonObject = Type.Optional(Nullable(JsonObject));
const expectedRevision = Type.Optional(
  Type.Integer({ minimum: 0, description: 'Apply the change only at this revision (else 409 revision_conflict).' }),
);
const strict = { additionalProperties: false } as const;

const elementMembers = {
  name: text('Defaults to the id; null puts that default back.'),
  actions: textList('JavaScript statements run when the element is walked.'),
  requirements: textList('Requirement ids the element covers.'),
  properties: jsonObject,
};
const vertexMembers = {
  ...elementMembers,
  shared_state: text('Name that links this vertex to vertices of other models.'),
  expected_revision: expectedRevision,
};
const edgeMembers = {
  ...elementMembers,
  source_vertex_id: text('Null or absent: a start edge.'),
  target_vertex_id: text('Required when adding; cannot be cleared.'),
  guard: text('JavaScript expression; the edge is open while it is true.'),
  weight: number('0.0 to 1.0, for weighted_random.'),
  dependency: number('Whole number 0 to 100, for dependency_edge_coverage.'),
  expected_revision: expectedRevision,
};
const modelMembers = {
  name: text('The model name.'),
  generator: text("Generator and stop condition, e.g. 'random(edge_coverage(100))'."),
  actions: textList('Model actions, run when a walk starts.'),
  requirements: textList('Requirement ids of the model.'),
  properties: jsonObject,
};

const UNIQUE_ID = 'Unique across vertices and edges; assigned when absent.';

/** Body of `POST /walker/drafts`. */
export const DraftCreateInput = Type.Object(
  { model_id: id('Fixed for the life of the draft; default model-<8 hex digits>.'), ...modelMembers },
  strict,
);
export type DraftCreateInput = Static<typeof DraftCreateInput>;

/** Body of `PATCH /walker/drafts/{draft_id}`: absent keeps a member, null puts back its default. */
export const DraftPatchInput = Type.Object(
  {
    ...modelMembers,
    start_element_id: text('A vertex or edge of the draft.'),
    predefined_path_edge_ids: textList('Edges of the draft, in walking order.'),
    expected_revision: expectedRevision,
  },
  strict,
);
export type DraftPatchInput = Static<typeof DraftPatchInput>;

/** Where a new element goes in its list: before this one of its kind; absent or null, at the end. */
const before = (kind: string) => text(`Put the new ${kind} before this ${kind} of the draft in the export's order; absent or null: at the end.`);

/** Body of `POST .../vertices`; the id is assigned when absent. */
export const VertexCreateInput = Type.Object({ id: id(UNIQUE_ID), before: before('vertex'), ...vertexMembers }, strict);
/** Body of `PATCH .../vertices/{vertex_id}`: absent keeps a member, null puts back its default. */
export const VertexPatchInput = Type.Object(vertexMembers, strict);
/** What the vertex planners read: either body. */
export type VertexInput = Static<typeof VertexCreateInput>;

/** Body of `POST .../edges`. */
export const EdgeCreateInput = Type.Object({ id: id(UNIQUE_ID), before: before('edge'), ...edgeMembers }, strict);
/** Body of `PATCH .../edges/{edge_id}`. */
export const EdgePatchInput = Type.Object(edgeMembers, strict);
/** What the edge planners read: either body. */
export type EdgeInput = Static<typeof EdgeCreateInput>;

/** What a body schema is about, and the code its violations answer with. */
export interface BodyContract<S extends TSchema = TSchema> {
  readonly schema: S;
  /** `invalid_model` for draft requests, `invalid_element` for vertex and edge requests. */
  readonly code: 'invalid_model' | 'invalid_element';
  /** How messages name the body: `draft`, `vertex`, `edge`. */
  readonly subject: 'draft' | 'vertex' | 'edge';
  /** Members that exist but may not be sent here, with the reason. */
  readonly fixed?: Readonly<Record<string, string>>;
}

const ID_FIXED = 'ids never change: delete the element and add it again with the new id';

export const BodyContracts = {
  createDraft: {
    schema: DraftCreateInput,
    code: 'invalid_model',
    subject: 'draft',
    fixed: {
      start_element_id: 'a new draft has no elements yet: set it with PATCH /walker/drafts/{draft_id}',
      predefined_path_edge_ids: 'a new draft has no edges yet: set it with PATCH /walker/drafts/{draft_id}',
    },
  },
  patchDraft: {
    schema: DraftPatchInput,
    code: 'invalid_model',
    subject: 'draft',
    fixed: { model_id: 'the model id is fixed when the draft is created' },
  },
  addVertex: { schema: VertexCreateInput, code: 'invalid_element', subject: 'vertex' },
  patchVertex: { schema: VertexPatchInput, code: 'invalid_element', subject: 'vertex', fixed: { id: ID_FIXED } },
  addEdge: { schema: EdgeCreateInput, code: 'invalid_element', subject: 'edge' },
  patchEdge: { schema: EdgePatchInput, code: 'invalid_element', subject: 'edge', fixed: { id: ID_FIXED } },
} as const satisfies Record<string, BodyContract>;

/** The request headers of a change: `If-Match` makes it conditional (docs/api-drafts.md, Revisions and ETags). */
export const ChangeHeaders = Type.Object({
  'if-match': Type.Optional(
    Type.String({ description: 'Apply the change only at this ETag, e.g. "8" (else 412 precondition_failed).' }),
  ),
});

/** The request headers of a read: `If-None-Match` revalidates a copy the client has. */
export const ReadHeaders = Type.Object({
  'if-none-match': Type.Optional(
    Type.String({ description: 'Answer 304 without a body while the draft is still at this ETag, e.g. "8".' }),
  ),
});

/**
 * The query of the export: the format to export in, when not walker's JSON (which `Accept` may also ask
 * for). The route checks the name against the formats that can write, which plugins may add to.
 */
export const ExportQuery = Type.Object(
  {
    format: Type.Optional(
      Type.String({ description: "A model format that can write, e.g. 'graphml' (yEd) or 'dot'; default json." }),
    ),
  },
  strict,
);
export type ExportQuery = Static<typeof ExportQuery>;

/**
 * The query of `DELETE .../elements/{element_id}`, as the URL carries it (strings; the route converts them).
 * `type: 'string'` beside the enum is what refuses a repeated parameter, which arrives as a list.
 */
const flag = (description: string) => Type.Optional(Type.Enum(['true', 'false'], { type: 'string', description }));
export const DeleteElementQuery = Type.Object(
  {
    cascade: flag("Also delete a vertex's edges (default false)."),
    cleanup_references: flag('Clear start_element_id and path entries naming what is deleted (default false).'),
    expected_revision: Type.Optional(
      Type.String({ pattern: '^(0|[1-9][0-9]{0,14})$', description: 'Delete only at this revision (a whole number).' }),
    ),
  },
  strict,
);
export type DeleteElementQuery = Static<typeof DeleteElementQuery>;
