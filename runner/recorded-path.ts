import { readFile, writeFile } from 'node:fs/promises';
import type { PathGenerator, PathGeneratorFactory, PathGeneratorName } from '../core/generator.js';
import type { Graph } from '../core/model/graph.js';
import type { Registries } from '../core/plugin.js';
import { Registry } from '../core/registry.js';
import { modelBaseName } from '../core/machine/step-report.js';
import type { WalkState } from '../core/walk-state.js';
import { RunnerError, RunnerErrorCodes } from './errors.js';

/** The generator that walks a recorded path, known only to the runner's walks (never to a user's generator string). */
export const RECORDED_PATH_GENERATOR = 'recorded_path(never)';

/** The path a run's walks follow when it replays (`--path`) or shrinks: set before each walk is opened. */
export interface PathToFollow {
  elements: readonly number[];
}

/**
 * The registries of a runner's walks: those given, plus the `recorded_path` generator reading `follow`. A new
 * registry of generators is made so that the name stays out of the registries others walk with.
 */
export function withRecordedPath(registries: Registries, follow: PathToFollow): Registries {
  const generators = new Registry<PathGeneratorFactory>('path generator');
  for (const factory of registries.generators.values()) generators.register(factory);
  generators.register({ name: 'recorded_path' as PathGeneratorName, create: ({ graph }) => new RecordedPath(graph, follow) }, 'walker-runner');
  return { ...registries, generators };
}

/**
 * Takes, at each choice, the element the path has at the walk's step count: the machine steps from an edge to
 * its target itself, so only vertices ask, and the step count says where on the path the walk is. An element
 * the walk cannot step on (a closed guard, a path of another model) is no way on: the machine then reports a
 * dead end, which the runner words as where the path leaves what the model allows.
 */
class RecordedPath implements PathGenerator {
  constructor(
    private readonly graph: Graph,
    private readonly follow: PathToFollow,
  ) {}

  nextEdge(walk: WalkState, vertex: number): number {
    const next = this.follow.elements[walk.steps];
    if (next === undefined || this.graph.source[next] !== vertex) return -1;
    return walk.openEdges(vertex).includes(next) ? next : -1;
  }

  chooseJump(walk: WalkState, vertex: number, candidates: readonly number[]): number {
    const next = this.follow.elements[walk.steps];
    if (candidates.includes(next)) return next;
    return candidates.includes(vertex) ? vertex : candidates[0];
  }
}

/**
 * Reads a recorded path: the lines `walker offline` prints (`currentElementID` and `modelId`, or
 * `modelName`), or the file `--shrink` writes, which has the same lines. Blank lines and `Seed:` lines are
 * skipped. Each element must be one of the models walked.
 */
export async function readPathFile(file: string, graph: Graph): Promise<number[]> {
  let text: string;
  try {
    text = await readFile(file, 'utf8');
  } catch (error) {
    throw new RunnerError(RunnerErrorCodes.PATH, `Could not read the path file '${file}': ${(error as Error).message}`);
  }
  const index = elementIndex(graph);
  const elements: number[] = [];
  text.split('\n').forEach((raw, i) => {
    const line = raw.trim();
    if (line === '' || line.startsWith('Seed:')) return;
    let step: { currentElementID?: unknown; modelId?: unknown; modelName?: unknown };
    try {
      step = JSON.parse(line) as typeof step;
    } catch {
      throw new RunnerError(RunnerErrorCodes.PATH, `${file}, line ${i + 1}: not a step line of walker offline (a JSON object with currentElementID and modelId)`);
    }
    const id = step?.currentElementID;
    if (typeof id !== 'string') throw new RunnerError(RunnerErrorCodes.PATH, `${file}, line ${i + 1}: the step has no currentElementID`);
    const model = typeof step.modelId === 'string' ? step.modelId : typeof step.modelName === 'string' ? `name:${step.modelName}` : undefined;
    const element = model === undefined ? index.byId.get(id) : index.byModel.get(`${model}\u0000${id}`);
    if (element === undefined) {
      throw new RunnerError(RunnerErrorCodes.PATH, `${file}, line ${i + 1}: element '${id}' is in none of the models walked; replay a path with the models it was recorded on`);
    }
    elements.push(element);
  });
  if (elements.length === 0) throw new RunnerError(RunnerErrorCodes.PATH, `The path file '${file}' has no steps`);
  return elements;
}

/** Writes a path as `walker offline` prints it, one step a line, so that `--path` and other tools read it. */
export async function writePathFile(file: string, graph: Graph, elements: readonly number[]): Promise<void> {
  const lines = elements.map((e) => {
    const model = graph.models[graph.modelOf[e]];
    const modelName = modelBaseName(model.name);
    return `${JSON.stringify({ currentElementName: graph.names[e] ?? '', currentElementID: graph.ids[e], modelId: model.id, ...(modelName === undefined ? {} : { modelName }) })}\n`;
  });
  try {
    await writeFile(file, lines.join(''));
  } catch (error) {
    throw new RunnerError(RunnerErrorCodes.OPTION, `Could not write the path file '${file}': ${(error as Error).message}`);
  }
}

function elementIndex(graph: Graph): { byId: Map<string, number>; byModel: Map<string, number> } {
  const byId = new Map<string, number>();
  const byModel = new Map<string, number>();
  for (let e = 0; e < graph.size; e++) {
    const model = graph.models[graph.modelOf[e]];
    if (!byId.has(graph.ids[e])) byId.set(graph.ids[e], e);
    byModel.set(`${model.id}\u0000${graph.ids[e]}`, e);
    const name = modelBaseName(model.name);
    if (name !== undefined) byModel.set(`name:${name}\u0000${graph.ids[e]}`, e);
  }
  return { byId, byModel };
}
