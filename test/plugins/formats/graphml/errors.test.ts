import { describe, expect, it } from 'vitest';
import { read, refusal } from './read-graphml.js';
import { ErrorCodes } from '../../../../core/errors.js';
import { collectModelIssues } from '../../../../core/model/issues.js';
import { withInferredStarts } from '../../../../core/model/start-element.js';



const HEAD = '<?xml version="1.0"?>\n<graphml xmlns="http://graphml.graphdrawing.org/xmlns" xmlns:y="http://www.yworks.com/xml/graphml">';
const node = (id: string, label: string) => `<node id="${id}"><data key="d0"><y:ShapeNode><y:NodeLabel>${label}</y:NodeLabel></y:ShapeNode></data></node>`;
const edge = (id: string, source: string, target: string, label = '') =>
  `<edge id="${id}" source="${source}" target="${target}"><data key="d1"><y:PolyLineEdge><y:EdgeLabel>${label}</y:EdgeLabel></y:PolyLineEdge></data></edge>`;
const doc = (...parts: string[]) => `${HEAD}<graph id="G" edgedefault="directed">\n${parts.join('\n')}\n</graph></graphml>`;

describe('GraphML documents walker refuses', () => {
  it('reads a minimal yEd document as drawn; core settles its start, for a load and for a conversion alike', () => {
    const text = doc(node('n0', 'Start'), node('n1', 'v_A'), edge('e0', 'n0', 'n1', 'e_Go'));
    expect(read(text)).toEqual({
      models: [{ name: 'm', vertices: [{ id: 'n0', name: 'Start' }, { id: 'n1', name: 'v_A' }], edges: [{ id: 'e0', name: 'e_Go', sourceVertexId: 'n0', targetVertexId: 'n1' }] }],
    });
    const settled = { name: 'm', startElementId: 'e0', vertices: [{ id: 'n1', name: 'v_A' }], edges: [{ id: 'e0', name: 'e_Go', targetVertexId: 'n1' }] };
    expect(withInferredStarts(read(text))).toEqual({ models: [settled] });
    expect(collectModelIssues(read(text), { blocked: true }).file?.models[0]).toMatchObject(settled);
  });

  it('names the line and column of malformed XML', () => {
    const error = refusal(`${HEAD}\n<graph id="G">\n<node id="n0"></graph></graphml>`);
    expect(error.code).toBe(ErrorCodes.MODEL_SYNTAX);
    // Line 4 holds `<node id="n0"></graph>`: the parser stops at the end of the close tag that closes nothing open.
    expect(error.message).toBe('m.graphml: The GraphML document cannot be read: the document is not well-formed XML: line 4, column 22: unexpected close tag.');
  });

  it('refuses a DOCTYPE at once: no entity expansion (billion laughs), no external entity (XXE)', () => {
    const laughs = [
      '<!ENTITY lol "lol">',
      ...Array.from({ length: 9 }, (_, i) => `<!ENTITY lol${i + 1} "${`&lol${i === 0 ? '' : i};`.repeat(10)}">`),
    ];
    const bomb = `<?xml version="1.0"?>\n<!DOCTYPE graphml [\n${laughs.join('\n')}\n]>\n<graphml><graph>${node('n0', '&lol9;')}</graph></graphml>`;
    const xxe = '<?xml version="1.0"?>\n<!DOCTYPE graphml [<!ENTITY xxe SYSTEM "file:///etc/passwd">]>\n<graphml><graph>&xxe;</graph></graphml>';
    for (const text of [bomb, xxe]) {
      const started = performance.now();
      const error = refusal(text);
      // 10^9 "lol"s would take gigabytes and minutes; refused before the first element, it takes nothing.
      expect(performance.now() - started).toBeLessThan(100);
      expect(error.code).toBe(ErrorCodes.MODEL_SYNTAX);
      expect(error.message).toMatch(/: the document declares a DOCTYPE\. walker reads no DTD \(no external entities, no entity definitions\)/);
    }
    // Without a DOCTYPE an entity is undefined: not well-formed.
    expect(refusal(doc(node('n0', '&xxe;'))).message).toMatch(/not well-formed XML: line 3, column \d+: undefined entity/i);
  });

  it('refuses a document that is no GraphML, or GraphML without yEd labels', () => {
    expect(refusal('<svg xmlns="http://www.w3.org/2000/svg"/>').message).toBe(
      'm.graphml: The GraphML document cannot be read: the root element is <svg>, not <graphml>: this is no GraphML document',
    );
    expect(refusal(`${HEAD}</graphml>`).message).toMatch(/the <graphml> element holds no <graph>$/);
    const plain = `${HEAD}<key id="label" for="node" attr.name="label"/><graph id="G"><node id="n0"><data key="label">v1</data></node></graph></graphml>`;
    expect(refusal(plain).message).toBe(
      "m.graphml, element 'n0': the node has no yEd graphics with a label (such as <y:ShapeNode> with <y:NodeLabel> for a " +
        'node, <y:PolyLineEdge> with <y:EdgeLabel> for an edge): walker reads GraphML as yEd writes it (line 2 of the document)',
    );
  });

  it('refuses an edge to a missing node, from a group, or between two models', () => {
    const missing = refusal(doc(node('n0', 'v_A'), edge('e0', 'n0', 'n9')));
    expect([missing.code, missing.message]).toEqual([
      ErrorCodes.MODEL_INVALID,
      "m.graphml, element 'e0', field 'target': the edge's target 'n9' is no node of the document (line 4 of the document)",
    ]);
    const group = `<node id="g" yfiles.foldertype="group"><graph id="g:">${node('g::n0', 'v_A')}</graph></node>`;
    expect(refusal(doc(group, edge('e0', 'g::n0', 'g'))).message).toMatch(/the edge's target 'g' is a group node; edges join vertices/);
  });

  it("refuses walker's data key when it is not a JSON object", () => {
    const keyed = `${HEAD}<key id="w" for="node" attr.name="walker" attr.type="string"/><graph id="G"><node id="n0"><data key="w">{broken</data><data key="d0"><y:ShapeNode><y:NodeLabel>v</y:NodeLabel></y:ShapeNode></data></node></graph></graphml>`;
    expect(refusal(keyed).message).toMatch(/^m\.graphml, element 'n0', field 'walker': the walker data of node 'n0' is not JSON/);
  });
});

describe('A yEd Start vertex, read as drawn and judged by the start rule of every format', () => {
  const load = (text: string, blocked = true) => collectModelIssues(read(text), { blocked });
  const summary = (text: string, blocked = true) => {
    const { file, issues } = load(text, blocked);
    const model = file?.models[0];
    return {
      start: model?.startElementId,
      vertices: model?.vertices.map((v) => v.id),
      issues: issues.map((i) => `${i.severity} ${i.code}`),
    };
  };

  it('keeps one that no edge, or two, leave as a vertex named Start; the load warns and refuses a walk without a start', () => {
    expect(read(doc(node('n0', ' start '), node('n1', 'v_A')))).toEqual({
      models: [{ name: 'm', vertices: [{ id: 'n0', name: 'start' }, { id: 'n1', name: 'v_A' }], edges: [] }],
    });
    const two = read(doc(node('n0', 'Start'), node('n1', 'v_A'), edge('e0', 'n0', 'n1'), edge('e1', 'n0', 'n1')));
    expect(two.models[0].vertices[0]).toEqual({ id: 'n0', name: 'Start' });
    expect(two.models[0].edges.map((e) => e.sourceVertexId)).toEqual(['n0', 'n0']);
    expect(summary(doc(node('n0', 'Start'), node('n1', 'v_A'), edge('e0', 'n0', 'n1'), edge('e1', 'n0', 'n1'))).issues).toEqual([
      'error no_start_element',
      'warning ambiguous_start',
    ]);
  });

  it('is a state like any other when an edge leads into it, as a JSON vertex named Start is; it marks no start then', () => {
    const into = doc(node('n0', 'Start'), node('n1', 'v_A'), edge('e0', 'n0', 'n1'), edge('e1', 'n1', 'n0'));
    expect(read(into).models[0]).toEqual({
      name: 'm',
      vertices: [{ id: 'n0', name: 'Start' }, { id: 'n1', name: 'v_A' }],
      edges: [
        { id: 'e0', sourceVertexId: 'n0', targetVertexId: 'n1' },
        { id: 'e1', sourceVertexId: 'n1', targetVertexId: 'n0' },
      ],
    });
    expect(summary(into)).toEqual({ start: undefined, vertices: undefined, issues: ['error no_start_element'] });
  });

  it('may be drawn twice: the one edge they mark starts the walk, several are named in a warning', () => {
    const one = doc(node('n0', 'Start'), node('n1', 'start'), node('n2', 'v_A'), edge('e0', 'n0', 'n2'));
    expect(summary(one)).toEqual({ start: 'e0', vertices: ['n1', 'n2'], issues: ['warning unreachable_element'] });
    const both = doc(node('n0', 'Start'), node('n1', 'start'), node('n2', 'v_A'), edge('e0', 'n0', 'n2'), edge('e1', 'n1', 'n2'));
    expect(summary(both).issues).toEqual(['error no_start_element', 'warning ambiguous_start']);
  });

  it('marks its start among the edges a load keeps: blocked ones are left out first', () => {
    const text = doc(node('n0', 'Start'), node('n1', 'v_A'), node('n2', 'v_B'), edge('e0', 'n0', 'n1', 'e_Old BLOCKED'), edge('e1', 'n0', 'n2', 'e_New'), edge('e2', 'n1', 'n2', 'e_AB'), edge('e3', 'n2', 'n1', 'e_BA'));
    expect(summary(text)).toEqual({ start: 'e1', vertices: ['n1', 'n2'], issues: [] });
    expect(summary(text, false).issues).toEqual(['error no_start_element', 'warning ambiguous_start']);
    // Its one edge blocked, a Start vertex marks nothing among what the load keeps, as a JSON vertex named Start.
    const alone = doc(node('n0', 'Start'), node('n1', 'v_A'), edge('e0', 'n0', 'n1', 'e_Old BLOCKED'), edge('e1', 'n1', 'n1', 'e_Stay'));
    expect(summary(alone).issues).toEqual(['error no_start_element', 'warning start_vertex_without_edge']);
    expect(summary(alone, false)).toEqual({ start: 'e0', vertices: ['n1'], issues: [] });
    const json = {
      models: [
        {
          name: 'm',
          vertices: [{ id: 'n0', name: 'Start' }, { id: 'n1', name: 'v_A' }],
          edges: [
            { id: 'e0', name: 'e_Old', sourceVertexId: 'n0', targetVertexId: 'n1', properties: { blocked: true } },
            { id: 'e1', name: 'e_Stay', sourceVertexId: 'n1', targetVertexId: 'n1' },
          ],
        },
      ],
    };
    const messages = (value: unknown) => collectModelIssues(value, { blocked: true }).issues.map((i) => `${i.code}: ${i.message}`);
    expect(messages(read(alone))).toEqual(messages(json));
  });
});
