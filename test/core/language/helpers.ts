/** Shapes of parsed generators without columns, so tests can state the tree alone. */
import type { ConditionExpr, GeneratorExpr } from '../../../core/language/ast.js';

export type Shape = { name: string; condition: ConditionShape };
export type ConditionShape =
  | { kind: 'call'; name: string; argument?: string }
  | { kind: 'all' | 'any'; operands: ConditionShape[] };

/** The tree without any column, for comparisons "modulo columns". */
export function withoutColumns(generators: readonly GeneratorExpr[]): Shape[] {
  return generators.map((g) => ({ name: g.name, condition: conditionShape(g.condition) }));
}

function conditionShape(condition: ConditionExpr): ConditionShape {
  if (condition.kind !== 'call') {
    return { kind: condition.kind, operands: condition.operands.map(conditionShape) };
  }
  const call: ConditionShape = { kind: 'call', name: condition.name };
  return condition.argument === undefined ? call : { ...call, argument: condition.argument };
}

/** `name` or `name(argument)` as a shape. */
export function call(name: string, argument?: string): ConditionShape {
  return argument === undefined ? { kind: 'call', name } : { kind: 'call', name, argument };
}

export function all(...operands: ConditionShape[]): ConditionShape {
  return { kind: 'all', operands };
}

export function any(...operands: ConditionShape[]): ConditionShape {
  return { kind: 'any', operands };
}
