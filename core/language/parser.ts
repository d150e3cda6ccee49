/**
 * The parser of the generator language: `random(edge_coverage(100)) a_star(reached_vertex(v_X))`.
 *
 * It accepts GraphWalker's grammar and is more lenient where that costs nothing: `and` and `or` may be mixed
 * without parentheses (`and` binds tighter), the operator words may be written in any letter case, and an
 * argument may be a dotted name (`v.X`) or a quoted string (`'a vertex'`). It reads by recursive descent with a
 * bounded nesting depth, so that no input string can make it throw anything but a {@link GeneratorSyntaxError},
 * in time linear in the input, and it refuses more generators or stop conditions than its limits below.
 */
import type { GeneratorSyntaxError } from '../errors.js';
import type { ConditionCall, ConditionExpr, GeneratorExpr } from './ast.js';
import { Scanner, type Token } from './lexer.js';

export { printGenerators } from './printer.js';

/** How deeply parentheses may nest inside one stop condition; far beyond any real use, far below the stack limit. */
export const MAX_NESTING = 200;
/**
 * How many generators one string may run in sequence, how many stop conditions one generator's condition may
 * join, and how many the whole string may hold. Far beyond any real model; they bound what a walk keeps per
 * model and what the active condition asks on every step, whatever a client sends.
 */
export const MAX_GENERATORS = 1000;
export const MAX_CONDITIONS_PER_GENERATOR = 1000;
export const MAX_CONDITIONS = 10_000;

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
  /** Stop conditions read so far in the whole string, and in the generator being read. */
  private conditions = 0;
  private conditionsHere = 0;

  constructor(input: string) {
    this.scanner = new Scanner(input);
  }

  generators(): GeneratorExpr[] {
    const sequence = [this.generator('a generator name such as random(edge_coverage(100))')];
    while (this.scanner.peek().kind !== 'end') {
      if (sequence.length === MAX_GENERATORS) {
        throw this.error(this.scanner.peek(), `no more than ${MAX_GENERATORS} generators in a sequence`);
      }
      sequence.push(this.generator('another generator name or the end of the input'));
    }
    return sequence;
  }

  private generator(expected: string): GeneratorExpr {
    const name = this.scanner.take();
    if (name.kind !== 'name') throw this.error(name, expected);
    this.conditionsHere = 0;
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
    this.count(name);
    const bare: ConditionCall = { kind: 'call', name: name.text, column: name.column };
    if (this.scanner.peek().kind !== 'open') return bare;
    const open = this.scanner.take();
    const argument = this.scanner.readArgument();
    if (argument === undefined && this.scanner.peek().kind !== 'close') {
      throw this.error(this.scanner.peek(), 'a number or a name as argument');
    }
    this.close(open);
    if (argument === undefined) return bare;
    // Written out rather than spread from `bare`: V8's spread of it took most of the time of a whole parse.
    return { kind: 'call', name: name.text, column: name.column, argument: argument.value, argumentColumn: argument.column };
  }

  private count(condition: Token): void {
    if (this.conditionsHere === MAX_CONDITIONS_PER_GENERATOR) {
      throw this.error(condition, `no more than ${MAX_CONDITIONS_PER_GENERATOR} stop conditions in one generator`);
    }
    if (this.conditions === MAX_CONDITIONS) {
      throw this.error(condition, `no more than ${MAX_CONDITIONS} stop conditions in one generator string`);
    }
    this.conditionsHere++;
    this.conditions++;
  }

  private close(open: Token): void {
    const token = this.scanner.take();
    if (token.kind !== 'close') throw this.error(token, `')' to close the '(' at column ${open.column}`);
  }

  private error(at: Token, expected: string): GeneratorSyntaxError {
    return this.scanner.errorAt(at.column - 1, `expected ${expected}`);
  }
}
