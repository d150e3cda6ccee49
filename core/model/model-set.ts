import { asText, isObject } from './fields.js';
import { IssueReporter, ModelIssueCodes, type ModelIssue } from './issue-reporter.js';
import { completeInspection, inspectModelFile, isError, type ModelCheckOptions } from './issues.js';
import type { LoadedModelFile } from './load.js';
import type { ModelFileJson, ModelJson } from './types.js';

/** One of several model files walked together (`-m a.json … -m b.json …`): where it came from, its parsed value. */
export interface ModelSetPart {
  readonly source: string;
  readonly value: unknown;
  /** `--start-element`: the name of the element the file's first model starts from (ModelCheckOptions.startElement). */
  readonly startElement?: string;
}

/** An issue and the file it is about: its position among the parts (a file may be given twice), and its source. */
export interface FileIssue {
  readonly part: number;
  readonly source: string;
  readonly issue: ModelIssue;
}

/** What {@link inspectModelSet} found. */
export interface ModelSetInspection {
  /** Every issue, file by file in the order given; within a file in the order of `collectModelIssues`. */
  readonly issues: FileIssue[];
  /** The files joined into one walkable file; present only when no issue is an error. */
  readonly loaded?: LoadedModelFile;
  /** For each model of {@link loaded}, the position of its file among the parts (a file may be given twice). */
  readonly partOf: readonly number[];
}

/**
 * Checks model files that are walked together, as GraphWalker's `check` takes several `-m` files: each file
 * on its own, then what needs every model of the walk on the files joined (shared states link models across
 * files, so one file may hold the start element of all). Model ids stated in two files are an error, as
 * GraphWalker reports them. The seed of the joined file is the first one a file states.
 */
export function inspectModelSet(
  parts: readonly ModelSetPart[],
  options: Omit<ModelCheckOptions, 'source' | 'partOfSet' | 'startElement'> = {},
): ModelSetInspection {
  if (parts.length === 1) return single(parts[0], options);
  const found: PartIssue[] = [];
  const files: ModelFileJson[] = [];
  parts.forEach((part, p) => {
    const inspected = inspectModelFile(part.value, { ...options, source: part.source, startElement: part.startElement, partOfSet: true });
    for (const issue of inspected.issues) found.push({ part: p, issue });
    if (inspected.file) files.push(inspected.file);
  });
  const partOf = files.flatMap((file, p) => file.models.map(() => p));
  if (files.length < parts.length || found.some((i) => isError(i.issue))) {
    return { issues: byFile(found, parts), partOf };
  }

  const joined: ModelFileJson = { models: files.flatMap((file) => file.models) };
  const seed = files.find((file) => file.seed !== undefined)?.seed;
  if (seed !== undefined) joined.seed = seed;
  const duplicates = duplicateModelIds(parts, files);
  const whole = completeInspection(joined, [], duplicates.map((d) => d.issue));
  const own = new Set(duplicates.map((d) => d.issue));
  for (const issue of whole.issues) {
    if (!own.has(issue)) found.push({ part: partOfIssue(issue, joined.models, partOf), issue });
  }
  for (const duplicate of duplicates) found.push(duplicate);
  const issues = byFile(found, parts);
  if (!whole.graph || issues.some((i) => isError(i.issue))) return { issues, partOf };
  const warnings = issues.map((i) => i.issue);
  return { issues, loaded: { file: joined, graph: whole.graph, warnings }, partOf };
}

/** An issue and the position of its file among the parts (a file may be given twice). */
interface PartIssue {
  readonly part: number;
  readonly issue: ModelIssue;
}

function single(part: ModelSetPart, options: ModelCheckOptions): ModelSetInspection {
  const { file, graph, issues } = inspectModelFile(part.value, { ...options, source: part.source, startElement: part.startElement });
  const found = issues.map((issue) => ({ part: 0, source: part.source, issue }));
  const partOf = file ? file.models.map(() => 0) : [];
  if (!file || !graph) return { issues: found, partOf };
  return { issues: found, loaded: { file, graph, warnings: issues, source: part.source }, partOf };
}

/** Model ids that a file states although an earlier file states them too (generated ids do not count). */
function duplicateModelIds(parts: readonly ModelSetPart[], files: readonly ModelFileJson[]): PartIssue[] {
  const first = new Map<string, string>();
  const found: PartIssue[] = [];
  parts.forEach((part, p) => {
    const raw = isObject(part.value) && Array.isArray(part.value.models) ? part.value.models : [];
    files[p].models.forEach((model, m) => {
      const stated = isObject(raw[m]) ? asText(raw[m].id) : undefined;
      if (!stated) return;
      const earlier = first.get(stated);
      if (earlier === undefined) first.set(stated, part.source);
      else found.push({ part: p, issue: duplicateIssue(model, earlier) });
    });
  });
  return found;
}

function duplicateIssue(model: ModelJson, earlier: string): ModelIssue {
  const r = new IssueReporter(model.id);
  const problem =
    `Id of the model is not unique: '${earlier}' has a model with this id too; give each model of the files ` +
    'walked together an id of its own';
  r.error(ModelIssueCodes.DUPLICATE_MODEL_ID, 'id', problem);
  return r.issues[0];
}

/** The file of an issue about the joined file: that of its model, or the first file for one about all of them. */
function partOfIssue(issue: ModelIssue, models: readonly ModelJson[], partOf: readonly number[]): number {
  const index = issue.modelId === null ? -1 : models.findIndex((m) => m.id === issue.modelId);
  return index < 0 ? 0 : partOf[index];
}

/** The issues grouped by file, in the order the files were given; in their own order within each file. */
function byFile(issues: readonly PartIssue[], parts: readonly ModelSetPart[]): FileIssue[] {
  const sorted = [...issues].sort((a, b) => a.part - b.part);
  return sorted.map(({ part, issue }) => ({ part, source: parts[part].source, issue }));
}
