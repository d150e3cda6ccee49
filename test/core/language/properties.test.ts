import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { GeneratorSyntaxError } from '../../../core/errors.js';
import type { ConditionExpr, GeneratorExpr } from '../../../core/language/ast.js';
import { parseGenerators, printGenerators } from '../../../core/language/parser.js';
import { withoutColumns } from './helpers.js';

/** Parses, and fails the property unless the outcome is a tree or a well-placed GeneratorSyntaxError. */
function parseOrSyntaxError(text: string): GeneratorExpr[] | undefined {
  try {
    return parseGenerators(text);
  } catch (error) {
    expect(error).toBeInstanceOf(GeneratorSyntaxError);
    const { column } = error as GeneratorSyntaxError;
    expect(column).toBeGreaterThanOrEqual(1);
    expect(column).toBeLessThanOrEqual(text.length + 1);
    return undefined;
  }
}

/** Whatever parses prints to text that parses to the same tree. */
function expectStable(text: string): void {
  const parsed = parseOrSyntaxError(text);
  if (parsed) expect(withoutColumns(parseGenerators(printGenerators(parsed)))).toEqual(withoutColumns(parsed));
}

const anyCodeUnit = fc.integer({ min: 0, max: 0xffff }).map((code) => String.fromCharCode(code));

const tokens = [
  'random', 'a_star', 'RandomPath', 'edge_coverage', 'reached_vertex', 'never', 'v.X', 'v_X', '100', '100%', '-5',
  '(', ')', '()', 'and', 'AND', 'And', 'or', 'OR', '&&', '||', '&', '|', '"', "'", '\\', '"a b"', "'c\\'d'", '%',
  '#', ',', '.', ':', '$', 'é', '\u00a0', 'x',
];
const separators = ['', '', ' ', '\n', '\t', '\r\n'];
const tokenText = fc
  .array(fc.tuple(fc.constantFrom(...tokens), fc.constantFrom(...separators)), { maxLength: 40 })
  .map((parts) => parts.flat().join(''));

const name = fc.stringMatching(/^[A-Za-z_][A-Za-z0-9_-]{0,8}$/).filter((n) => !/^(and|or)$/i.test(n));
const argument = fc.oneof(
  fc.nat().map(String),
  fc.stringMatching(/^[A-Za-z0-9_.:$-]{1,10}$/),
  fc.string({ unit: anyCodeUnit, maxLength: 10 }),
  fc.constantFrom('and', 'or', '100%', '"', "'", '\\', '', 'a b', ')'),
);
const { condition } = fc.letrec<{ condition: ConditionExpr; call: ConditionExpr; group: ConditionExpr }>((tie) => ({
  condition: fc.oneof({ depthSize: 'small', withCrossShrink: true }, tie('call'), tie('group')),
  call: fc.record(
    { kind: fc.constant('call' as const), name, column: fc.constant(1), argument },
    { requiredKeys: ['kind', 'name', 'column'] },
  ),
  group: fc.record({
    kind: fc.constantFrom('all' as const, 'any' as const),
    operands: fc.array(tie('condition'), { minLength: 2, maxLength: 4 }),
  }),
}));
const generators = fc.array(fc.record({ name, column: fc.constant(1), condition }), { minLength: 1, maxLength: 3 });

/** Valid text with one token inserted, or one character removed, at a random place: mostly near misses. */
const nearMiss = fc
  .tuple(generators, fc.nat(), fc.constantFrom(...tokens, ''))
  .map(([sequence, at, inserted]) => {
    const text = printGenerators(sequence);
    const cut = at % (text.length + 1);
    return text.slice(0, cut) + inserted + text.slice(inserted === '' ? cut + 1 : cut);
  });

describe('parseGenerators properties', () => {
  it('throws nothing but GeneratorSyntaxError for arbitrary strings', () => {
    fc.assert(fc.property(fc.string({ unit: 'binary', maxLength: 80 }), expectStable), { numRuns: 2000 });
    fc.assert(fc.property(fc.string({ unit: anyCodeUnit, maxLength: 80 }), expectStable), { numRuns: 2000 });
  });

  it('throws nothing but GeneratorSyntaxError for strings made of the language tokens', () => {
    fc.assert(fc.property(tokenText, expectStable), { numRuns: 5000 });
    fc.assert(fc.property(nearMiss, expectStable), { numRuns: 3000 });
  });

  it('reads back what printGenerators prints', () => {
    fc.assert(
      fc.property(generators, (sequence) => {
        expect(withoutColumns(parseGenerators(printGenerators(sequence)))).toEqual(withoutColumns(sequence));
      }),
      { numRuns: 2000 },
    );
  });
});
