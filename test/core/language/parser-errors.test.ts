import { describe, expect, it } from 'vitest';
import { ErrorCodes, GeneratorSyntaxError } from '../../../core/errors.js';
import { parseGenerators } from '../../../core/language/parser.js';

function syntaxError(text: string): GeneratorSyntaxError {
  try {
    parseGenerators(text);
  } catch (error) {
    if (error instanceof GeneratorSyntaxError) return error;
    throw error;
  }
  throw new Error(`'${text}' parsed without error`);
}

/** [input, column, expected] */
type Case = [string, number, string];

describe('parseGenerators: syntax errors', () => {
  const cases: Record<string, Case[]> = {
    'no generator at all': [
      ['', 1, 'a generator name such as random(edge_coverage(100))'],
      ['  \n', 4, 'a generator name such as random(edge_coverage(100))'],
      ['(never)', 1, 'a generator name such as random(edge_coverage(100))'],
      ['and(never)', 1, 'a generator name such as random(edge_coverage(100))'],
    ],
    'something after a generator': [
      ['random(never) )', 15, 'another generator name or the end of the input'],
      ['random(never) 42', 15, 'another generator name or the end of the input'],
    ],
    'no ( after a generator name': [
      ['random', 7, "'(' after the generator name 'random'"],
      ['random never', 8, "'(' after the generator name 'random'"],
      ['random(never) a_star reached_vertex(x)', 22, "'(' after the generator name 'a_star'"],
    ],
    'no stop condition where one must stand': [
      ['random()', 8, "a stop condition after 'random('"],
      ['random(100)', 8, "a stop condition after 'random('"],
      ['random("never")', 8, "a stop condition after 'random('"],
      ['random(never and)', 17, "a stop condition after 'and'"],
      ['random(never AND)', 17, "a stop condition after 'AND'"],
      ['random(never && or x)', 17, "a stop condition after '&&'"],
      ['random(a || )', 13, "a stop condition after '||'"],
      ['random(a or', 12, "a stop condition after 'or'"],
      ['random(a and ())', 15, "a stop condition after '('"],
      ['random(or)', 8, "a stop condition after 'random('"],
    ],
    'a missing )': [
      ['random(never', 13, "')' to close the '(' at column 7"],
      ['random(edge_coverage(100)', 26, "')' to close the '(' at column 7"],
      ['random(edge_coverage(100 x))', 26, "')' to close the '(' at column 21"],
      ['random(reached_vertex(v X))', 25, "')' to close the '(' at column 22"],
      ['random(a b)', 10, "')' to close the '(' at column 7"],
      ['random((a and b', 16, "')' to close the '(' at column 8"],
      ['random((a and b)', 17, "')' to close the '(' at column 7"],
      ['random(edge_coverage(abc%))', 25, "')' to close the '(' at column 21"],
    ],
    'no usable argument': [
      ['random(edge_coverage(()))', 22, 'a number or a name as argument'],
      ['random(edge_coverage(&&))', 22, 'a number or a name as argument'],
      ['random(edge_coverage(', 22, 'a number or a name as argument'],
      ['random(edge_coverage(%))', 22, 'a number or a name as argument'],
    ],
    'an unterminated quoted string': [
      ['random(reached_vertex("v X))', 29, 'the quoted string to be closed'],
      ["random(reached_vertex('v X\\'))", 31, 'the quoted string to be closed'],
      ['random(reached_vertex("v\\', 26, 'the quoted string to be closed'],
    ],
    'a single & or |': [
      ['random(a & b)', 10, "'&&' or 'and', not a single '&'"],
      ['random(a | b)', 10, "'||' or 'or', not a single '|'"],
    ],
    'an unknown character': [
      ['random(edge_coverage(100)) # comment', 28, "unexpected character '#'"],
      ['random(edge_coverage(100,50))', 25, "unexpected character ','"],
      ['random(reached_vertex(v\\X))', 24, "unexpected character '\\'"],
      ['random(never);', 14, "unexpected character ';'"],
      ['random(\u00a0never)', 8, 'unexpected character U+00A0'],
      ['random(\u0000)', 8, 'unexpected character U+0000'],
      ['random(é)', 8, "unexpected character 'é'"],
      ['random(\u{1F600})', 8, "unexpected character '\u{1F600}'"],
      ['random(\ud800)', 8, 'unexpected character U+D800'],
    ],
  };

  for (const [kind, examples] of Object.entries(cases)) {
    it.each(examples)(`${kind}: %j fails at column %i`, (text, column, expected) => {
      const error = syntaxError(text);
      const problem = expected.startsWith('unexpected ') ? expected : `expected ${expected}`;
      expect({ column: error.column, problem: error.problem }).toEqual({ column, problem });
      expect(error.message).toBe(`Generator '${text}', column ${column}: ${problem}`);
      expect(error.input).toBe(text);
      expect(error.code).toBe(ErrorCodes.GENERATOR_SYNTAX);
    });
  }

  it('says where, and what was expected, in the message', () => {
    expect(syntaxError('random(never and)').message).toBe(
      "Generator 'random(never and)', column 17: expected a stop condition after 'and'",
    );
  });

  it('bounds the nesting depth instead of overflowing the stack', () => {
    const error = syntaxError('random(' + '('.repeat(201) + 'never' + ')'.repeat(201) + ')');
    expect(error.column).toBe(208);
    expect(error.problem).toBe('expected no more than 200 nested parentheses');
    expect(syntaxError('random(' + '('.repeat(1_000_000)).column).toBe(208);
  });
});

describe('parseGenerators: limits', () => {
  const conditions = (n: number, first = 0) => Array.from({ length: n }, (_, i) => `length(${first + i})`);
  /** The 1-based column where `part` starts in `text`, the last time it appears. */
  const columnOf = (text: string, part: string) => text.lastIndexOf(part) + 1;

  it('reads 1,000 generators in a sequence, and refuses one more at its name', () => {
    const generators = conditions(1001).map((c) => `random(${c})`);
    expect(parseGenerators(generators.slice(0, 1000).join(' '))).toHaveLength(1000);
    const text = generators.join(' ');
    const error = syntaxError(text);
    expect({ column: error.column, problem: error.problem }).toEqual({
      column: columnOf(text, 'random(length(1000))'),
      problem: 'expected no more than 1000 generators in a sequence',
    });
    expect(error.message).toContain(`random(length(1000))…', column ${error.column}: expected no more than 1000 generators`);
  });

  it('reads 1,000 stop conditions in one generator, nested or not, and refuses one more at its name', () => {
    const flat = conditions(1000).join(' and ');
    expect(parseGenerators(`random(${flat})`)).toHaveLength(1);
    // Nesting does not reset the count: 999 in a chain, the thousandth and the one too many inside parentheses.
    const text = `random(${conditions(999).join(' or ')} or (length(999) and (never or length(1000))))`;
    const error = syntaxError(text);
    expect({ column: error.column, problem: error.problem }).toEqual({
      column: columnOf(text, 'never'),
      problem: 'expected no more than 1000 stop conditions in one generator',
    });
  });

  it('counts stop conditions per generator: the next generator has a thousand of its own', () => {
    const text = `random(${conditions(1000).join(' and ')}) a_star(${conditions(1000).join(' or ')})`;
    expect(parseGenerators(text)).toHaveLength(2);
  });

  it('reads 10,000 stop conditions in one string, and refuses one more at its name', () => {
    const generator = (g: number) => `random(${conditions(1000, g * 1000).join(' and ')})`;
    const full = Array.from({ length: 10 }, (_, g) => generator(g)).join(' ');
    expect(parseGenerators(full)).toHaveLength(10);
    const text = `${full} a_star(reached_vertex(v_End))`;
    const error = syntaxError(text);
    expect({ column: error.column, problem: error.problem }).toEqual({
      column: columnOf(text, 'reached_vertex(v_End)'),
      problem: 'expected no more than 10000 stop conditions in one generator string',
    });
  });
});
