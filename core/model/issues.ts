import { Graph } from './graph.js';
import { IssueReporter, ModelIssueCodes, type ModelIssue } from './issue-reporter.js';
import { describeValue, isObject, readSeed, readText } from './fields.js';
import { ModelIdRegistry, normaliseModel } from './normalise-model.js';
import { unreachableElementIssues } from './reachability.js';
import type { ModelFileJson, ModelJson } from './types.js';

export { ModelIssueCodes, type ModelIssue, type ModelIssueCode } from './issue-reporter.js';

/** Options of {@link collectModelIssues} and the loaders. */
export interface ModelCheckOptions {
  /**
   * Where the value came from (a path). The loaders put it in front of the message of the error they throw;
   * issue messages leave it out, because drafts, which show the same issues, have no file.
   */
  source?: string;
  /**
   * Leave out elements whose `properties.blocked` is `true` or `"true"` (a blocked vertex with all its edges),
   * as GraphWalker does by default. Default true.
   */
  blocked?: boolean;
  /**
   * Require a start element (default true). False for a file read to be converted or listed, never walked:
   * the checks that need a start — some start element, models never entered, unreachable elements — are left
   * out, and the file is loaded as it is.
   */
  requireStart?: boolean;
  /**
   * The file is read to be written in another format (`walker convert`), never walked: the problems that only a
   * walk has — a weight or dependency out of range, a start element or predefined-path edge that names nothing
   * or a blocked element ({@link WALK_ONLY_ISSUES}) — are warnings, and the values are kept as written. Implies
   * `requireStart: false`.
   */
  forConversion?: boolean;
  /**
   * The file is one of several walked together (model-set.ts): the checks that need every model of the walk —
   * some start element, models never entered, unreachable elements — are left to {@link completeInspection}
   * of the files joined. Default false.
   */
  partOfSet?: boolean;
  /**
   * `--start-element`: the name of the vertex or edge the file's first model starts from, whatever its
   * `startElementId` says; looked up among the elements the load keeps. A name that no element or several have
   * is thrown as a `WALKER_MODEL_INVALID` error in GraphWalker's words, not reported as an issue.
   */
  startElement?: string;
}

/** What {@link collectModelIssues} found. */
export interface ModelIssueReport {
  /** The normalised model file; present only when no issue is an error. */
  file?: ModelFileJson;
  /** Every issue, in a stable order: file-level, then per model (model fields, vertices, edges), then warnings. */
  issues: ModelIssue[];
}

/** {@link ModelIssueReport} plus the graph, which the loader reuses instead of building it twice. */
export interface ModelInspection extends ModelIssueReport {
  graph?: Graph;
}

/**
 * Checks a parsed model file (the value of `JSON.parse`) and normalises it to the canonical form of
 * `types.ts`, accepting what GraphWalker accepts: unknown members, numeric strings for numbers,
 * `properties: []`, `sourceVertexId: null` for a start edge, missing ids (replaced by deterministic ones).
 * Never throws for a bad model: every problem becomes a {@link ModelIssue} (a bad `startElement` is thrown).
 */
export function collectModelIssues(value: unknown, options: ModelCheckOptions = {}): ModelIssueReport {
  const { file, issues } = inspectModelFile(value, options);
  return file ? { file, issues } : { issues };
}

/** {@link collectModelIssues}, also returning the {@link Graph} it built for the reachability check. */
export function inspectModelFile(value: unknown, options: ModelCheckOptions = {}): ModelInspection {
  const fileIssues = new IssueReporter();
  const rawModels = topLevelModels(value, fileIssues);
  if (!rawModels) return { issues: fileIssues.issues };
  const raw = value as Record<string, unknown>;

  const file = {} as ModelFileJson;
  const name = readText(raw.name, 'name', fileIssues);
  if (name !== undefined) file.name = name;
  const seed = readSeed(raw.seed, fileIssues);
  if (seed !== undefined) file.seed = seed;

  const requireStart = options.requireStart !== false && options.forConversion !== true;
  if (rawModels.length === 0 && requireStart) {
    const problem = "The file has no models: its 'models' list is empty; add a model with a 'startElementId' to walk it";
    fileIssues.error(ModelIssueCodes.NO_MODELS, null, problem);
    return { issues: fileIssues.issues };
  }
  const blocked = options.blocked !== false;
  const ids = new ModelIdRegistry(rawModels);
  const models: ModelJson[] = [];
  const modelIssues: ModelIssue[] = [];
  for (let i = 0; i < rawModels.length; i++) {
    const named = i === 0 && options.startElement !== undefined ? { name: options.startElement, file: options.source ?? 'the model file' } : undefined;
    const result = normaliseModel(rawModels[i], i, ids, blocked, options.forConversion === true, named);
    if (result.model) models.push(result.model);
    for (const issue of result.issues) modelIssues.push(issue);
  }
  file.models = models;
  if (!options.partOfSet && requireStart) return completeInspection(file, fileIssues.issues, modelIssues);
  const issues = fileIssues.issues.concat(modelIssues);
  if (issues.some(isError)) return { issues };
  // A part of a set is completed once the parts are joined; a file that is never walked is complete as it is.
  return options.partOfSet ? { file, issues } : { file, graph: new Graph(file), issues };
}

/**
 * The checks that need every model of a walk, on a normalised file (one file, or the files of a set joined):
 * some model has a start element, every model can be entered, every element can be reached. `leading` are
 * the file-level issues found so far, `modelIssues` those of the models; the result keeps the order of
 * {@link ModelIssueReport.issues} and has the graph when no issue is an error.
 */
export function completeInspection(
  file: ModelFileJson,
  leading: readonly ModelIssue[],
  modelIssues: readonly ModelIssue[],
): ModelInspection {
  const issues = [...leading, ...startIssues(file.models), ...modelIssues, ...modelsNeverEntered(file.models)];
  if (issues.some(isError)) return { issues };
  const graph = new Graph(file);
  const explained = unknownSourceEdges(issues);
  for (const warning of unreachableElementIssues(graph)) {
    if (!explained.has(`${warning.modelId}\0${warning.elementId}`)) issues.push(warning);
  }
  return { file, graph, issues };
}

/**
 * The issues that concern only a walk, which a file read to be converted has as warnings: its values, as
 * written, are what the other format writes ({@link ModelCheckOptions.forConversion}); and the start rules'
 * warnings, which say why such a file has no start element.
 */
export const WALK_ONLY_ISSUES: ReadonlySet<string> = new Set([
  ModelIssueCodes.INVALID_WEIGHT,
  ModelIssueCodes.INVALID_DEPENDENCY,
  ModelIssueCodes.UNKNOWN_START_ELEMENT,
  ModelIssueCodes.UNKNOWN_PREDEFINED_PATH_EDGE,
  ModelIssueCodes.AMBIGUOUS_START,
  ModelIssueCodes.START_VERTEX_WITHOUT_EDGE,
]);

/** True for an issue that makes the model unusable. */
export function isError(issue: ModelIssue): boolean {
  return issue.severity === 'error';
}

/** The `models` array, or undefined (with a `not_a_model_file` issue) when the value is no model file. */
function topLevelModels(value: unknown, issues: IssueReporter): unknown[] | undefined {
  // GraphWalker's own wording leads, so that users who know its message recognise it.
  const lead = 'The json file is not a valid GraphWalker model(s) file';
  if (!isObject(value)) {
    const problem = `${lead}: expected a JSON object with a 'models' array, got ${describeValue(value)}`;
    issues.error(ModelIssueCodes.NOT_A_MODEL_FILE, null, problem);
    return undefined;
  }
  const models = value.models;
  if (Array.isArray(models)) return models;
  const problem =
    models === undefined || models === null
      ? `${lead}: it has no 'models' array`
      : `${lead}: 'models' must be an array of models, got ${describeValue(models)}`;
  issues.error(ModelIssueCodes.NOT_A_MODEL_FILE, null, problem);
  return undefined;
}

/**
 * A walk has to begin somewhere: models reached through shared states need no start element of their own, but
 * at least one model must have one. Unknown or blocked start ids are reported on their model instead.
 */
function startIssues(models: readonly ModelJson[]): ModelIssue[] {
  for (const model of models) if (model.startElementId !== undefined) return [];
  let problem =
    "No model has a start element; set 'startElementId' of at least one model to the id of a vertex or " +
    'edge (models reached only through shared states need none)';
  if (models.length === 1 && !hasSharedState(models[0])) {
    // GraphWalker's check says it this way; a one-model file is where its users meet it.
    problem =
      "The model has neither a start element or a defined shared state; set 'startElementId' to the id of a " +
      "vertex or edge, or leave it out and give the model one edge without a source, or one vertex named 'Start'";
  }
  const issues = new IssueReporter();
  issues.error(ModelIssueCodes.NO_START_ELEMENT, null, problem);
  return issues.issues;
}

/**
 * GraphWalker's check of every model: one with neither a start element nor a shared state is never entered.
 * Only reported when some model has a start (else the file cannot be walked at all, an error of its own).
 */
function modelsNeverEntered(models: readonly ModelJson[]): ModelIssue[] {
  if (!models.some((m) => m.startElementId !== undefined)) return [];
  const issues: ModelIssue[] = [];
  for (const model of models) {
    if (model.startElementId !== undefined || hasSharedState(model)) continue;
    const r = new IssueReporter(model.id);
    const problem =
      'The model has neither a start element or a defined shared state, so the walk never enters it; set its ' +
      "'startElementId', or give one of its vertices the 'sharedState' of a vertex in another model";
    r.warning(ModelIssueCodes.NO_START_NOR_SHARED_STATE, null, problem);
    issues.push(...r.issues);
  }
  return issues;
}

function hasSharedState(model: ModelJson): boolean {
  return model.vertices.some((v) => v.sharedState !== undefined);
}

/**
 * The edges (model and element id) reported because their source names no vertex: they are unreachable too,
 * and that report already says why, so the unreachable warning would only repeat it less precisely.
 */
function unknownSourceEdges(issues: readonly ModelIssue[]): Set<string> {
  const keys = new Set<string>();
  for (const i of issues) {
    if (i.code === ModelIssueCodes.UNKNOWN_SOURCE_VERTEX) keys.add(`${i.modelId}\0${i.elementId}`);
  }
  return keys;
}
