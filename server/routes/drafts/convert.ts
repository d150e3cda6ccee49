import { Type } from 'typebox';
import { apiError } from '../../api-error.js';
import { draftResponses } from '../../drafts/responses.js';
import { JsonObject, type BodyContract } from '../../drafts/schemas.js';
import { operation, withBody, type DraftApp, type DraftRouteContext } from './draft-routes.js';
import { exportFormat } from './export-format.js';

const ConvertInput = Type.Object(
  {
    text: Type.String({ description: 'A model file in any format walker reads (JSON, yEd GraphML, ...).' }),
    file_name: Type.Optional(Type.String({ maxLength: 255, description: "The file's name, whose extension names its format." })),
    format: Type.Optional(Type.String({ description: "The format to answer in: 'json' (default) or any format walker writes." })),
  },
  { additionalProperties: false },
);

const contract: BodyContract<typeof ConvertInput> = { schema: ConvertInput, code: 'invalid_model', subject: 'draft' };

const Converted = Type.Object({
  model: Type.Optional(JsonObject),
  text: Type.Optional(Type.String()),
});

/**
 * `POST /walker/drafts/convert`: reads a model file in any format the service reads and answers it as JSON (the
 * editor opens a dropped GraphML file this way, then builds drafts of it) or writes it in another format (the
 * editor's export of several drafts as one file). The page holds no format of its own; nothing is stored. A
 * large text is converted in the conversion thread (server/conversion/conversions.ts).
 */
export function registerConvert(app: DraftApp, { registries, conversions }: DraftRouteContext): void {
  const options = withBody(contract, {
    ...operation('convertModel', 'Read a model file and answer it as JSON or in another format', 'Nothing is stored.'),
    response: draftResponses(200, Converted, [400, 413, 415, 422, 503]),
  });
  app.post('/convert', options, async (request, reply) => {
    const { text, file_name: fileName, format: name } = request.body;
    let format: ReturnType<typeof exportFormat>;
    try {
      format = exportFormat(registries.formats, name, undefined);
    } catch (error) {
      throw apiError('invalid_model', (error as Error).message.replace("Query parameter 'format'", "Member 'format'"));
    }
    const outcome = await conversions.convertFile({ text, ...(fileName === undefined ? {} : { fileName }), ...(format === undefined ? {} : { format: format.name }) });
    if ('refused' in outcome) throw apiError('invalid_model', outcome.refused);
    if ('text' in outcome) return outcome;
    // JSON text already: Fastify sends a string of a JSON type as it is, without serialising it again.
    return reply.type('application/json; charset=utf-8').send(`{"model":${outcome.json}}`);
  });
}
