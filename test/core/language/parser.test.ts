import { describe, expect, it } from 'vitest';
import { parseGenerators } from '../../../core/language/parser.js';
import { all, any, call, withoutColumns, type Shape } from './helpers.js';

function shape(text: string): Shape[] {
  return withoutColumns(parseGenerators(text));
}

describe('parseGenerators: GraphWalker examples', () => {
  it('reads a parenthesised and-group inside an or-group', () => {
    expect(shape('Random((vertex_coverage(100) and reached_vertex(myVertex)) or time_duration(90))')).toEqual([
      {
        name: 'Random',
        condition: any(all(call('vertex_coverage', '100'), call('reached_vertex', 'myVertex')), call('time_duration', '90')),
      },
    ]);
  });

  it('allows whitespace between all tokens and upper-case names and operators', () => {
    expect(shape('RANDOM ( REACHED_VERTEX( Some_vertex) OR REACHED_EDGE( Some_edge ) )')).toEqual([
      { name: 'RANDOM', condition: any(call('REACHED_VERTEX', 'Some_vertex'), call('REACHED_EDGE', 'Some_edge')) },
    ]);
  });

  it('reads a bare stop condition whose name is also a generator name', () => {
    expect(shape('predefined_path(predefined_path)')).toEqual([
      { name: 'predefined_path', condition: call('predefined_path') },
    ]);
  });

  it('reads the class-name form GraphWalker prints', () => {
    expect(shape('RandomPath(EdgeCoverage(100))')).toEqual([
      { name: 'RandomPath', condition: call('EdgeCoverage', '100') },
    ]);
  });

  it('reads a sequence of generators', () => {
    expect(shape('random(edge_coverage(50)) a_star(reached_vertex(v_X))')).toEqual([
      { name: 'random', condition: call('edge_coverage', '50') },
      { name: 'a_star', condition: call('reached_vertex', 'v_X') },
    ]);
  });

  it('reads never without parentheses and with empty ones alike', () => {
    expect(shape('random(never)')).toEqual(shape('random(never())'));
    expect(shape('random(never)')).toEqual([{ name: 'random', condition: call('never') }]);
  });

  it('reads symbolic operators', () => {
    expect(shape('random(length(10) && edge_coverage(100) || never)')).toEqual([
      { name: 'random', condition: any(all(call('length', '10'), call('edge_coverage', '100')), call('never')) },
    ]);
  });
});

describe('parseGenerators: operators and grouping', () => {
  const conditionOf = (text: string) => shape(`random(${text})`)[0].condition;

  it('binds and tighter than or, on either side', () => {
    expect(conditionOf('a or b and c')).toEqual(any(call('a'), all(call('b'), call('c'))));
    expect(conditionOf('a and b or c')).toEqual(any(all(call('a'), call('b')), call('c')));
    expect(conditionOf('a and b or c and d')).toEqual(any(all(call('a'), call('b')), all(call('c'), call('d'))));
  });

  it('lets parentheses override precedence', () => {
    expect(conditionOf('(a or b) and c')).toEqual(all(any(call('a'), call('b')), call('c')));
  });

  it('flattens a chain of one operator into one group', () => {
    expect(conditionOf('a and b AND c && d')).toEqual(all(call('a'), call('b'), call('c'), call('d')));
    expect(conditionOf('a or b OR c || d')).toEqual(any(call('a'), call('b'), call('c'), call('d')));
  });

  it('keeps a parenthesised group of the same kind as its own group', () => {
    expect(conditionOf('a and (b and c)')).toEqual(all(call('a'), all(call('b'), call('c'))));
  });

  it('reduces a parenthesised single condition to that condition', () => {
    expect(conditionOf('((( never )))')).toEqual(call('never'));
    expect(conditionOf('(a) and ((b))')).toEqual(all(call('a'), call('b')));
  });

  it('accepts the operator words in any letter case', () => {
    expect(conditionOf('a And b oR c')).toEqual(any(all(call('a'), call('b')), call('c')));
  });

  it('reads words that merely start with an operator as names', () => {
    expect(conditionOf('order and android')).toEqual(all(call('order'), call('android')));
    expect(conditionOf('or-else')).toEqual(call('or-else'));
  });

  it('needs no whitespace around symbolic operators or between generators', () => {
    expect(shape('random(a&&b||c)a_star(d)')).toEqual([
      { name: 'random', condition: any(all(call('a'), call('b')), call('c')) },
      { name: 'a_star', condition: call('d') },
    ]);
  });

  it('reads long chains and deep nesting up to the limit', () => {
    const chain = Array.from({ length: 1000 }, (_, i) => `c${i}`).join(' and ');
    expect((conditionOf(chain) as { operands: unknown[] }).operands).toHaveLength(1000);
    expect(conditionOf('('.repeat(200) + 'never' + ')'.repeat(200))).toEqual(call('never'));
  });
});

describe('parseGenerators: arguments', () => {
  const argumentOf = (text: string) => parseGenerators(`random(c(${text}))`)[0].condition;

  it.each([
    ['100', '100'],
    ['100%', '100'],
    ['007', '007'],
    ['-5', '-5'],
    ['v_Browse', 'v_Browse'],
    ['v.X', 'v.X'],
    ['ns:v$1-2', 'ns:v$1-2'],
    ['and', 'and'],
    ['"a vertex"', 'a vertex'],
    ["'a vertex'", 'a vertex'],
    ['"say \\"hi\\""', 'say "hi"'],
    ["'it\\'s'", "it's"],
    ['"back\\\\slash"', 'back\\slash'],
    ['"a)b(c"', 'a)b(c'],
    ['""', ''],
    ['  spaced  ', 'spaced'],
  ])('reads %s as %j', (written, value) => {
    expect(argumentOf(written)).toMatchObject({ argument: value });
  });

  it('tells no argument from an empty quoted one', () => {
    expect(argumentOf('')).not.toHaveProperty('argument');
    expect(argumentOf(' ')).not.toHaveProperty('argument');
    expect(argumentOf("''")).toHaveProperty('argument', '');
  });
});

describe('parseGenerators: columns', () => {
  it('gives the 1-based column of each generator, call and argument', () => {
    const [first, second] = parseGenerators('random(edge_coverage(100)) a_star( reached_vertex("v X"))');
    expect(first).toMatchObject({ column: 1, condition: { column: 8, argumentColumn: 22 } });
    expect(second).toMatchObject({ column: 28, condition: { column: 36, argumentColumn: 51 } });
  });

  it('puts a group where its first operand starts', () => {
    const [generator] = parseGenerators('random( (a and b) or c)');
    expect(generator.condition).toMatchObject({
      kind: 'any',
      column: 9,
      operands: [{ kind: 'all', column: 10, operands: [{ column: 10 }, { column: 16 }] }, { column: 22 }],
    });
  });

  it('counts columns across line breaks and tabs as single characters', () => {
    const [, second] = parseGenerators('random(never)\r\n\ta_star(\nreached_vertex(v))');
    expect(second).toMatchObject({ column: 17, condition: { column: 25, argumentColumn: 40 } });
  });
});
