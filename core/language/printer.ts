/**
 * The canonical text of a parsed generator sequence: one space between generators, lower-case `and` / `or`,
 * parentheses only where the structure needs them, names as written and arguments quoted only when they must
 * be. `parseGenerators(printGenerators(x))` gives `x` back, columns aside.
 */
import type { ConditionCall, ConditionExpr, ConditionGroup, GeneratorExpr } from './ast.js';
import { isBareArgument } from './lexer.js';

/**
 * Prints generators as text the parser reads back into the same tree, e.g.
 * `random(edge_coverage(100)) a_star(reached_vertex(v_X))`.
 *
 * Names are printed as they are; they must be valid names (`[A-Za-z_][A-Za-z0-9_-]*`, not `and` / `or`), as
 * every name from `parseGenerators` is.
 */
export function printGenerators(exprs: readonly GeneratorExpr[]): string {
  return exprs.map((generator) => `${generator.name}(${printCondition(generator.condition)})`).join(' ');
}

/** The text of one stop condition, without enclosing parentheses. */
export function printCondition(condition: ConditionExpr): string {
  if (condition.kind === 'call') return printCall(condition);
  const operator = condition.kind === 'all' ? ' and ' : ' or ';
  return condition.operands.map((operand) => printOperand(operand, condition.kind)).join(operator);
}

function printOperand(operand: ConditionExpr, parent: ConditionGroup['kind']): string {
  const text = printCondition(operand);
  // `and` binds tighter, so an `all` needs no parentheses inside an `any`. A group of the parent's own kind
  // gets them so that it stays a group of its own rather than merging into the parent's chain.
  const needsParentheses = operand.kind !== 'call' && (parent === 'all' || operand.kind === 'any');
  return needsParentheses ? `(${text})` : text;
}

function printCall(call: ConditionCall): string {
  if (call.argument === undefined) return call.name;
  return `${call.name}(${printArgument(call.argument)})`;
}

function printArgument(argument: string): string {
  if (isBareArgument(argument)) return argument;
  return `"${argument.replace(/["\\]/g, '\\$&')}"`;
}
