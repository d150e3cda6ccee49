import type { StopCondition } from '../../../core/condition.js';
import type { PathGenerator, PathGeneratorFactory, WalkMemo } from '../../../core/generator.js';
import type { ConditionExpr } from '../../../core/language/ast.js';
import { NO_STATE_PLANNING } from '../../../core/planning/walk-planning.js';
import { WalkMemoMap } from '../../../core/machine/chain.js';
import { Graph } from '../../../core/model/graph.js';
import { JoinedGraph } from '../../../core/model/joined-graph.js';
import { createRandom, type RandomSource } from '../../../core/random.js';
import type { RequirementCounts, WalkState } from '../../../core/walk-state.js';

/** Decides whether an edge's guard is open, given the walk so far (the machine would run a script). */
export type Guard = (edge: number, walk: TestWalk) => boolean;

/**
 * A stand-in for the machine, enough to drive generators: one walk over a Graph, with visit counts, a seeded
 * random source and guards given as a predicate. Shared-state jumps and actions are not modelled.
 */
export class TestWalk implements WalkState {
  current = -1;
  steps = 0;
  readonly random: RandomSource;
  private readonly count: Int32Array;
  private readonly verticesSeen: Int32Array;
  private readonly edgesSeen: Int32Array;
  private readonly open: number[] = [];

  constructor(
    readonly graph: Graph,
    seed: number | RandomSource,
    private readonly guard?: Guard,
  ) {
    this.random = typeof seed === 'number' ? createRandom(seed) : seed;
    this.count = new Int32Array(graph.size);
    this.verticesSeen = new Int32Array(graph.models.length);
    this.edgesSeen = new Int32Array(graph.models.length);
  }

  get currentModel(): number {
    return this.current < 0 ? 0 : this.graph.modelOf[this.current];
  }

  visits(element: number): number {
    return this.count[element];
  }

  visitedVertices(model: number): number {
    return this.verticesSeen[model];
  }

  visitedEdges(model: number): number {
    return this.edgesSeen[model];
  }

  requirements(): RequirementCounts {
    return { total: 0, passed: 0, failed: 0 };
  }

  elapsedMs(): number {
    return 0;
  }

  openEdges(vertex: number): readonly number[] {
    this.open.length = 0;
    for (const e of this.graph.outEdgesOf(vertex)) if (this.guard === undefined || this.guard(e, this)) this.open.push(e);
    return this.open;
  }

  /** Steps onto an element, counting visits as the machine does. */
  step(element: number): void {
    if (this.count[element]++ === 0) {
      const model = this.graph.modelOf[element];
      if (this.graph.isVertex(element)) this.verticesSeen[model]++;
      else this.edgesSeen[model]++;
    }
    this.current = element;
    this.steps++;
  }
}

export interface RunOptions {
  readonly seed?: number;
  /** The walk's random source, instead of one made from `seed` (to fix what every draw answers). */
  readonly random?: RandomSource;
  readonly guard?: Guard;
  /** Stop after this many steps in all (default 10,000). */
  readonly maxSteps?: number;
  /** Stop as soon as this holds after a step. */
  readonly until?: (walk: TestWalk) => boolean;
  /** Targets of the stop condition (for a_star). */
  readonly targets?: readonly number[];
  /** Name of the stop condition as written (for predefined_path); default `never`. */
  readonly conditionName?: string;
  readonly model?: number;
}

export interface RunResult {
  readonly walk: TestWalk;
  /** Every element stepped on, the start element first. */
  readonly path: number[];
  /** The generator answered -1 at a vertex. */
  readonly deadEnd: boolean;
  readonly generator: PathGenerator;
}

/**
 * Makes a generator the way the machine would (a stub condition that is never fulfilled). Generators made with
 * one `memo` belong to one walk, as the machine's generators of all models of a walk do; by default each gets
 * a walk of its own.
 */
export function createGenerator(
  factory: PathGeneratorFactory,
  graph: Graph,
  options: RunOptions = {},
  random: RandomSource = createRandom(options.seed ?? 1),
  memo: WalkMemo = new WalkMemoMap(),
): PathGenerator {
  const condition: StopCondition = { isFulfilled: () => false, fulfilment: () => 0, targets: options.targets };
  const conditionExpr: ConditionExpr = { kind: 'call', name: options.conditionName ?? 'never', column: 1 };
  return factory.create({
    graph,
    model: options.model ?? 0,
    reachable: new Uint8Array(graph.size).fill(1),
    condition,
    conditionExpr,
    random,
    joined: new JoinedGraph(graph),
    planning: NO_STATE_PLANNING,
    memo,
  });
}

/**
 * Walks from the model's start element, asking the generator at every vertex, and fails the test when the
 * generator answers an edge that is not open at that vertex.
 */
export function run(factory: PathGeneratorFactory, graph: Graph, options: RunOptions = {}): RunResult {
  const walk = new TestWalk(graph, options.random ?? options.seed ?? 1, options.guard);
  const generator = createGenerator(factory, graph, options, walk.random);
  const path: number[] = [];
  const maxSteps = options.maxSteps ?? 10_000;
  const stepOn = (element: number) => {
    walk.step(element);
    path.push(element);
  };
  stepOn(graph.models[options.model ?? 0].startElement);
  while (walk.steps < maxSteps && !(options.until?.(walk) ?? false)) {
    if (!graph.isVertex(walk.current)) {
      stepOn(graph.target[walk.current]);
      continue;
    }
    const open = [...walk.openEdges(walk.current)];
    const e = generator.nextEdge(walk, walk.current);
    if (e < 0) return { walk, path, deadEnd: true, generator };
    if (!open.includes(e)) throw new Error(`${factory.name} chose ${graph.describe(e)}, which is not open here`);
    stepOn(e);
  }
  return { walk, path, deadEnd: false, generator };
}

/** Edges of a path, in order. */
export function edgesOf(graph: Graph, path: readonly number[]): number[] {
  return path.filter((e) => !graph.isVertex(e));
}

/** Ids of the elements of a path. */
export function idsOf(graph: Graph, path: readonly number[]): string[] {
  return path.map((e) => graph.ids[e]);
}

/** `edge_coverage` of model 0 as the machine checks it: that many edges visited, standing on a vertex. */
export function coveredEdges(count: number): (walk: TestWalk) => boolean {
  return (walk) => walk.visitedEdges(0) >= count && walk.graph.isVertex(walk.current);
}

export interface JoinedRunOptions extends Omit<RunOptions, 'model' | 'guard'> {
  /** Ask the generators where to jump (default); without, jumps are random, GraphWalker's rule. */
  readonly chooseJumps?: boolean;
  /**
   * Make each model's generator as if for a walk of its own, with its own random source and memo (the machine
   * gives the generators of all models one of each).
   */
  readonly separateWalks?: boolean;
}

export interface JoinedRunResult extends Omit<RunResult, 'generator'> {
  /** The generator of each model, made like the machine makes them: together, with the walk's random source and memo. */
  readonly generators: readonly PathGenerator[];
  /** How many steps were jumps. */
  readonly jumps: number;
}

/**
 * Walks a multi-model graph the way the machine does (docs/behaviour.md, core/machine/shared-states.ts):
 * from the first model's start element; at a vertex with a shared state the candidates are staying (when
 * there is an open out-edge) and every vertex of another model with that state that has a name or an open
 * out-edge, except the vertex just jumped from unless staying is impossible; the current model's generator
 * chooses when there are two or more (or one is drawn at random without `chooseJump`), and a jump is a step.
 * Fails the test when a generator answers something it may not.
 */
export function runJoined(
  factory: PathGeneratorFactory,
  graph: Graph,
  options: JoinedRunOptions = {},
): JoinedRunResult {
  const walk = new TestWalk(graph, options.seed ?? 1);
  const memo = new WalkMemoMap();
  const generators = graph.models.map((_, model) =>
    options.separateWalks
      ? createGenerator(factory, graph, { ...options, model }, createRandom(model))
      : createGenerator(factory, graph, { ...options, model }, walk.random, memo),
  );
  const path: number[] = [];
  let jumps = 0;
  let jumpedFrom = -1;
  const stepOn = (element: number) => {
    walk.step(element);
    path.push(element);
  };
  stepOn(graph.models.find((m) => m.startElement >= 0)!.startElement);
  while (walk.steps < (options.maxSteps ?? 10_000) && !(options.until?.(walk) ?? false)) {
    if (!graph.isVertex(walk.current)) {
      stepOn(graph.target[walk.current]);
      jumpedFrom = -1;
      continue;
    }
    const generator = generators[walk.currentModel];
    const jump = jumpTarget(walk, generator, jumpedFrom, options.chooseJumps ?? true);
    if (jump >= 0) {
      jumpedFrom = walk.current;
      jumps++;
      stepOn(jump);
      continue;
    }
    jumpedFrom = -1;
    const open = [...walk.openEdges(walk.current)];
    const e = generator.nextEdge(walk, walk.current);
    if (e < 0) return { walk, path, deadEnd: true, generators, jumps };
    if (!open.includes(e)) throw new Error(`${factory.name} chose ${graph.describe(e)}, which is not open here`);
    stepOn(e);
  }
  return { walk, path, deadEnd: false, generators, jumps };
}

function jumpTarget(walk: TestWalk, generator: PathGenerator, jumpedFrom: number, chooseJumps: boolean): number {
  const g = walk.graph;
  const vertex = walk.current;
  const state = g.sharedState[vertex];
  if (state === undefined) return -1;
  const canStay = walk.openEdges(vertex).length > 0;
  const candidates = canStay ? [vertex] : [];
  for (const other of g.sharedStateVertices(state)) {
    if (g.modelOf[other] === g.modelOf[vertex] || (other === jumpedFrom && canStay)) continue;
    if (g.names[other] || walk.openEdges(other).length > 0) candidates.push(other);
  }
  if (candidates.length === 0) return -1;
  let pick: number;
  if (candidates.length === 1) pick = candidates[0];
  else if (chooseJumps && generator.chooseJump) pick = generator.chooseJump(walk, vertex, candidates);
  else pick = candidates[walk.random.int(candidates.length)];
  if (!candidates.includes(pick)) throw new Error(`chooseJump chose ${pick}, not one of ${candidates.join(', ')}`);
  return pick === vertex ? -1 : pick;
}

/** Edge coverage over all models as the machine checks it: that many edges visited, standing on a vertex. */
export function coveredAllModels(edges: number): (walk: TestWalk) => boolean {
  return (walk) => {
    let visited = 0;
    for (let m = 0; m < walk.graph.models.length; m++) visited += walk.visitedEdges(m);
    return visited >= edges && walk.graph.isVertex(walk.current);
  };
}
