import { ErrorCodes, WalkerError } from '../../core/errors.js';
import type { ModelFormat } from '../../core/format.js';
import { readModelValue } from '../../core/model/formats.js';
import { withInferredStarts } from '../../core/model/start-element.js';
import type { ModelFileJson } from '../../core/model/types.js';
import type { Registries } from '../../core/plugin.js';

/**
 * The work of a conversion, the same wherever it runs: on the event loop for a small text, in the conversion
 * thread (conversion-worker.ts) for a large one. Whatever it answers or throws is plain data or an error that
 * crosses a thread as it is, so that a conversion answers the same in both places.
 */

/** `POST /walker/drafts/convert`'s work: a model file's text, and the format to write it in (none: JSON). */
export interface FileConversion {
  readonly text: string;
  readonly fileName?: string;
  /** A format that writes, by its registered name; the route has checked it. */
  readonly format?: string;
}

/**
 * The model file as JSON text (made where the conversion ran: a value would cost the event loop its copy from
 * the thread and its serialisation again), or the text written, or why the text cannot be converted (a 422's
 * message).
 */
export type FileConversionOutcome = { readonly json: string } | { readonly text: string } | { readonly refused: string };

/** Reads `text` in its format and answers it as JSON, or written in `format`; a refusal says what is wrong. */
export function convertFile(registries: Registries, { text, fileName, format }: FileConversion): FileConversionOutcome {
  let model: unknown;
  try {
    model = withInferredStarts(readModelValue(text, registries.formats, fileName));
  } catch (error) {
    return { refused: `The model file does not read: ${messageOf(error)}` };
  }
  if (typeof model !== 'object' || model === null || !Array.isArray((model as { models?: unknown }).models)) {
    return { refused: 'The model file has no list of models: a model file is {"models": [...]}.' };
  }
  if (format === undefined) return { json: JSON.stringify(model) };
  const writer = writerNamed(registries, format);
  try {
    return { text: writer.write(model as ModelFileJson) };
  } catch (error) {
    return { refused: `The model file cannot be written as ${writer.name}: ${messageOf(error)}` };
  }
}

/** The WebSocket's `convertGraphml`: the models of a GraphML document as JSON text. Throws what the reader throws. */
export function graphmlAsJson(registries: Registries, text: string): string {
  const graphml = registries.formats.values().find((format) => format.name === 'graphml');
  if (graphml?.read === undefined) throw new WalkerError(ErrorCodes.UNKNOWN_NAME, 'No GraphML format is registered, so convertGraphml cannot read the document.');
  return JSON.stringify(withInferredStarts(graphml.read(text, {})));
}

/** A model file written in `format` (a draft's export). Throws what the format throws. */
export function writeModel(registries: Registries, format: string, model: ModelFileJson): string {
  return writerNamed(registries, format).write(model);
}

function writerNamed(registries: Registries, name: string): ModelFormat & { write: NonNullable<ModelFormat['write']> } {
  const format = registries.formats.find(name);
  if (format?.write === undefined) throw new Error(`No registered format named '${name}' writes models.`);
  return format as ModelFormat & { write: NonNullable<ModelFormat['write']> };
}

/** A thrown value's text: plugins may throw anything. */
function messageOf(thrown: unknown): string {
  return thrown instanceof Error ? thrown.message : String(thrown);
}
