/**
 * JSON Schemas of the draft requests: the shape of each body (members and their types, unknown members
 * refused) and of the DELETE query. Meaning — ranges, references, uniqueness — is checked by the planners,
 * which give those failures their own codes (`invalid_weight`, `unknown_vertex`, ...). A request that breaks
 * a schema answers 422 with the code of its {@link BodyContract} (docs/api-drafts.md), or 400 `invalid_query`.
 */

const text = { type: 'string' } as const;
const nullableText = { type: ['string', 'null'] } as const;
const nonEmptyId = { type: ['string', 'null'], minLength: 1 } as const;
const textList = { type: ['array', 'null'], items: text } as const;
const jsonObject = { type: ['object', 'null'] } as const;
const nullableNumber = { type: ['number', 'null'] } as const;
const revision = { type: 'integer', minimum: 0 } as const;

function objectSchema<P extends Record<string, object>>(properties: P) {
  return { type: 'object', additionalProperties: false, properties } as const;
}

const elementMembers = { name: nullableText, actions: textList, requirements: textList, properties: jsonObject };
const vertexMembers = { ...elementMembers, shared_state: nullableText, expected_revision: revision };
const edgeMembers = {
  ...elementMembers,
  source_vertex_id: nullableText,
  target_vertex_id: nullableText,
  guard: nullableText,
  weight: nullableNumber,
  dependency: nullableNumber,
  expected_revision: revision,
};
const modelMembers = {
  name: nullableText,
  generator: nullableText,
  actions: textList,
  requirements: textList,
  properties: jsonObject,
};

/** What a body schema is about, and the code its violations answer with. */
export interface BodyContract {
  readonly schema: object;
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
    schema: objectSchema({ model_id: nonEmptyId, ...modelMembers }),
    code: 'invalid_model',
    subject: 'draft',
    fixed: {
      start_element_id: 'a new draft has no elements yet: set it with PATCH /walker/drafts/{draft_id}',
      predefined_path_edge_ids: 'a new draft has no edges yet: set it with PATCH /walker/drafts/{draft_id}',
    },
  },
  patchDraft: {
    schema: objectSchema({
      ...modelMembers,
      start_element_id: nullableText,
      predefined_path_edge_ids: textList,
      expected_revision: revision,
    }),
    code: 'invalid_model',
    subject: 'draft',
    fixed: { model_id: 'the model id is fixed when the draft is created' },
  },
  addVertex: { schema: objectSchema({ id: nonEmptyId, ...vertexMembers }), code: 'invalid_element', subject: 'vertex' },
  patchVertex: {
    schema: objectSchema(vertexMembers),
    code: 'invalid_element',
    subject: 'vertex',
    fixed: { id: ID_FIXED },
  },
  addEdge: { schema: objectSchema({ id: nonEmptyId, ...edgeMembers }), code: 'invalid_element', subject: 'edge' },
  patchEdge: { schema: objectSchema(edgeMembers), code: 'invalid_element', subject: 'edge', fixed: { id: ID_FIXED } },
} as const satisfies Record<string, BodyContract>;

const flag = { type: 'string', enum: ['true', 'false'] } as const;

/** The query of `DELETE .../elements/{id}`: values as the URL carries them, converted by the route. */
export const deleteElementQuery = objectSchema({
  cascade: flag,
  cleanup_references: flag,
  expected_revision: { type: 'string', pattern: '^(0|[1-9][0-9]{0,14})$' },
});
