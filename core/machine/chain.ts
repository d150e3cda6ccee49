import type { GeneratorExpr } from '../language/ast.js';
import type { PathGenerator, WalkMemo } from '../generator.js';
import type { StopCondition } from '../condition.js';
import type { Graph } from '../model/graph.js';
import { parseGenerators } from '../language/parser.js';
import { JoinedGraph } from '../model/joined-graph.js';
import type { StatePlanning } from '../planning/walk-planning.js';
import { OneWalk } from '../model/one-walk.js';
import { WalkGraph } from '../model/walk-graph.js';
import type { Registries } from '../plugin.js';
import type { RandomSource } from '../random.js';
import type { WalkScope, WalkState } from '../walk-state.js';
import { ErrorCodes, GeneratorSyntaxError, UnknownGeneratorNameError, WalkerError } from '../errors.js';
import { shorten } from '../text.js';
import { buildCondition } from './conditions.js';
import { Feasibility } from './feasibility.js';

/** One `generator(condition)` of a model's generator string, made live. */
export interface ChainPart {
  /** The generator's registered name, for messages about what it answers. */
  readonly name: string;
  readonly generator: PathGenerator;
  readonly condition: StopCondition;
}

/**
 * The generators of one model run in sequence: each until its own stop condition holds, then the next
 * continues from where the walk stands (`random(edge_coverage(50)) a_star(reached_vertex(v_X))`).
 */
export class GeneratorChain {
  private index = 0;

  constructor(readonly parts: readonly ChainPart[]) {}

  /** The part that chooses now; undefined when every part is done. */
  active(walk: WalkState): ChainPart | undefined {
    while (this.index < this.parts.length && this.parts[this.index].condition.isFulfilled(walk)) this.index++;
    return this.parts[this.index];
  }

  /** Progress of the whole chain, 0..1. */
  fulfilment(walk: WalkState): number {
    const part = this.active(walk);
    if (part === undefined) return 1;
    return (this.index + part.condition.fulfilment(walk)) / this.parts.length;
  }
}

/** What the chains of one walk are made from. */
export interface ChainContext {
  readonly registries: Registries;
  readonly graph: Graph;
  /** Per element, 1 when some walk reaches it (guards ignored). */
  readonly reachable: Uint8Array;
  readonly joined: JoinedGraph;
  readonly random: RandomSource;
  /** What one walk can cover, made on first need (a condensation of the whole file). */
  readonly walks: () => OneWalk;
  readonly planning: StatePlanning;
}

/** A model's generator string as written, and parsed. */
export interface ParsedGenerators {
  readonly text: string;
  readonly exprs: readonly GeneratorExpr[];
}

/**
 * The shared-state index and the reachable elements of the graph, for every chain of this walk; what one walk
 * can cover is worked out on first need only, since most conditions (`length`, `reached_*` alone) never ask.
 */
export function chainContextOf(
  graph: Graph,
  registries: Registries,
  random: RandomSource,
  planning: StatePlanning,
): ChainContext {
  const joined = new JoinedGraph(graph);
  const walkGraph = new WalkGraph(graph, joined);
  let oneWalk: OneWalk | undefined;
  const walks = (): OneWalk => (oneWalk ??= new OneWalk(walkGraph));
  return { registries, graph, reachable: walkGraph.reachable(), joined, random, walks, planning };
}

/** How much of a generator string a message quotes; a column says where in the rest. */
const DESCRIBED_LENGTH = 160;

/** How messages name a model's generator string: the string itself, its start only when it is long. */
export function describeGenerator(graph: Graph, model: number, text: string): string {
  const info = graph.models[model];
  return `Model '${info.name ?? info.id}', generator '${shorten(text, DESCRIBED_LENGTH)}'`;
}

/** Parses a model's generator string; a syntax error names the model, in its message and as data. */
export function parseModelGenerators(text: string, model: { readonly id: string; readonly name?: string }): GeneratorExpr[] {
  try {
    return parseGenerators(text);
  } catch (error) {
    if (!(error instanceof GeneratorSyntaxError)) throw error;
    throw new GeneratorSyntaxError(error.input, error.column, error.problem, `Model '${model.name ?? model.id}'`, { modelId: model.id });
  }
}

/**
 * Makes the chains of every model of a walk, at load and at every restart. All their generators get one fresh
 * {@link WalkMemo}, which is what lets a planner serve every model of this walk and no other walk, and all
 * their conditions one judge of what no walk can fulfil, which judges each demand once for all of them.
 */
export function buildChains(models: readonly ParsedGenerators[], context: ChainContext): GeneratorChain[] {
  const memo = new WalkMemoMap();
  const feasibility = new Feasibility(context.graph, context.walks);
  return models.map(({ text, exprs }, model) => {
    try {
      return buildChain(exprs, text, { ...context, model, memo, feasibility });
    } catch (error) {
      // A plugin's generator or condition knows the model by its index only.
      if (error instanceof WalkerError) error.concerning({ modelId: context.graph.models[model].id });
      throw error;
    }
  });
}

/**
 * Makes a model's chain from its parsed generator string: resolves names against the registries, builds the
 * conditions and the generators, and refuses a condition that can never be fulfilled from the start
 * (docs/behaviour.md). `text` is the generator string as written, for messages.
 */
function buildChain(
  exprs: readonly GeneratorExpr[],
  text: string,
  context: ChainContext & { readonly model: number; readonly memo: WalkMemo; readonly feasibility: Feasibility },
): GeneratorChain {
  const { registries, graph, model, reachable, random, joined, memo, planning } = context;
  const describe = describeGenerator(graph, model, text);
  const scope: WalkScope = { graph, model, reachable };
  const parts = exprs.map((expr) => {
    const factory = registries.generators.find(expr.name);
    if (factory === undefined) {
      const known = registries.generators.names().join(', ');
      const explanation = `${describe}: unknown path generator '${expr.name}' at column ${expr.column}. Known: ${known}.`;
      throw new UnknownGeneratorNameError('generator', expr.name, model, explanation);
    }
    const condition = buildCondition(expr.condition, registries.conditions, scope, describe);
    const why = context.feasibility.whyNever(condition, scope);
    if (why !== undefined) throw new WalkerError(ErrorCodes.UNREACHABLE_GOAL, `${describe}: ${why}`);
    const generator = factory.create({ ...scope, condition, conditionExpr: expr.condition, random, joined, memo, planning });
    return { name: factory.name, generator, condition };
  });
  return new GeneratorChain(parts);
}

/** A {@link WalkMemo} on a plain map: the machine makes one with every set of chains; tests make their own. */
export class WalkMemoMap implements WalkMemo {
  private readonly values = new Map<object | symbol, unknown>();

  get<T>(key: object | symbol, make: () => T): T {
    if (!this.values.has(key)) this.values.set(key, make());
    return this.values.get(key) as T;
  }
}
