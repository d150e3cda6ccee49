import { Type } from 'typebox';
import { checkScript } from '../../drafts/script-check.js';
import { apiError } from '../../api-error.js';
import { draftResponses } from '../../drafts/responses.js';
import type { BodyContract } from '../../drafts/schemas.js';
import { operation, withBody, type DraftApp, type DraftRouteContext } from './draft-routes.js';

/**
 * The most text checked at once, one string or the list together: a script longer than this is no typing, and
 * the check compiles on the event loop (15 lists of 64 KiB, within the 1 MiB body, held it 2.9 s on the busy
 * machine; docs/benchmarks.md).
 */
const MAX_SOURCE = 64 * 1024;

const source = Type.String({ maxLength: MAX_SOURCE });
const ScriptCheckInput = Type.Object(
  {
    kind: Type.Enum(['guard', 'actions', 'generator'], { type: 'string', description: 'What the text is.' }),
    source: Type.Union([source, Type.Array(source, { maxItems: 1000 })], {
      description: 'The guard, the generator string, or the actions (one string each).',
    }),
  },
  { additionalProperties: false },
);

const contract: BodyContract<typeof ScriptCheckInput> = { schema: ScriptCheckInput, code: 'invalid_model', subject: 'draft' };

const ScriptVerdict = Type.Object({
  valid: Type.Boolean(),
  message: Type.Optional(Type.String()),
  line: Type.Optional(Type.Integer()),
  column: Type.Optional(Type.Integer()),
  index: Type.Optional(Type.Union([Type.Integer(), Type.Null()])),
});

/**
 * `POST /walker/drafts/script-check`: the editor's parse as you type (docs/editor.md). The page cannot hold the
 * service's script engine (QuickJS) nor its plugins' names, so it asks here; nothing is stored or run.
 */
export function registerScriptCheck(app: DraftApp, { registries }: DraftRouteContext): void {
  const options = withBody(contract, {
    ...operation('checkScript', 'Parse a guard, actions or a generator string as load would', 'Nothing runs and nothing is stored.'),
    response: draftResponses(200, ScriptVerdict, [400, 413, 415, 422]),
  });
  app.post('/script-check', options, async (request) => {
    const { kind, source } = request.body;
    const length = typeof source === 'string' ? source.length : source.reduce((sum, item) => sum + item.length, 0);
    if (length > MAX_SOURCE) {
      throw apiError('invalid_model', `Member 'source' holds ${length} characters; script-check takes up to ${MAX_SOURCE} at once: check the scripts in several requests.`);
    }
    return checkScript(registries, kind, source);
  });
}
