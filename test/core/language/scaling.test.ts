import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { GeneratorSyntaxError } from '../../../core/errors.js';
import type { ConditionCall, ConditionExpr, GeneratorExpr } from '../../../core/language/ast.js';
import { MAX_CONDITIONS, MAX_CONDITIONS_PER_GENERATOR, MAX_GENERATORS, parseGenerators, printGenerators } from '../../../core/language/parser.js';
import { printCondition } from '../../../core/language/printer.js';
import { boundedRatio } from '../../support/growth.js';

/**
 * The parser's time grows with its input and no faster: for random generator strings grown in each way a
 * string can grow within the language's limits (more generators, longer chains, longer names and arguments,
 * more white space, broken at the end or not), twice the input takes at most twice the time, with room for a
 * busy machine. Each input is about 100,000 characters, enough for its parse to outweigh the timer's grain.
 */

/** Twice the input may take at most this many times as long: linear is 2, quadratic 4. */
const BOUND = 3;
/** About how many characters the smaller input of each pair holds. */
const SIZE = 100_000;

const name = fc.stringMatching(/^[A-Za-z_][A-Za-z0-9_-]{0,8}$/).filter((n) => !/^(and|or)$/i.test(n));
const argument = fc.oneof(fc.nat().map(String), fc.stringMatching(/^[A-Za-z0-9_.:$-]{1,10}$/), fc.constantFrom('a b', 'x"y', "it's", 'back\\slash'));
const { condition } = fc.letrec<{ condition: ConditionExpr; call: ConditionExpr; group: ConditionExpr }>((tie) => ({
  condition: fc.oneof({ depthSize: 'small', withCrossShrink: true }, tie('call'), tie('group')),
  call: fc.record({ kind: fc.constant('call' as const), name, column: fc.constant(1), argument }, { requiredKeys: ['kind', 'name', 'column'] }),
  group: fc.record({ kind: fc.constantFrom('all' as const, 'any' as const), operands: fc.array(tie('condition'), { minLength: 2, maxLength: 4 }) }),
}));
const unit = fc.array(fc.record({ name, column: fc.constant(1), condition }), { minLength: 1, maxLength: 3 });

/** How the input grows: each builds the string of a size `k`, so that `k` and `2k` make twice the input. */
type Growth = (sequence: readonly GeneratorExpr[]) => (k: number) => string;

const leaves = (c: ConditionExpr): number => (c.kind === 'call' ? 1 : c.operands.reduce((n, o) => n + leaves(o), 0));

/** The sequence repeated k times. */
const repeated: Growth = (sequence) => {
  const text = printGenerators(sequence);
  return (k) => Array.from({ length: k }, () => text).join(' ');
};

/** One generator whose condition is the first generator's, k times over, joined by `and` / `or`. */
const chained: Growth = (sequence) => {
  const operand = `(${printCondition(sequence[0].condition)})`;
  return (k) => `${sequence[0].name}(${Array.from({ length: k }, (_, i) => (i === 0 ? '' : i % 2 ? ' and ' : ' or ') + operand).join('')})`;
};

/** The sequence with every run of white space k characters long. */
const spaced: Growth = (sequence) => {
  const text = printGenerators(sequence).replace(/\(/g, ' ( ').replace(/\)/g, ' ) ');
  return (k) => text.replace(/ /g, ' \t\n'.repeat(k).slice(0, k));
};

/** The calls of a condition changed by `change`. */
function mapCalls(condition: ConditionExpr, change: (call: ConditionCall) => ConditionCall): ConditionExpr {
  return condition.kind === 'call' ? change(condition) : { ...condition, operands: condition.operands.map((o) => mapCalls(o, change)) };
}

/** The sequence with every name, of generators and conditions, k characters longer. */
const named: Growth = (sequence) => (k) => {
  const longer = (name: string) => name + '_'.repeat(k);
  return printGenerators(
    sequence.map((g) => ({ ...g, name: longer(g.name), condition: mapCalls(g.condition, (c) => ({ ...c, name: longer(c.name) })) })),
  );
};

/** The sequence with every argument a string of k characters that must be quoted, with escapes. */
const quoted: Growth = (sequence) => (k) => {
  const long = 'a "b" \\ c '.repeat(k).slice(0, k);
  const change = (c: ConditionCall): ConditionCall => (c.argument === undefined ? c : { ...c, argument: long });
  return printGenerators(sequence.map((g) => ({ ...g, condition: mapCalls(g.condition, change) })));
};

/** The size `k` of each growth at which the smaller input holds about {@link SIZE} characters, within the limits at 2k. */
function smallSize(growth: Growth, sequence: readonly GeneratorExpr[]): number | undefined {
  const build = growth(sequence);
  const perStep = build(2).length - build(1).length;
  if (perStep <= 0) return undefined;
  let k = Math.max(1, Math.floor(SIZE / perStep));
  if (growth === repeated) {
    const conditions = sequence.reduce((n, g) => n + leaves(g.condition), 0);
    k = Math.min(k, Math.floor(MAX_GENERATORS / sequence.length / 2), Math.floor(MAX_CONDITIONS / conditions / 2));
  }
  if (growth === chained) k = Math.min(k, Math.floor(MAX_CONDITIONS_PER_GENERATOR / leaves(sequence[0].condition) / 2));
  return k;
}

/** Parses; a string broken on purpose throws its syntax error, which is part of the work timed. */
function parse(text: string): void {
  try {
    parseGenerators(text);
  } catch (error) {
    if (!(error instanceof GeneratorSyntaxError)) throw error;
  }
}

/**
 * Three quoted arguments of some 30,000 characters, each with three escapes in every thirteen: the size at which
 * a global regular-expression replace that resolved the escapes grew faster than its input (docs/benchmarks.md,
 * "The generator language's quoted arguments").
 */
const MANY_ESCAPES: GeneratorExpr[] = [
  { name: '_', column: 1, condition: { kind: 'call', name: 'A', column: 1, argument: '0' } },
  {
    name: 'A',
    column: 1,
    condition: {
      kind: 'all',
      operands: [
        { kind: 'call', name: 'A', column: 1, argument: '0' },
        { kind: 'call', name: 'a', column: 1, argument: 'a' },
      ],
    },
  },
];

describe('the parser takes time linear in its input', () => {
  it('twice the input takes at most twice the time, however the input grows', () => {
    const growths = fc.constantFrom<[string, Growth]>(['repeated', repeated], ['chained', chained], ['spaced', spaced], ['named', named], ['quoted', quoted]);
    fc.assert(
      fc.property(unit, growths, fc.boolean(), (sequence, [, growth], broken) => {
        const k = smallSize(growth, sequence);
        fc.pre(k !== undefined && k >= 2);
        const build = (size: number) => {
          const text = growth(sequence)(size);
          return broken ? text.slice(0, -1) : text;
        };
        const [small, large] = [build(k!), build(2 * k!)];
        if (!broken) expect(() => parseGenerators(large)).not.toThrow();
        expect(boundedRatio(() => parse(small), () => parse(large), BOUND)).toBeLessThanOrEqual(BOUND);
      }),
      { numRuns: 15, examples: [[MANY_ESCAPES, ['quoted', quoted], false]] },
    );
  }, 120_000);
});
