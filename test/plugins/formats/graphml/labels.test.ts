import { describe, expect, it } from 'vitest';
import { LabelSyntaxError } from '../../../../plugins/formats/graphml/label-lexer.js';
import { parseEdgeLabel, parseVertexLabel } from '../../../../plugins/formats/graphml/label-parser.js';
import { edgeView, vertexView, writeEdgeLabel, writeVertexLabel } from '../../../../plugins/formats/graphml/label-writer.js';

function syntaxError(parse: () => unknown): LabelSyntaxError {
  try {
    parse();
  } catch (error) {
    if (error instanceof LabelSyntaxError) return error;
    throw error;
  }
  throw new Error('the label parsed');
}

describe('edge labels', () => {
  it('read every field of the grammar, in any order after the name', () => {
    const label = 'e_Pay [count > 0 && items[0] >= 0] / count = 0; items = [];\nweight=0.3 dependency=2 BLOCKED REQTAG: R1, R 2';
    expect(parseEdgeLabel(label)).toEqual({
      name: 'e_Pay',
      // Brackets nest: the guard ends at the bracket that closes the first one.
      guard: 'count > 0 && items[0] >= 0',
      // Each action runs to its ';', the whitespace before it included, as GraphWalker keeps it.
      actions: [' count = 0;', ' items = [];'],
      weight: 0.3,
      dependency: 2,
      blocked: true,
      // A requirement tag runs to the next ',' (spaces inside it kept, around it dropped).
      requirements: ['R1', 'R 2'],
    });
    expect(parseEdgeLabel('REQTAG = A BLOCKED / x++; [y]')).toEqual({ requirements: ['A BLOCKED / x++; [y]'] });
    expect(parseEdgeLabel('[ok] e_Name')).toEqual({ guard: 'ok', name: 'e_Name' });
  });

  it('spell weight and dependency in any letter case, keywords BLOCKED and REQTAG in capitals only', () => {
    expect(parseEdgeLabel('e1 Weight =0.5 DEPENDENCY = 80')).toEqual({ name: 'e1', weight: 0.5, dependency: 80 });
    // `blocked` in lower case is a name, as for GraphWalker's lexer; a second name is refused.
    expect(syntaxError(() => parseEdgeLabel('e1 blocked')).problem).toBe("'blocked' starts a second name; a label has one at most");
  });

  it('drop /* */ comments anywhere and // comments after whitespace, keep names dotted or joined by ;', () => {
    expect(parseEdgeLabel('a.b.c;d /* note */ / x = 1; // the rest\nweight=0.1')).toEqual({
      name: 'a.b.c;d',
      actions: [' x = 1;'],
      weight: 0.1,
    });
    // An unclosed `/*` is no comment: its `/` starts actions, which never end.
    expect(syntaxError(() => parseEdgeLabel('e /* unclosed')).offset).toBe(3);
  });

  it('end the actions where another field starts, so that a weight after them is a weight', () => {
    expect(parseEdgeLabel('/ a = 1; weight=0.5')).toEqual({ actions: [' a = 1;'], weight: 0.5 });
    expect(parseEdgeLabel('/ a = 1; b = weight; BLOCKED')).toEqual({ actions: [' a = 1;', ' b = weight;'], blocked: true });
  });

  it('refuse what the grammar does not allow, saying where', () => {
    const cases: [string, number, string][] = [
      ['1_badName', 0, "expected a name, a [guard], '/' actions, weight=, dependency=, BLOCKED or REQTAG:, found '1'"],
      ['e_Back [ready == true', 7, "the '[' that opens a guard is never closed by ']'"],
      ['e / x++', 3, "expected actions after '/', each ending with ';'"],
      ['e weight=', 2, "expected a number after 'weight='"],
      ['e dependency=0.5', 13, 'dependency is a whole number from 0 to 100, got 0.5'],
      ['e [a] [b]', 6, "'[b]' starts a second guard; a label has one at most"],
      ['e REQTAG: a,,b', 12, 'expected a requirement tag (REQTAG: tag1, tag2)'],
      ['e.', 2, "expected a name after '.' in 'e.'"],
    ];
    for (const [label, offset, problem] of cases) {
      const error = syntaxError(() => parseEdgeLabel(label));
      expect([label, error.offset, error.problem]).toEqual([label, offset, problem]);
    }
  });
});

describe('vertex labels', () => {
  it('read a name, SHARED:, INIT: actions, BLOCKED and REQTAG:', () => {
    expect(parseVertexLabel('v_Home\nINIT: count = 0; items = [];\nSHARED: HOME BLOCKED REQTAG: REQ-1, REQ-2')).toEqual({
      name: 'v_Home',
      // Whitespace between `INIT:` and the first action is no part of it.
      init: ['count = 0;', ' items = [];'],
      sharedState: 'HOME',
      blocked: true,
      requirements: ['REQ-1', 'REQ-2'],
    });
    expect(parseVertexLabel('SHARED:MY_STATE')).toEqual({ sharedState: 'MY_STATE' });
    expect(parseVertexLabel('')).toEqual({});
  });

  it('take Start, in any letter case and alone, as the start marker', () => {
    expect(parseVertexLabel('Start')).toEqual({ start: true });
    expect(parseVertexLabel(' sTaRt /* the entry */ ')).toEqual({ start: true });
    expect(parseVertexLabel('v_Start')).toEqual({ name: 'v_Start' });
    expect(syntaxError(() => parseVertexLabel('Start INIT: x = 1;')).problem).toBe(
      "a Start vertex has nothing but 'Start' in its label, found 'INIT'",
    );
  });

  it('refuse a name that does not start with a letter, and a shared state without a name', () => {
    expect(syntaxError(() => parseVertexLabel('1')).offset).toBe(0);
    expect(syntaxError(() => parseVertexLabel('v SHARED: 7')).problem).toBe("expected the name of the shared state after 'SHARED:'");
  });
});

describe('writing labels', () => {
  it('writes one field a line, in an order that reads back as written', () => {
    const fields = { name: 'e_Add', guard: 'n < 3', actions: ['n++;', ' m = 1;'], weight: 0.25, dependency: 40, blocked: true as const, requirements: ['R1', 'R2'] };
    const written = writeEdgeLabel(fields);
    expect(written.text).toBe('e_Add\n[n < 3]\n/n++; m = 1;\nweight=0.25\ndependency=40\nBLOCKED\nREQTAG: R1, R2');
    expect(parseEdgeLabel(written.text)).toEqual(fields);
    expect(written.shown).toEqual(fields);
  });

  it('leaves out a field the grammar cannot hold, and tells what a reader will see of the others', () => {
    const written = writeVertexLabel({ name: 'a vertex', sharedState: 'S-1', init: ['x = 1; y = 2;'], requirements: [' padded '] });
    // A name with a space shows a safe form; a shared state with a dash does not parse; an action of two
    // statements reads as two.
    expect(written.text).toBe('a_vertex\nINIT: x = 1; y = 2;\nREQTAG:  padded ');
    expect(written.shown).toEqual({ name: 'a_vertex', init: ['x = 1;', ' y = 2;'], requirements: ['padded'] });
    // A keyword is no name: alone in a label, `Start` would make the vertex the Start vertex.
    expect(vertexView('name', 'Start')).toBe('Start_');
    expect(edgeView('weight', 1e-7)).toBe(1e-7);
    expect(edgeView('guard', 'a ] b')).toBeUndefined();
  });
});
