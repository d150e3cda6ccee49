import { ModelError, ScriptError, WalkerError } from './errors.js';
import { deadEndIssues } from './machine/dead-ends.js';
import type { Graph } from './model/graph.js';
import { inspectModelFile, isError, type ModelIssue } from './model/issues.js';
import { planningIssues } from './machine/planning-issues.js';
import { readModelValue, type ModelFormats } from './model/formats.js';
import { readModelText, type LoadedModelFile } from './model/load.js';
import { inspectModelSet, type ModelSetPart } from './model/model-set.js';
import { scriptSyntaxIssues } from './model/script-syntax.js';
import { scriptEngineOf } from './plugin.js';
import type { Walker } from './walker.js';

/** A model file to check and the generator string that replaces the generator of each of its models. */
export interface CheckTarget {
  readonly file: string;
  readonly generator: string;
}

/** One thing `walker check` reports. */
export interface CheckFinding {
  /** The file it is about. */
  readonly file: string;
  /** An `error` makes loading fail or the walk impossible; a `warning` does not. */
  readonly severity: 'error' | 'warning';
  /** A model issue code (`core/model/issue-reporter.ts`) or an engine error code (`core/errors.ts`). */
  readonly code: string;
  /** What is wrong and what to fix, naming model, element and field where there is one; without the file. */
  readonly message: string;
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
  options: { readonly blocked?: boolean; readonly planStates?: number; readonly planTimeMs?: number } = {},
): Promise<CheckFinding[]> {
  const { parts, readable, findings } = await readParts(targets, walker.registries.formats);
  const add = (part: number, { severity, code, message }: ModelIssue) =>
    findings.push({ part, file: targets[part].file, severity, code, message });
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
  const partOfModel = (id: string | null) => set.partOf[Math.max(0, graph.models.findIndex((m) => m.id === id))];
  const generators = set.partOf.map((part) => targets[part].generator);
  const engine = scriptEngineOf(walker.registries);
  const later = [...deadEndIssues(graph, generators, walker.registries), ...scriptSyntaxIssues(graph, engine)];
  for (const issue of later) add(partOfModel(issue.modelId), issue);
  if (!later.some(isError)) {
    const { refusal, issues } = openWalk(walker, set.loaded, generators, options);
    for (const issue of issues) add(issue.modelId === null ? 0 : partOfModel(issue.modelId), issue);
    if (refusal !== undefined) {
      const part = set.partOf[modelOfWalkError(refusal, graph)] ?? 0;
      const message = refusal instanceof ScriptError ? refusal.describe() : refusal.message;
      findings.push({ part, file: targets[part].file, severity: 'error', code: refusal.code, message });
    }
  }
  return ordered(findings);
}

type PartFinding = CheckFinding & { readonly part: number };

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

/**
 * Opens the walk and disposes it: what refuses it, if anything, else what planning with guards found at its
 * start (docs/planning.md).
 */
function openWalk(
  walker: Walker,
  loaded: LoadedModelFile,
  generators: readonly string[],
  options: { readonly planStates?: number; readonly planTimeMs?: number },
): { refusal?: WalkerError; issues: ModelIssue[] } {
  try {
    // As a client may set data (online), a goal only guards close is graded a warning that says so.
    const walk = walker.walk(loaded, { seed: 0, generators, planStates: options.planStates, planTimeMs: options.planTimeMs, dataWriters: 'client' });
    try {
      return { issues: planningIssues(walk) };
    } finally {
      walk.dispose();
    }
  } catch (error) {
    if (error instanceof WalkerError) return { refusal: error, issues: [] };
    throw error;
  }
}

/** The findings file by file, in the order the files were given; in the order found within each. */
function ordered(findings: readonly PartFinding[]): CheckFinding[] {
  const sorted = [...findings].sort((a, b) => a.part - b.part);
  return sorted.map(({ file, severity, code, message }) => ({ file, severity, code, message }));
}

/**
 * The model a walk's refusal is about: a script names its model; a generator's messages start with
 * `Model '<name or id>'` (machine/chain.ts). -1 when it names none.
 */
function modelOfWalkError(error: WalkerError, graph: Graph): number {
  if (error instanceof ScriptError) return graph.models.findIndex((m) => m.id === error.origin.modelId);
  const named = /^Model '(.*?)'[,:]/.exec(error.message)?.[1];
  return named === undefined ? -1 : graph.models.findIndex((m) => (m.name ?? m.id) === named);
}

/** A model error's message without the file in front, for a line that names the file itself. */
function withoutSource(error: ModelError): string {
  return new ModelError(error.problem, { ...error.location, source: undefined }, error.code).message;
}
