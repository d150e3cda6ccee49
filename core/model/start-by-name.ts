import { ErrorCodes, WalkerError } from '../errors.js';
import { asText, isBlocked, isObject, type RawObject } from './fields.js';

/**
 * `--start-element <name>` (GraphWalker's `-e`): the vertex or edge of that name in the first model of a
 * model file becomes that model's start element, whatever its `startElementId` says. It works on the file as
 * read, before it is loaded, so that a model without any start element of its own can be walked from one.
 * Elements a load leaves out (blocked ones, with `blocked`) are not candidates.
 *
 * A file that is no model file is returned as it is: loading it says what is wrong.
 */
export function withStartElement(value: unknown, name: string, file: string, blocked: boolean): unknown {
  const raw = isObject(value) ? value : undefined;
  const models = Array.isArray(raw?.models) ? raw.models : undefined;
  const model = models?.[0];
  if (raw === undefined || models === undefined || !isObject(model)) return value;
  const matches = namedElements(model, name, blocked);
  const where = describeModel(model);
  if (matches.length === 0) {
    throw startElementError(
      `--start-element Did not find matching element in the model: '${file}'. No vertex or edge of ${where} is named '${name}'.`,
    );
  }
  if (matches.length > 1) {
    const ids = matches.map((m) => `'${asText(m.id) ?? ''}'`).join(', ');
    throw startElementError(
      `--start-element There are more than one matching element in the model: '${file}'. ` +
        `${matches.length} elements of ${where} are named '${name}' (ids ${ids}); give the start a name of its own.`,
    );
  }
  const id = asText(matches[0].id);
  if (typeof id !== 'string' || id === '') {
    throw startElementError(`--start-element: the element named '${name}' in ${where} of '${file}' has no id; give it an "id".`);
  }
  return { ...raw, models: [{ ...model, startElementId: id }, ...models.slice(1)] };
}

/** The vertices and edges of the model with that name that a load keeps. */
function namedElements(model: RawObject, name: string, blocked: boolean): RawObject[] {
  const vertices = objects(model.vertices);
  const edges = objects(model.edges);
  const left = (element: RawObject): boolean => blocked && isBlocked(properties(element));
  // A load leaves out an edge of a blocked vertex with the vertex.
  const leftOutVertices = new Set(vertices.filter(left).map((v) => asText(v.id)).filter((id) => typeof id === 'string'));
  const touchesLeftOut = (id: unknown): boolean => {
    const text = asText(id);
    return typeof text === 'string' && leftOutVertices.has(text);
  };
  const kept = (edge: RawObject): boolean => !left(edge) && !touchesLeftOut(edge.sourceVertexId) && !touchesLeftOut(edge.targetVertexId);
  return [...vertices.filter((v) => !left(v)), ...edges.filter(kept)].filter((element) => element.name === name);
}

function describeModel(model: RawObject): string {
  return typeof model.name === 'string' && model.name !== '' ? `the first model ('${model.name}')` : 'the first model';
}

function startElementError(message: string): WalkerError {
  return new WalkerError(ErrorCodes.MODEL_INVALID, message);
}

function objects(value: unknown): RawObject[] {
  return Array.isArray(value) ? value.filter(isObject) : [];
}

function properties(element: RawObject): RawObject | undefined {
  return isObject(element.properties) ? element.properties : undefined;
}
