import { ErrorCodes, WalkerError } from '../errors.js';
import type { ModelJson } from './types.js';

/** `--start-element <name>` (GraphWalker's `-e`) for the first model of a model file. */
export interface NamedStart {
  /** The name of the vertex or edge to start from. */
  readonly name: string;
  /** The file the model comes from, as the messages name it. */
  readonly file: string;
}

/**
 * The id of the element `--start-element` names: the one vertex or edge of that name among those the load
 * keeps (the model as normalised, blocked elements left out). A name that no element or several have is an
 * error of the command line rather than of the model, in GraphWalker's words, so it is thrown, not reported.
 */
export function startNamed(model: ModelJson, { name, file }: NamedStart): string {
  const matches = [...model.vertices, ...model.edges].filter((element) => element.name === name);
  const where = model.name !== undefined && model.name !== '' ? `the first model ('${model.name}')` : 'the first model';
  const subject = { modelId: model.id };
  if (matches.length === 0) {
    const message = `--start-element Did not find matching element in the model: '${file}'. No vertex or edge of ${where} is named '${name}'.`;
    throw new WalkerError(ErrorCodes.MODEL_INVALID, message, subject);
  }
  if (matches.length > 1) {
    const ids = matches.map((m) => `'${m.id}'`).join(', ');
    const message =
      `--start-element There are more than one matching element in the model: '${file}'. ` +
      `${matches.length} elements of ${where} are named '${name}' (ids ${ids}); give the start a name of its own.`;
    throw new WalkerError(ErrorCodes.MODEL_INVALID, message, subject);
  }
  return matches[0].id;
}
