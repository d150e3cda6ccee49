import { ErrorCodes, ScriptError, WalkerError } from '../../core/errors.js';
import { inspectWalk } from '../../core/inspect-walk.js';
import { parseGenerators } from '../../core/language/parser.js';
import { SESSION_DATA_WRITERS } from '../../core/machine/machine.js';
import { inspectModelFile, ModelIssueCodes, type ModelIssue } from '../../core/model/issues.js';
import type { ModelFileJson } from '../../core/model/types.js';
import type { SandboxReservation } from '../../core/scripting.js';
import type { WalkSettingsInput } from '../../core/walk-settings.js';
import type { Walker } from '../../core/walker.js';
import type { DraftModel } from './draft-model.js';
import { exportModelFile } from './export.js';
import type { ValidationIssue } from './responses.js';

/**
 * What `GET /walker/drafts/{id}/validation` reports besides the revision. An issue's code is one of
 * `core/model/issue-reporter.ts` or of {@link WalkIssueCodes}.
 */
export interface ValidationReport {
  valid: boolean;
  issues: ValidationIssue[];
}

/** Codes of the issues found by opening a walk, beside the model checks' own codes. */
export const WalkIssueCodes = {
  MISSING_GENERATOR: 'missing_generator',
  INVALID_GENERATOR: 'invalid_generator',
  UNREACHABLE_GOAL: 'unreachable_goal',
  SCRIPT_ERROR: 'script_error',
  LOAD_FAILED: 'load_failed',
} as const;

/** How the walk is opened: the service's settings, as `load` uses them, so that a draft that validates also loads. */
export type ValidationOptions = WalkSettingsInput;

/**
 * Validates a draft as `load` would judge its export: the generator string, every model check of the loader,
 * the dead ends a random generator would walk into and the scripts that do not parse (as `walker check` finds
 * them), and then (when those find no error) a walk opened by the service's walker, which resolves generator and
 * condition names, refuses goals that can never be reached and runs the model actions. Errors come before
 * warnings; within each, the order is that of the checks, so the same draft always gives the same list.
 * The walk is opened with `reservation` ({@link Walker.reserved}), which the caller gives back: a draft
 * validated while walks are opened at once then still gets a memory of its own.
 */
export function validateDraft(
  model: DraftModel,
  walker: Walker,
  options: ValidationOptions = {},
  reservation?: SandboxReservation,
): ValidationReport {
  const report = validateModelFile(exportModelFile(model), walker, options, reservation);
  return { valid: report.valid, issues: report.issues.map(({ model_id: _model, ...issue }) => issue) };
}

/** An issue of a model file of several models: the model it concerns, or null for the file as a whole. */
export type ModelFileIssue = ValidationIssue & { readonly model_id: string | null };

/**
 * Validates a model file as {@link validateDraft} validates a draft's export: the drafts an editor holds side
 * by side are judged together this way, as `load` judges them together, so that a model entered only through a
 * shared state needs no start element of its own.
 */
export function validateModelFile(
  file: ModelFileJson,
  walker: Walker,
  options: ValidationOptions = {},
  reservation?: SandboxReservation,
): { valid: boolean; issues: ModelFileIssue[] } {
  const issues: ModelFileIssue[] = [];
  for (const model of file.models) {
    for (const found of generatorIssues(model.generator ?? null)) issues.push({ ...found, model_id: model.id ?? null });
  }
  const inspection = inspectModelFile(file, { blocked: options.blocked });
  for (const issue of inspection.issues) issues.push(fromModelIssue(issue));
  if (inspection.file && inspection.graph) {
    // As the execution session opens a walk on load, with the same rule for who writes the variables (a goal
    // only guards close is then a `goal_needs_data` warning, not a refusal); the seed does not matter.
    const walk = { ...options, seed: 0, reservation, dataWriters: SESSION_DATA_WRITERS };
    const loaded = { file: inspection.file, graph: inspection.graph, warnings: [] };
    const found = inspectWalk(walker, loaded, walk, { lint: true, open: !issues.some(isError) });
    for (const issue of found.issues) issues.push(fromModelIssue(issue));
    if (found.refusal !== undefined) issues.push(fromRefusal(found.refusal));
  }
  const ordered = issues.filter(isError).concat(issues.filter((i) => !isError(i)));
  return { valid: !ordered.some(isError), issues: ordered };
}

function generatorIssues(generator: string | null): ValidationIssue[] {
  if (generator === null || generator.trim() === '') {
    const message =
      "The draft has no generator: set 'generator' (PATCH /walker/drafts/{draft_id}), e.g. " +
      "'random(edge_coverage(100))'.";
    return [issue(WalkIssueCodes.MISSING_GENERATOR, message)];
  }
  try {
    parseGenerators(generator);
    return [];
  } catch (error) {
    if (!(error instanceof WalkerError)) throw error;
    return [issue(WalkIssueCodes.INVALID_GENERATOR, error.message)];
  }
}

/** The refusal of the walk as an issue of the model it concerns. */
function fromRefusal(error: WalkerError): ModelFileIssue {
  const message = error instanceof ScriptError ? error.describe() : error.message;
  const code = WALK_ISSUE_CODES[error.code] ?? WalkIssueCodes.LOAD_FAILED;
  return { ...issue(code, message, error.elementId ?? null), model_id: error.modelId ?? null };
}

const WALK_ISSUE_CODES: Partial<Record<string, string>> = {
  [ErrorCodes.NO_GENERATOR]: WalkIssueCodes.MISSING_GENERATOR,
  [ErrorCodes.GENERATOR_SYNTAX]: WalkIssueCodes.INVALID_GENERATOR,
  [ErrorCodes.GENERATOR_INVALID]: WalkIssueCodes.INVALID_GENERATOR,
  [ErrorCodes.UNREACHABLE_GOAL]: WalkIssueCodes.UNREACHABLE_GOAL,
  [ErrorCodes.SCRIPT]: WalkIssueCodes.SCRIPT_ERROR,
  [ErrorCodes.NO_START]: ModelIssueCodes.NO_START_ELEMENT,
};

function fromModelIssue(found: ModelIssue): ModelFileIssue {
  // The loader speaks of model files; a draft's user sets the start element through the draft API.
  const message =
    found.code === ModelIssueCodes.NO_START_ELEMENT
      ? "The draft has no start element: set 'start_element_id' (PATCH /walker/drafts/{draft_id}) to the id of a " +
        'start edge (an edge without source_vertex_id) or of a vertex.'
      : found.message;
  return { code: found.code, message, severity: found.severity, element_id: found.elementId, model_id: found.modelId };
}

function issue(code: string, message: string, elementId: string | null = null): ValidationIssue {
  return { code, message, severity: 'error', element_id: elementId };
}

function isError(found: ValidationIssue): boolean {
  return found.severity === 'error';
}
