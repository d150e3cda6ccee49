import { EDGE, ElementScope, LEFT_OUT, VERTEX } from './element-scope.js';
import { asText, describeValue, isObject, readProperties, readText, readTextList, type RawObject } from './fields.js';
import { IssueReporter, ModelIssueCodes, type ModelIssue } from './issue-reporter.js';
import { checkEmptyItems } from './element-rules.js';
import { normaliseEdge, normaliseVertex } from './normalise-elements.js';
import type { NamedStart } from './start-by-name.js';
import { settleStart } from './start-element.js';
import type { ModelJson } from './types.js';

/**
 * Hands out model ids: the given id, or for a model without one its name, else `model-<index>` — never random,
 * so that the same file always yields the same ids and a seeded walk replays identically.
 */
export class ModelIdRegistry {
  /** Every explicit id of the file: a generated id must not take one that a later model states. */
  private readonly explicit = new Set<string>();
  /** Ids handed out so far, with the position of the model that has it. */
  private readonly used = new Map<string, number>();

  constructor(rawModels: readonly unknown[]) {
    for (const raw of rawModels) {
      const id = isObject(raw) ? asText(raw.id) : undefined;
      if (id) this.explicit.add(id);
    }
  }

  /**
   * The id of the model at `index`, and when an earlier model already has it (an error the caller reports),
   * that model's position.
   */
  claim(raw: RawObject, index: number): { id: string; earlier?: number } {
    const given = asText(raw.id);
    if (given) {
      const earlier = this.used.get(given);
      if (earlier !== undefined) return { id: given, earlier };
      this.used.set(given, index);
      return { id: given };
    }
    const name = asText(raw.name);
    const base = name || `model-${index}`;
    let id = base;
    for (let n = 2; this.explicit.has(id) || this.used.has(id); n++) id = `${base}-${n}`;
    this.used.set(id, index);
    return { id };
  }
}

/** A normalised model (undefined when `models[index]` is not an object) and its issues in stable order. */
export interface NormalisedModel {
  model?: ModelJson;
  issues: ModelIssue[];
}

/**
 * Normalises `models[index]`: its own fields, then its vertices and edges in order, then its start element
 * (start-element.ts) and the fields that name elements (`startElementId`, `predefinedPathEdgeIds`). Issues
 * about the model come before those about its elements. With `blocked`, blocked elements are left out of the
 * result, before the start is settled; `named` is `--start-element` for the file's first model.
 */
export function normaliseModel(
  raw: unknown,
  index: number,
  ids: ModelIdRegistry,
  blocked: boolean,
  forConversion = false,
  named?: NamedStart,
): NormalisedModel {
  if (!isObject(raw)) {
    const issues = new IssueReporter();
    issues.invalidField(`models[${index}]`, `must be an object, got ${describeValue(raw)}`);
    return { issues: issues.issues };
  }
  const { id, earlier } = ids.claim(raw, index);
  const r = new IssueReporter(id);
  let model = { id } as ModelJson;
  readModelFields(raw, earlier, model, r);
  const vertices = elementList(raw, 'vertices', r);
  const edges = elementList(raw, 'edges', r);
  const scope = new ElementScope(id, blocked, forConversion, vertices, edges);
  // Vertices first: edges name them.
  model.vertices = [];
  for (let i = 0; i < vertices.length; i++) {
    const vertex = normaliseVertex(vertices[i], i, scope);
    if (vertex) model.vertices.push(vertex);
  }
  model.edges = [];
  for (let i = 0; i < edges.length; i++) {
    const edge = normaliseEdge(edges[i], i, scope);
    if (edge) model.edges.push(edge);
  }
  model = settleStart(model, scope, r, named);
  readElementReferences(raw, model, scope, r);
  return { model, issues: r.issues.concat(scope.issues.issues) };
}

/**
 * The model's own fields, in canonical order, up to (not including) its elements. `earlier` is the position of
 * a model that already has this model's id.
 */
function readModelFields(raw: RawObject, earlier: number | undefined, model: ModelJson, r: IssueReporter): void {
  if (asText(raw.id) === null) r.invalidField('id', `must be a string, got ${describeValue(raw.id)}`);
  if (earlier !== undefined) {
    const problem =
      `Id of the model is not unique: models[${earlier}] has this id too; model ids must be unique within a file`;
    r.error(ModelIssueCodes.DUPLICATE_MODEL_ID, 'id', problem);
  }
  const name = readText(raw.name, 'name', r);
  if (name !== undefined) model.name = name;
  const generator = readText(raw.generator, 'generator', r);
  if (generator !== undefined) model.generator = generator;
  // Checked against the elements later; kept here so that the field order stays canonical.
  const start = readText(raw.startElementId, 'startElementId', r);
  if (start) model.startElementId = start;
  const actions = readTextList(raw.actions, 'actions', r);
  if (actions !== undefined) model.actions = actions;
  const requirements = readTextList(raw.requirements, 'requirements', r);
  if (requirements !== undefined) model.requirements = requirements;
  const properties = readProperties(raw.properties, r);
  if (properties !== undefined) model.properties = properties;
  checkEmptyItems(model, r);
}

/** `vertices` or `edges` as given; a missing list is an empty one. */
function elementList(raw: RawObject, key: 'vertices' | 'edges', r: IssueReporter): readonly unknown[] {
  const list = raw[key];
  if (Array.isArray(list)) return list;
  if (list !== undefined && list !== null) r.invalidField(key, `must be a list, got ${describeValue(list)}`);
  return [];
}

/** Checks `startElementId` and reads `predefinedPathEdgeIds`, which must name kept elements of this model. */
function readElementReferences(raw: RawObject, model: ModelJson, scope: ElementScope, r: IssueReporter): void {
  if (model.startElementId !== undefined) {
    const problem = referenceProblem(model.startElementId, VERTEX | EDGE, scope, 'start element');
    if (problem && enteredThroughSharedState(model, scope)) delete model.startElementId;
    else if (problem) r.report(scope.forConversion ? 'warning' : 'error', ModelIssueCodes.UNKNOWN_START_ELEMENT, 'startElementId', problem);
  }
  const path = readTextList(raw.predefinedPathEdgeIds, 'predefinedPathEdgeIds', r);
  if (path === undefined) return;
  model.predefinedPathEdgeIds = path;
  for (let i = 0; i < path.length; i++) {
    if (path[i] === undefined) continue;
    const problem = referenceProblem(path[i], EDGE, scope, 'edge');
    const field = `predefinedPathEdgeIds[${i}]`;
    if (problem) r.report(scope.forConversion ? 'warning' : 'error', ModelIssueCodes.UNKNOWN_PREDEFINED_PATH_EDGE, field, problem);
  }
}

/**
 * A start id that names nothing at all in a model with a shared state is ignored, as GraphWalker ignores it: the
 * walk enters such a model through its shared state (AltWalker's own two-model example copies the first model's
 * start id into the second). One that names a left-out element is still an error: that is a choice to fix.
 */
function enteredThroughSharedState(model: ModelJson, scope: ElementScope): boolean {
  return scope.flagsOf(model.startElementId as string) === undefined && model.vertices.some((v) => v.sharedState !== undefined);
}

/** What is wrong with an element id that must name a kept element of one of the `kinds`, or undefined. */
function referenceProblem(id: string, kinds: number, scope: ElementScope, wanted: string): string | undefined {
  const flags = scope.flagsOf(id);
  if (flags === undefined) {
    return `names no ${kinds & VERTEX ? 'vertex or edge' : 'edge'} of this model ('${id}')`;
  }
  if ((flags & kinds) === 0) return `names a vertex ('${id}'), not an edge`;
  if (flags & LEFT_OUT) {
    const why = scope.leftOutReason(id);
    return `names '${id}', which is left out of the walk because ${why}; choose another ${wanted} or unblock it`;
  }
  return undefined;
}
