import type { ConditionExpr, ConditionCall } from '../language/ast.js';
import type { StopCondition, StopConditionFactory, ConditionArgumentValue } from '../condition.js';
import type { Registry } from '../registry.js';
import type { WalkScope, WalkState } from '../walk-state.js';
import { invalidGenerator, UnknownGeneratorNameError } from '../errors.js';

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
    const known = conditions.names().join(', ');
    const explanation = `${describe}: unknown stop condition '${call.name}' at column ${call.column}. Known: ${known}.`;
    throw new UnknownGeneratorNameError('condition', call.name, scope.model, explanation);
  }
  const condition = factory.create(argumentOf(call, factory, describe), scope);
  return factory.endsOnVertex ? new OnVertex(condition) : condition;
}

function argumentOf(call: ConditionCall, factory: StopConditionFactory, describe: string): ConditionArgumentValue {
  const at = () => `${describe}: ${factory.name}`;
  const arg = call.argument;
  switch (factory.argument) {
    case 'none':
      if (arg !== undefined) throw invalidGenerator(`${at()} takes no argument, got '${arg}'`);
      return undefined;
    case 'integer':
      if (arg === undefined || !/^\d+$/.test(arg)) {
        throw invalidGenerator(`${at()} takes a whole number, e.g. ${factory.name}(100), got ${arg === undefined ? 'nothing' : `'${arg}'`}`);
      }
      return Number(arg);
    case 'name':
      if (arg === undefined || arg === '') throw invalidGenerator(`${at()} takes a name, e.g. ${factory.name}(v_Name)`);
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
  /** Only where some operand counts steps, so that a group of conditions that do not costs the walk nothing per step. */
  readonly onStep?: StopCondition['onStep'];
  /** The targets of every operand, worked out on first read; null when there are none. */
  private collected: readonly number[] | null | undefined;

  constructor(readonly operands: readonly StopCondition[]) {
    const observers = operands.filter((op) => op.onStep !== undefined);
    if (observers.length > 0) {
      this.onStep = (walk, element, firstVisit) => {
        for (const op of observers) op.onStep!(walk, element, firstVisit);
      };
    }
  }

  /**
   * Every target of every operand, each once. Read on demand, and gathered from the leaves, because every
   * group of a nesting gathering its operands' lists would copy the deepest targets once per level.
   */
  get targets(): readonly number[] | undefined {
    if (this.collected === undefined) this.collected = targetsUnder(this);
    return this.collected ?? undefined;
  }

  abstract isFulfilled(walk: WalkState): boolean;
  abstract fulfilment(walk: WalkState): number;
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
    // A loop, not Math.max(...all): spreading a long list of operands overflows the stack.
    let most = 0;
    for (const op of this.operands) most = Math.max(most, op.fulfilment(walk));
    return most;
  }
}

/** The targets of the leaves under a group, in order, each once (lists shared by several leaves read once). */
function targetsUnder(group: Group): readonly number[] | null {
  const lists = new Set<readonly number[]>();
  const pending: StopCondition[] = [group];
  while (pending.length > 0) {
    const condition = pending.pop()!;
    if (condition instanceof Group) {
      for (let i = condition.operands.length - 1; i >= 0; i--) pending.push(condition.operands[i]);
    } else if (condition.targets !== undefined) {
      lists.add(condition.targets);
    }
  }
  const targets = new Set<number>();
  for (const list of lists) for (const t of list) targets.add(t);
  return targets.size === 0 ? null : [...targets];
}

/** How many reasons a message gives when every operand of an `or` fails, before it says how many more there are. */
const LISTED_REASONS = 3;

/**
 * Why a condition can never be fulfilled, judged at its leaves by `leaf` (undefined: it may be): under `and`
 * one such operand is enough, and when none is, `together` may judge the operands jointly; under `or` every
 * operand must fail, and the reasons are joined.
 *
 * `together` judges an `and` only where it is not itself an operand of an `and`: the outer one's operands
 * include the inner one's, and what cannot fit one walk among fewer operands cannot among more, so judging
 * every level of a nesting again would only repeat the work once per level.
 */
export function whyNever(
  condition: StopCondition,
  leaf: (condition: StopCondition) => string | undefined,
  together?: (all: AllOf) => string | undefined,
  inAll = false,
): string | undefined {
  if (condition instanceof OnVertex) return whyNever(condition.inner, leaf, together, inAll);
  if (condition instanceof AnyOf) {
    const reasons: string[] = [];
    for (const op of condition.operands) {
      const why = whyNever(op, leaf, together);
      if (why === undefined) return undefined;
      if (reasons.length < LISTED_REASONS) reasons.push(why);
    }
    const more = condition.operands.length - reasons.length;
    return reasons.join('; and ') + (more > 0 ? `; and ${more} more operands that can never be fulfilled either` : '');
  }
  if (condition instanceof AllOf) {
    for (const op of condition.operands) {
      const why = whyNever(op, leaf, together, true);
      if (why !== undefined) return why;
    }
    return inAll ? undefined : together?.(condition);
  }
  return leaf(condition);
}

/** Whether a condition demands elements anywhere in it (coverage, a target to reach), `and`s and `or`s included. */
export function demandsElements(condition: StopCondition): boolean {
  if (condition instanceof OnVertex) return demandsElements(condition.inner);
  if (condition instanceof AllOf || condition instanceof AnyOf) return condition.operands.some(demandsElements);
  return condition.demand !== undefined;
}
