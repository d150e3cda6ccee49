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
  const out: string[] = [];
  exprs.forEach((generator, i) => {
    out.push(i === 0 ? '' : ' ', generator.name, '(');
    writeCondition(generator.condition, out);
    out.push(')');
  });
  return out.join('');
}

/** The text of one stop condition, without enclosing parentheses. */
export function printCondition(condition: ConditionExpr): string {
  const out: string[] = [];
  writeCondition(condition, out);
  return out.join('');
}

// Every piece goes into one list joined once, so that a group nested d deep is not copied d times.
function writeCondition(condition: ConditionExpr, out: string[]): void {
  if (condition.kind === 'call') {
    writeCall(condition, out);
    return;
  }
  const operator = condition.kind === 'all' ? ' and ' : ' or ';
  condition.operands.forEach((operand, i) => {
    if (i > 0) out.push(operator);
    writeOperand(operand, condition.kind, out);
  });
}

function writeOperand(operand: ConditionExpr, parent: ConditionGroup['kind'], out: string[]): void {
  // `and` binds tighter, so an `all` needs no parentheses inside an `any`. A group of the parent's own kind
  // gets them so that it stays a group of its own rather than merging into the parent's chain.
  const needsParentheses = operand.kind !== 'call' && (parent === 'all' || operand.kind === 'any');
  if (needsParentheses) out.push('(');
  writeCondition(operand, out);
  if (needsParentheses) out.push(')');
}

function writeCall(call: ConditionCall, out: string[]): void {
  out.push(call.name);
  if (call.argument !== undefined) out.push('(', printArgument(call.argument), ')');
}

function printArgument(argument: string): string {
  if (isBareArgument(argument)) return argument;
  return `"${argument.replace(/["\\]/g, '\\$&')}"`;
}
