/**
 * The parser of the generator language: `random(edge_coverage(100)) a_star(reached_vertex(v_X))`.
 *
 * It accepts GraphWalker's grammar and is more lenient where that costs nothing: `and` and `or` may be mixed
 * without parentheses (`and` binds tighter), the operator words may be written in any letter case, and an
 * argument may be a dotted name (`v.X`) or a quoted string (`'a vertex'`). It reads by recursive descent with a
 * bounded nesting depth, so that no input string can make it throw anything but a {@link GeneratorSyntaxError}.
 */
import type { GeneratorSyntaxError } from '../errors.js';
import type { ConditionCall, ConditionExpr, GeneratorExpr } from './ast.js';
import { Scanner, type Token } from './lexer.js';

export { printGenerators } from './printer.js';

/** How deeply parentheses may nest inside one stop condition; far beyond any real use, far below the stack limit. */
export const MAX_NESTING = 200;

/**
 * Parses a whole generator string: one or more generators, each `name(condition)`, separated by whitespace.
 *
 * A chain of one operator becomes one group (`a and b and c` is one `all` group of three); a parenthesised group
 * stays a group of its own, so `a and (b and c)` keeps its shape. Names are kept as written.
 *
 * @throws {GeneratorSyntaxError} for any string that is not a generator sequence, with the 1-based column of
 *   the offending character (one past the end when the input ends too early) and what was expected there.
 */
export function parseGenerators(text: string): GeneratorExpr[] {
  return new Parser(text).generators();
}

type Operand = (expected: string) => ConditionExpr;

class Parser {
  private readonly scanner: Scanner;
  private depth = 0;

  constructor(input: string) {
    this.scanner = new Scanner(input);
  }

  generators(): GeneratorExpr[] {
    const sequence = [this.generator('a generator name such as random(edge_coverage(100))')];
    while (this.scanner.peek().kind !== 'end') {
      sequence.push(this.generator('another generator name or the end of the input'));
    }
    return sequence;
  }

  private generator(expected: string): GeneratorExpr {
    const name = this.scanner.take();
    if (name.kind !== 'name') throw this.error(name, expected);
    const open = this.scanner.take();
    if (open.kind !== 'open') throw this.error(open, `'(' after the generator name '${name.text}'`);
    const condition = this.disjunction(`a stop condition after '${name.text}('`);
    this.close(open);
    return { name: name.text, column: name.column, condition };
  }

  private disjunction(expected: string): ConditionExpr {
    return this.chain('any', 'or', (e) => this.conjunction(e), expected);
  }

  private conjunction(expected: string): ConditionExpr {
    return this.chain('all', 'and', (e) => this.primary(e), expected);
  }

  /** Operands joined by one operator, collected in a loop so that long chains cost no stack. */
  private chain(kind: 'all' | 'any', operator: 'and' | 'or', operand: Operand, expected: string): ConditionExpr {
    const column = this.scanner.peek().column;
    const operands = [operand(expected)];
    while (this.scanner.peek().kind === operator) {
      const written = this.scanner.take().text;
      operands.push(operand(`a stop condition after '${written}'`));
    }
    return operands.length === 1 ? operands[0] : { kind, operands, column };
  }

  private primary(expected: string): ConditionExpr {
    const token = this.scanner.take();
    if (token.kind === 'open') return this.parenthesised(token);
    if (token.kind !== 'name') throw this.error(token, expected);
    return this.call(token);
  }

  private parenthesised(open: Token): ConditionExpr {
    if (this.depth >= MAX_NESTING) {
      throw this.error(open, `no more than ${MAX_NESTING} nested parentheses`);
    }
    this.depth++;
    const inner = this.disjunction(`a stop condition after '('`);
    this.close(open);
    this.depth--;
    return inner;
  }

  private call(name: Token): ConditionCall {
    const bare: ConditionCall = { kind: 'call', name: name.text, column: name.column };
    if (this.scanner.peek().kind !== 'open') return bare;
    const open = this.scanner.take();
    const argument = this.scanner.readArgument();
    if (argument === undefined && this.scanner.peek().kind !== 'close') {
      throw this.error(this.scanner.peek(), 'a number or a name as argument');
    }
    this.close(open);
    if (argument === undefined) return bare;
    return { ...bare, argument: argument.value, argumentColumn: argument.column };
  }

  private close(open: Token): void {
    const token = this.scanner.take();
    if (token.kind !== 'close') throw this.error(token, `')' to close the '(' at column ${open.column}`);
  }

  private error(at: Token, expected: string): GeneratorSyntaxError {
    return this.scanner.errorAt(at.column - 1, `expected ${expected}`);
  }
}
