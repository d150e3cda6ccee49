import { Type } from 'typebox';
import { apiError } from '../../api-error.js';
import { exportModelFile } from '../../drafts/export.js';
import { draftResponses, ValidationIssue } from '../../drafts/responses.js';
import type { BodyContract } from '../../drafts/schemas.js';
import { validateModelFile } from '../../drafts/validation.js';
import { operation, withBody, type DraftApp, type DraftRouteContext } from './draft-routes.js';

/** As many drafts as an editor may hold side by side. */
const MAX_DRAFTS = 100;

const JointInput = Type.Object(
  { draft_ids: Type.Array(Type.String({ maxLength: 100 }), { minItems: 1, maxItems: MAX_DRAFTS, description: 'The drafts, in the order of the file.' }) },
  { additionalProperties: false },
);

const contract: BodyContract<typeof JointInput> = { schema: JointInput, code: 'invalid_model', subject: 'draft' };

const JointValidation = Type.Object({
  valid: Type.Boolean(),
  issues: Type.Array(Type.Object({ ...ValidationIssue.properties, model_id: Type.Union([Type.String(), Type.Null()], { description: 'The model the issue concerns.' }) })),
  revisions: Type.Array(Type.Integer({ minimum: 0 }), { description: 'The revision of each draft judged, in the order asked.' }),
});

/**
 * `POST /walker/drafts/joint-validation`: several drafts judged as one model file, their exports in the order
 * given, as `load` would judge that file (docs/editor.md): shared states link them, and a model entered only
 * through one needs no start element of its own. Reads only; each issue names its model.
 */
export function registerJointValidation(app: DraftApp, { store, walker, validation, maxElements }: DraftRouteContext): void {
  const options = withBody(contract, {
    ...operation('validateDrafts', 'Validate several drafts together, as one model file', 'Changes nothing.'),
    response: draftResponses(200, JointValidation, [400, 404, 410, 413, 415, 422]),
  });
  app.post('/joint-validation', options, async (request) => {
    const ids = request.body.draft_ids;
    // Validation runs on the event loop in proportion to the file: the same draft a hundred times, or drafts that
    // together outgrow one, would hold it for as long as a hundred drafts take (issue 21).
    const seen = new Set<string>();
    let elements = 0;
    for (const id of ids) {
      if (seen.has(id)) throw apiError('invalid_model', `Member 'draft_ids' names the draft '${id}' twice: name each draft once.`);
      seen.add(id);
      elements += store.read(id).model.size;
    }
    if (elements > maxElements) {
      throw apiError(
        'invalid_model',
        `The drafts hold ${elements} vertices and edges together, more than one draft may hold on this server (--max-draft-elements, ${maxElements}): validate fewer at once.`,
      );
    }
    return walker.reserved((reservation) => {
      const drafts = ids.map((id) => store.read(id));
      const file = { models: drafts.flatMap((draft) => exportModelFile(draft.model).models) };
      return { ...validateModelFile(file, walker, validation, reservation), revisions: drafts.map((d) => d.revision) };
    });
  });
}
