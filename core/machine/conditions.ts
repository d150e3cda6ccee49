import type { ConditionExpr, ConditionCall } from '../language/ast.js';
import type { StopCondition, StopConditionFactory, ConditionArgumentValue } from '../condition.js';
import type { Registry } from '../registry.js';
import type { WalkScope, WalkState } from '../walk-state.js';
import { invalidGenerator } from '../errors.js';

/**
 * Turns a parsed condition into a live {@link StopCondition}: leaves come from the registry, `and`/`or`
 * groups become {@link AllOf}/{@link AnyOf}. `describe` prefixes error messages (the generator string).
 */
export function buildCondition(
  expr: ConditionExpr,
  conditions: Registry<StopConditionFactory>,
  scope: WalkScope,
  describe: string,
): StopCondition {
  if (expr.kind === 'call') return buildLeaf(expr, conditions, scope, describe);
  const operands = expr.operands.map((op) => buildCondition(op, conditions, scope, describe));
  return expr.kind === 'all' ? new AllOf(operands) : new AnyOf(operands);
}

function buildLeaf(
  call: ConditionCall,
  conditions: Registry<StopConditionFactory>,
  scope: WalkScope,
  describe: string,
): StopCondition {
  const factory = conditions.find(call.name);
  if (factory === undefined) {
    throw invalidGenerator(
      `${describe}: unknown stop condition '${call.name}' at column ${call.column}. ` +
        `Known: ${conditions.names().join(', ')}.`,
    );
  }
  const condition = factory.create(argumentOf(call, factory, describe), scope);
  return factory.endsOnVertex ? new OnVertex(condition) : condition;
}

function argumentOf(call: ConditionCall, factory: StopConditionFactory, describe: string): ConditionArgumentValue {
  const at = `${describe}: ${factory.name}`;
  const arg = call.argument;
  switch (factory.argument) {
    case 'none':
      if (arg !== undefined) throw invalidGenerator(`${at} takes no argument, got '${arg}'`);
      return undefined;
    case 'integer':
      if (arg === undefined || !/^\d+$/.test(arg)) {
        throw invalidGenerator(`${at} takes a whole number, e.g. ${factory.name}(100), got ${arg === undefined ? 'nothing' : `'${arg}'`}`);
      }
      return Number(arg);
    case 'name':
      if (arg === undefined || arg === '') throw invalidGenerator(`${at} takes a name, e.g. ${factory.name}(v_Name)`);
      return arg;
  }
}

/** Coverage, length and time conditions count only while the walk stands on a vertex (docs/generators.md). */
export class OnVertex implements StopCondition {
  readonly targets?: readonly number[];
  readonly onStep?: StopCondition['onStep'];

  constructor(readonly inner: StopCondition) {
    this.targets = inner.targets;
    if (inner.onStep) this.onStep = inner.onStep.bind(inner);
  }

  isFulfilled(walk: WalkState): boolean {
    return walk.current >= 0 && walk.graph.isVertex(walk.current) && this.inner.isFulfilled(walk);
  }

  fulfilment(walk: WalkState): number {
    return this.inner.fulfilment(walk);
  }
}

/** `and` and `or`; whether one can ever be fulfilled is judged by `feasibility.ts`, which sees through both. */
abstract class Group implements StopCondition {
  readonly targets?: readonly number[];

  constructor(readonly operands: readonly StopCondition[]) {
    const targets = operands.flatMap((op) => op.targets ?? []);
    if (targets.length > 0) this.targets = [...new Set(targets)];
  }

  abstract isFulfilled(walk: WalkState): boolean;
  abstract fulfilment(walk: WalkState): number;

  onStep(walk: WalkState, element: number, firstVisit: boolean): void {
    for (const op of this.operands) op.onStep?.(walk, element, firstVisit);
  }
}

/** `a and b`: every operand fulfilled. */
export class AllOf extends Group {
  isFulfilled(walk: WalkState): boolean {
    return this.operands.every((op) => op.isFulfilled(walk));
  }

  fulfilment(walk: WalkState): number {
    return this.operands.reduce((sum, op) => sum + op.fulfilment(walk), 0) / this.operands.length;
  }
}

/** `a or b`: any operand fulfilled. */
export class AnyOf extends Group {
  isFulfilled(walk: WalkState): boolean {
    return this.operands.some((op) => op.isFulfilled(walk));
  }

  fulfilment(walk: WalkState): number {
    return Math.max(...this.operands.map((op) => op.fulfilment(walk)));
  }
}

/**
 * Why a condition can never be fulfilled, judged at its leaves by `leaf` (undefined: it may be): under `and`
 * one such operand is enough, and when none is, `together` may judge the operands jointly; under `or` every
 * operand must fail, and the reasons are joined.
 */
export function whyNever(
  condition: StopCondition,
  leaf: (condition: StopCondition) => string | undefined,
  together?: (all: AllOf) => string | undefined,
): string | undefined {
  if (condition instanceof OnVertex) return whyNever(condition.inner, leaf, together);
  if (condition instanceof AnyOf) {
    const reasons: string[] = [];
    for (const op of condition.operands) {
      const why = whyNever(op, leaf, together);
      if (why === undefined) return undefined;
      reasons.push(why);
    }
    return reasons.join('; and ');
  }
  if (condition instanceof AllOf) {
    for (const op of condition.operands) {
      const why = whyNever(op, leaf, together);
      if (why !== undefined) return why;
    }
    return together?.(condition);
  }
  return leaf(condition);
}

/** Whether a condition demands elements anywhere in it (coverage, a target to reach), `and`s and `or`s included. */
export function demandsElements(condition: StopCondition): boolean {
  if (condition instanceof OnVertex) return demandsElements(condition.inner);
  if (condition instanceof AllOf || condition instanceof AnyOf) return condition.operands.some(demandsElements);
  return condition.demand !== undefined;
}
