import { describe, expect, it } from 'vitest';
import type { ConditionExpr, GeneratorExpr } from '../../../core/language/ast.js';
import { parseGenerators, printGenerators } from '../../../core/language/parser.js';

function call(name: string, argument?: string): ConditionExpr {
  return argument === undefined ? { kind: 'call', name, column: 1 } : { kind: 'call', name, column: 1, argument };
}

function printed(condition: ConditionExpr): string {
  return printGenerators([{ name: 'random', column: 1, condition }]);
}

describe('printGenerators', () => {
  it('prints a sequence separated by single spaces', () => {
    const sequence: GeneratorExpr[] = [
      { name: 'random', column: 1, condition: call('edge_coverage', '100') },
      { name: 'a_star', column: 1, condition: call('reached_vertex', 'v_X') },
    ];
    expect(printGenerators(sequence)).toBe('random(edge_coverage(100)) a_star(reached_vertex(v_X))');
  });

  it('normalises spacing and operators but keeps names as written', () => {
    const text = 'RANDOM ( REACHED_VERTEX( Some_vertex) OR REACHED_EDGE( Some_edge ) ) A_Star(x&&y)';
    expect(printGenerators(parseGenerators(text))).toBe(
      'RANDOM(REACHED_VERTEX(Some_vertex) or REACHED_EDGE(Some_edge)) A_Star(x and y)',
    );
  });

  it('prints a call without argument as a bare name', () => {
    expect(printGenerators(parseGenerators('random(never())'))).toBe('random(never)');
  });

  it('parenthesises groups only where the structure needs it', () => {
    const a = call('a');
    const b = call('b');
    const c = call('c');
    expect(printed({ kind: 'any', operands: [{ kind: 'all', operands: [a, b] }, c] })).toBe('random(a and b or c)');
    expect(printed({ kind: 'all', operands: [{ kind: 'any', operands: [a, b] }, c] })).toBe('random((a or b) and c)');
    expect(printed({ kind: 'all', operands: [a, { kind: 'all', operands: [b, c] }] })).toBe('random(a and (b and c))');
    expect(printed({ kind: 'any', operands: [{ kind: 'any', operands: [a, b] }, c] })).toBe('random((a or b) or c)');
  });

  it.each([
    ['100', '100'],
    ['v.X', 'v.X'],
    ['a vertex', '"a vertex"'],
    ['100%', '"100%"'],
    ['', '""'],
    ['say "hi"', '"say \\"hi\\""'],
    ['back\\slash', '"back\\\\slash"'],
    ["it's", '"it\'s"'],
  ])('prints the argument %j as %s', (argument, text) => {
    expect(printed(call('reached_vertex', argument))).toBe(`random(reached_vertex(${text}))`);
  });
});
