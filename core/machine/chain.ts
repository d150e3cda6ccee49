import type { GeneratorExpr } from '../language/ast.js';
import type { PathGenerator } from '../generator.js';
import type { StopCondition } from '../condition.js';
import type { Registries } from '../plugin.js';
import type { RandomSource } from '../random.js';
import type { WalkScope, WalkState } from '../walk-state.js';
import { ErrorCodes, invalidGenerator, WalkerError } from '../errors.js';
import { buildCondition } from './conditions.js';

/** One `generator(condition)` of a model's generator string, made live. */
export interface ChainPart {
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

/**
 * Makes a model's chain from its parsed generator string: resolves names against the registries, builds the
 * conditions and the generators, and refuses a condition that can never be fulfilled from the start
 * (docs/behaviour.md). `text` is the generator string as written, for messages.
 */
export function buildChain(
  exprs: readonly GeneratorExpr[],
  text: string,
  registries: Registries,
  scope: WalkScope,
  random: RandomSource,
): GeneratorChain {
  const model = scope.graph.models[scope.model];
  const describe = `Model '${model.name ?? model.id}', generator '${text}'`;
  const parts = exprs.map((expr) => {
    const factory = registries.generators.find(expr.name);
    if (factory === undefined) {
      throw invalidGenerator(
        `${describe}: unknown path generator '${expr.name}' at column ${expr.column}. ` +
          `Known: ${registries.generators.names().join(', ')}.`,
      );
    }
    const condition = buildCondition(expr.condition, registries.conditions, scope, describe);
    const why = condition.unreachable?.(scope);
    if (why !== undefined) throw new WalkerError(ErrorCodes.UNREACHABLE_GOAL, `${describe}: ${why}`);
    const generator = factory.create({ ...scope, condition, conditionExpr: expr.condition, random });
    return { generator, condition };
  });
  return new GeneratorChain(parts);
}
