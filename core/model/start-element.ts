import type { ElementScope } from './element-scope.js';
import { IssueReporter, ModelIssueCodes } from './issue-reporter.js';
import { startNamed, type NamedStart } from './start-by-name.js';
import type { EdgeJson, ModelJson } from './types.js';

/**
 * Where a model's walk starts (docs/behaviour.md, "Start element"): the one place that decides it, for every
 * format, on the elements a load keeps (blocked ones are left out before). `--start-element` names it (`named`:
 * the element of that name, whatever `startElementId` says); else the model's `startElementId`; else the file
 * marks the start one of the two other ways GraphWalker's own models use: an edge without a source (or whose
 * `sourceVertexId` names no vertex, `"Start"` in its Java examples), and yEd's convention of a vertex named
 * `Start` that nothing enters, whose out-edge starts the walk ({@link inferStart}). A model that names its
 * start keeps every vertex, as GraphWalker's JSON reader does.
 *
 * Returns the model, with `startElementId` set (in its canonical place) when one was found.
 */
export function settleStart(model: ModelJson, scope: ElementScope, r: IssueReporter, named?: NamedStart): ModelJson {
  const settled =
    named !== undefined ? withStart(model, startNamed(model, named), model.vertices) : model.startElementId === undefined ? inferStart(model, r) : model;
  reportUnknownSources(settled, scope);
  return settled;
}

/** How many candidate ids a message lists before it says how many more there are. */
const LISTED = 5;

/**
 * The start of a model that names none, from its marks: when exactly one edge is marked (no source, or leaving a
 * vertex named `Start` that nothing enters), it becomes the start element, and a `Start` vertex that marked it
 * is left out, as GraphWalker's yEd reader leaves it out: it only marks the start, and is no state of the
 * system to visit or count. Several marked edges, or a `Start` vertex that no edge leaves, are warnings on `r`:
 * walker does not guess, and a walk with no other start is refused. Formats whose readers are answered as read
 * (a conversion) call it too, so that what they answer is the model a load walks.
 */
export function inferStart(model: ModelJson, r: IssueReporter = new IssueReporter(model.id ?? null)): ModelJson {
  const markers = startMarkers(model);
  const candidates = model.edges.filter((e) => e.sourceVertexId === undefined || markers.has(e.sourceVertexId));
  if (candidates.length === 0) {
    if (markers.size > 0) {
      const problem =
        `is not set, and vertex '${[...markers][0]}' is named Start, which marks the edge the walk starts on, but no ` +
        'edge leaves it: draw that edge from it, or set startElementId to the id of the element to start from';
      r.warning(ModelIssueCodes.START_VERTEX_WITHOUT_EDGE, 'startElementId', problem);
    }
    return model;
  }
  if (candidates.length > 1) {
    const problem =
      `is not set, and ${candidates.length} edges could start the walk (${listIds(candidates)}): edges without a ` +
      "source or leaving a vertex named 'Start'; set it to the id of the one to start from";
    r.warning(ModelIssueCodes.AMBIGUOUS_START, 'startElementId', problem);
    return model;
  }
  const start = candidates[0];
  const marker = start.sourceVertexId;
  let vertices = model.vertices;
  if (marker !== undefined) {
    delete start.sourceVertexId;
    vertices = vertices.filter((v) => v.id !== marker);
  }
  return withStart(model, start.id, vertices);
}

/**
 * A model file as a format read it, each model that names no start given the one its marks make
 * ({@link inferStart}; warnings are left to a load): for what answers a reader's result as it is (the editor's
 * import through `POST /walker/drafts/convert`, the WebSocket's `convertGraphml`), so that it starts where a
 * load of all its elements starts, as GraphWalker's yEd reader answers it. A load does not use it: it settles the
 * start once blocked elements are left out. A value that is no list of models is answered as it is.
 */
export function withInferredStarts<T>(file: T): T {
  const models = (file as { models?: unknown } | null)?.models;
  if (!Array.isArray(models)) return file;
  const isObject = (x: unknown): x is object => typeof x === 'object' && x !== null;
  const drawn = (m: unknown): m is ModelJson =>
    isObject(m) && [(m as ModelJson).vertices, (m as ModelJson).edges].every((list) => Array.isArray(list) && list.every(isObject));
  (file as { models: unknown[] }).models = models.map((m) => (drawn(m) && m.startElementId === undefined ? inferStart(m) : m));
  return file;
}

/** Vertices named `Start` (in any case) that no edge enters. */
function startMarkers(model: ModelJson): Set<string> {
  const markers = new Set<string>();
  for (const v of model.vertices) if (typeof v.name === 'string' && v.name.toLowerCase() === 'start') markers.add(v.id);
  if (markers.size > 0) for (const e of model.edges) markers.delete(e.targetVertexId);
  return markers;
}

/** The model with its start element, keeping the canonical field order of types.ts. */
function withStart(model: ModelJson, startElementId: string, vertices: ModelJson['vertices']): ModelJson {
  const { id, name, generator, startElementId: _replaced, ...rest } = model;
  // A format's reader may leave the id to the load.
  const ordered = (id === undefined ? {} : { id }) as ModelJson;
  if (name !== undefined) ordered.name = name;
  if (generator !== undefined) ordered.generator = generator;
  ordered.startElementId = startElementId;
  return Object.assign(ordered, rest, { vertices });
}

/**
 * An edge read without a source because its `sourceVertexId` names no vertex is fine as the start element;
 * any other such edge can never be walked, which is most likely a misspelt id.
 */
function reportUnknownSources(model: ModelJson, scope: ElementScope): void {
  if (scope.unknownSources.length === 0) return;
  const kept = new Set(model.edges.map((e) => e.id));
  for (const { edgeId, named } of scope.unknownSources) {
    if (edgeId === model.startElementId || !kept.has(edgeId)) continue;
    scope.issues.at('edge', edgeId);
    const problem =
      `names no vertex of this model ('${named}'), so the edge has no source, as GraphWalker reads it, and only ` +
      'the start element may lack one: the walk never takes it. Give the id of the vertex it leaves, or make it ' +
      "the model's startElementId";
    scope.issues.warning(ModelIssueCodes.UNKNOWN_SOURCE_VERTEX, 'sourceVertexId', problem);
  }
}

function listIds(edges: readonly EdgeJson[]): string {
  const shown = edges.slice(0, LISTED).map((e) => `'${e.id}'`).join(', ');
  return edges.length > LISTED ? `${shown} and ${edges.length - LISTED} more` : shown;
}
