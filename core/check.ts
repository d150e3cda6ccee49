import { GeneratorSyntaxError, ModelError, ScriptError, UnknownGeneratorNameError, WalkerError } from './errors.js';
import { inspectWalk } from './inspect-walk.js';
import { inspectModelFile, ModelIssueCodes, type ModelIssue } from './model/issues.js';
import { readModelValue, type ModelFormats } from './model/formats.js';
import { readModelText } from './model/load.js';
import { inspectModelSet, type ModelSetPart } from './model/model-set.js';
import type { Walker } from './walker.js';
import type { WalkSettingsInput } from './walk-settings.js';

/** A model file to check and the generator string that replaces the generator of each of its models. */
export interface CheckTarget {
  readonly file: string;
  readonly generator: string;
}

/** One thing `walker check` reports. */
export interface CheckFinding {
  /** The file it is about. */
  readonly file: string;
  /**
   * An `error` makes loading fail or the walk impossible; a `warning` does not. A `note` is no issue of the
   * model: how walker will plan it (its states passed the planning bound, or grow without end), which a load
   * answers as a warning.
   */
  readonly severity: 'error' | 'warning' | 'note';
  /** A model issue code (`core/model/issue-reporter.ts`) or an engine error code (`core/errors.ts`). */
  readonly code: string;
  /** What is wrong and what to fix, naming model, element and field where there is one; without the file. */
  readonly message: string;
  /**
   * True for what GraphWalker's check raises as an exception rather than lists as an issue of the model: a
   * generator string that does not parse or names an unknown generator or stop condition, a file whose
   * `models` list is empty. `walker check` prints these on
   * stderr, where GraphWalker's clients look for them.
   */
  readonly exception?: true;
}

/**
 * `walker check`: everything that can be known about model files and their generators without walking them,
 * in the order of the files given. The files are checked as they would be walked together (shared states
 * link them): first each file, then every model of them all (docs/cli.md has the list); when no error stops
 * it there, the dead ends a random generator would walk into, the scripts that do not parse, and last the walk
 * itself is opened and disposed, which resolves the generators' names, refuses goals no walk can reach and runs
 * the model actions. A file that cannot be read, or read in its format, is an error of its own.
 */
export async function checkModelFiles(
  walker: Walker,
  targets: readonly CheckTarget[],
  options: WalkSettingsInput = {},
): Promise<CheckFinding[]> {
  const { parts, readable, findings } = await readParts(targets, walker.registries.formats);
  const add = (part: number, { severity, code, message }: ModelIssue) =>
    findings.push({
      part,
      file: targets[part].file,
      severity: code === ModelIssueCodes.PLAN_BOUND ? 'note' : severity,
      code,
      message,
      ...(code === ModelIssueCodes.NO_MODELS ? EXCEPTION : {}),
    });
  if (readable.length < targets.length) {
    // Without every file the walk is unknown: each readable file is checked on its own only.
    parts.forEach((part, i) => {
      for (const issue of inspectModelFile(part.value, { ...options, partOfSet: true }).issues) add(readable[i], issue);
    });
    return ordered(findings);
  }
  const set = inspectModelSet(parts, options);
  for (const found of set.issues) add(found.part, found.issue);
  if (set.loaded === undefined) return ordered(findings);

  const { graph } = set.loaded;
  const partOfModel = (id: string | null | undefined) => set.partOf[Math.max(0, graph.models.findIndex((m) => m.id === id))];
  const generators = set.partOf.map((part) => targets[part].generator);
  // As a client may set data (online), a goal only guards close is graded a warning that says so.
  const walk = { ...options, seed: 0, generators, dataWriters: 'client' } as const;
  const { issues, refusal } = inspectWalk(walker, set.loaded, walk, { lint: true, explore: true });
  for (const issue of issues) add(partOfModel(issue.modelId), issue);
  if (refusal !== undefined) {
    const part = partOfModel(refusal.modelId);
    const message = refusal instanceof ScriptError ? refusal.describe() : refusal.message;
    // GraphWalker's generator parser throws for both; its check never lists them.
    const exception = refusal instanceof UnknownGeneratorNameError || refusal instanceof GeneratorSyntaxError ? EXCEPTION : {};
    findings.push({ part, file: targets[part].file, severity: 'error', code: refusal.code, message, ...exception });
  }
  return ordered(findings);
}

type PartFinding = CheckFinding & { readonly part: number };

const EXCEPTION = { exception: true } as const;

/** The files read, each in its format, the positions of those that could be, and a finding for each that could not. */
async function readParts(
  targets: readonly CheckTarget[],
  formats: ModelFormats,
): Promise<{ parts: ModelSetPart[]; readable: number[]; findings: PartFinding[] }> {
  const parts: ModelSetPart[] = [];
  const readable: number[] = [];
  const findings: PartFinding[] = [];
  for (const [part, target] of targets.entries()) {
    try {
      parts.push({ source: target.file, value: readModelValue(await readModelText(target.file), formats, target.file) });
      readable.push(part);
    } catch (error) {
      if (!(error instanceof WalkerError)) throw error;
      // The line names the file already.
      const message = (error instanceof ModelError ? withoutSource(error) : error.message).replace(`the model file '${target.file}'`, 'the file');
      findings.push({ part, file: target.file, severity: 'error', code: error.code, message });
    }
  }
  return { parts, readable, findings };
}

/** The findings file by file, in the order the files were given; in the order found within each. */
function ordered(findings: readonly PartFinding[]): CheckFinding[] {
  const sorted = [...findings].sort((a, b) => a.part - b.part);
  return sorted.map(({ part: _, ...finding }) => finding);
}

/** A model error's message without the file in front, for a line that names the file itself. */
function withoutSource(error: ModelError): string {
  return new ModelError(error.problem, { ...error.location, source: undefined }, error.code).message;
}
