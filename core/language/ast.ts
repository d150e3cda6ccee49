/**
 * The parsed form of a generator string such as `random(edge_coverage(100)) a_star(reached_vertex(v_X))`.
 * Names are kept as written (resolution against the registries is case-insensitive and happens later);
 * columns are 1-based positions in the input, for error messages.
 */

/** One generator of a sequence: `name(condition)`. */
export interface GeneratorExpr {
  readonly name: string;
  readonly column: number;
  readonly condition: ConditionExpr;
}

/** A stop condition, or `and` / `or` of several. */
export type ConditionExpr = ConditionCall | ConditionGroup;

/** `name`, `name()` or `name(argument)`. */
export interface ConditionCall {
  readonly kind: 'call';
  readonly name: string;
  readonly column: number;
  /** The argument as written (a number stays text: `"100"`); undefined when absent. */
  readonly argument?: string;
  /** Column of the argument, when present. */
  readonly argumentColumn?: number;
}

/** `a and b and c` (kind `all`) or `a or b` (kind `any`); at least two operands. */
export interface ConditionGroup {
  readonly kind: 'all' | 'any';
  readonly operands: readonly ConditionExpr[];
  /**
   * Column where the group starts (its first operand, or that operand's `(`), for messages about the group as a
   * whole; set by the parser, optional for groups built in code.
   */
  readonly column?: number;
}
