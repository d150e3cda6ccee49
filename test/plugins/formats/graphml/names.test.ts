import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { ErrorCodes, WalkerError } from '../../../../core/errors.js';
import { withInferredStarts } from '../../../../core/model/start-element.js';
import type { ModelFileJson } from '../../../../core/model/types.js';
import { graphmlFormat } from '../../../../plugins/formats/graphml/index.js';
import { labelNameOf } from '../../../../plugins/formats/graphml/label-names.js';
import { parseEdgeLabel, parseVertexLabel } from '../../../../plugins/formats/graphml/label-parser.js';
import { readGraphmlDocument } from '../../../../plugins/formats/graphml/xml-reader.js';

const write = graphmlFormat.write as NonNullable<typeof graphmlFormat.write>;
/** As a conversion answers it: the start settled by core's rule. */
const read = (text: string) => withInferredStarts((graphmlFormat.read as NonNullable<typeof graphmlFormat.read>)(text, { path: 'm.graphml' }));

/** A model of one vertex with a loop and a start edge, each named as given. */
function named(vertexName: string, loopName: string, startName: string, sharedState?: string): ModelFileJson {
  const vertex = sharedState === undefined ? { id: 'a', name: vertexName } : { id: 'a', name: vertexName, sharedState };
  return {
    models: [
      {
        id: 'm',
        name: 'm',
        startElementId: 'e0',
        vertices: [vertex],
        edges: [
          { id: 'e0', name: startName, targetVertexId: 'a' },
          { id: 'e1', name: loopName, sourceVertexId: 'a', targetVertexId: 'a' },
        ],
      },
    ],
  };
}

/** What GraphWalker reads from the labels of a written document: every label through its grammar. */
function labelsAsRead(text: string): { vertices: unknown[]; edges: unknown[] } {
  const document = readGraphmlDocument(text);
  const label = (data: (typeof document.nodes)[number]['data']) => data.find((d) => d.graphics)?.graphics?.labels.join('').trim() ?? '';
  return {
    vertices: document.nodes.map((n) => parseVertexLabel(label(n.data))),
    edges: document.edges.map((e) => parseEdgeLabel(label(e.data))),
  };
}

describe('names written as GraphML stay names', () => {
  it('keeps names that read as a guard, actions or a shared state, and shows GraphWalker a name alone', () => {
    const file = named('v_Home SHARED: HOME', 'e_Quit / signedIn = true; remember = true;', 'e_Logout [false]');
    const text = write(file);
    expect(read(text)).toEqual(file);
    // No guard, no action, no shared state: each label is one name, the name's letters and digits.
    expect(labelsAsRead(text)).toEqual({
      vertices: [{ name: 'v_Home_SHARED_HOME' }, { start: true }],
      edges: [{ name: 'e_Logout_false_' }, { name: 'e_Quit_signedIn_true_remember_true_' }],
    });
  });

  it('keeps a field that reads alone but clashes beside the others, and so is left off the label', () => {
    // '//*&amp;' alone reads as the actions '/*&amp;'; after the guard's line, '//' starts a comment. The label
    // shows the guard only, and walker's data keeps the actions, which a reader judging each field alone
    // took for actions deleted in yEd. (Found by the fuzzing below.)
    const file = named('v_A', 'e_B', 'e_C');
    Object.assign(file.models[0].edges[1], { guard: '', actions: ['/*&amp;'] });
    expect(read(write(file))).toEqual(file);
  });

  it('keeps a name left off the first vertex\'s label for the model\'s actions and tags written beside it', () => {
    // The model's actions go on its first vertex's label: in `_`, `INIT: /*;`, `REQTAG: */`, one per line, the
    // grammar reads from `/*` to the tags' `*/` as a comment, so the name and the actions are left off the label
    // and kept in walker's data. Written again
    // without the actions, `_` and the tags read fine, so a reader that left them out took the name for one
    // deleted in yEd. (Found by the fuzzing below.)
    const file = named('\u0000', 'e_B', 'e_C', '');
    Object.assign(file.models[0].vertices[0], { requirements: ['*/'] });
    file.models[0].actions = ['/*;'];
    expect(labelsAsRead(write(file)).vertices[0]).toEqual({ requirements: ['*/'] });
    expect(read(write(file))).toEqual(file);
  });

  it('shows a keyword, a number or a name GraphWalker cannot lex in a safe form', () => {
    expect(['Start', 'BLOCKED', 'weight', '42', 'café', 'a b', '', 'v_Plain', 'a.b;c'].map(labelNameOf)).toEqual([
      'Start_',
      'BLOCKED_',
      'weight_',
      '_42',
      // GraphWalker's lexer takes no letter from U+0080 to U+00FF into a name; walker's would.
      'caf_',
      'a_b',
      '',
      'v_Plain',
      'a.b;c',
    ]);
    // A shared state GraphWalker cannot lex is kept in walker's data only.
    const text = write(named('v_A', 'e_B', 'e_C', 'café'));
    expect(labelsAsRead(text).vertices[0]).toEqual({ name: 'v_A' });
    expect(read(text).models[0].vertices[0].sharedState).toBe('café');
  });

  it('refuses, naming the element, an id XML cannot hold', () => {
    const file = named('v_A', 'e_B', 'e_C');
    file.models[0].edges[1].id = 'e\u0001';
    let error: unknown;
    try {
      write(file);
    } catch (caught) {
      error = caught;
    }
    expect(error).toBeInstanceOf(WalkerError);
    expect((error as WalkerError).code).toBe(ErrorCodes.MODEL_INVALID);
    expect((error as WalkerError).message).toBe(
      'GraphML cannot hold the edge id "e\\u0001": XML has no way to write its character U+0001, escaped or not; ' +
        'give the element an id without control characters, or keep the model as JSON',
    );
  });
});

// Text made of what the label grammar reads specially, and of what XML and JSON escape.
const TOKENS = ['[', ']', '/', ';', ' ', '\n', 'SHARED', ':', 'INIT', 'BLOCKED', 'weight', 'Weight', '=', '0.5', '.5', 'dependency',
  'REQTAG', ',', 'Start', '/*', '*/', '//', '.', 'e_A', 'v_B', 'é', 'ÿ', '"', '<', '&', '&amp;', '\r', '\r\n', '\t', '\u0001',
  '\uFFFE', '\uD800', '😀', '$', '_', '9'];
const grammarText = fc.array(fc.constantFrom(...TOKENS), { maxLength: 8 }).map((parts) => parts.join(''));
const anyText = fc.oneof(grammarText, fc.string({ unit: 'binary', maxLength: 12 }), fc.string({ maxLength: 12 }));

describe('arbitrary names, fuzzed', () => {
  it('read back exactly, and the labels show GraphWalker nothing but names', () => {
    fc.assert(
      fc.property(anyText, anyText, anyText, (vertexName, loopName, startName) => {
        const file = named(vertexName, loopName, startName);
        const text = write(file);
        expect(read(text)).toEqual(file);
        const labels = labelsAsRead(text);
        for (const label of [...labels.vertices, ...labels.edges]) {
          expect(Object.keys(label as object).filter((k) => k !== 'name' && k !== 'start')).toEqual([]);
        }
      }),
      { numRuns: 500 },
    );
  });

  it('keep every field of an element exactly, whatever the text of its name, shared state, guard, actions and tags', () => {
    fc.assert(
      fc.property(anyText, anyText, anyText, fc.array(anyText, { maxLength: 3 }), fc.array(anyText, { maxLength: 3 }), (name, state, guard, actions, tags) => {
        const file = named(name, name, 'e_Start', state);
        Object.assign(file.models[0].edges[1], { guard, actions, requirements: tags });
        Object.assign(file.models[0].vertices[0], { requirements: tags });
        file.models[0].actions = actions;
        const text = write(file);
        expect(read(text)).toEqual(file);
        // A label shows only fields its element has: no text of one field is read as another.
        const labels = labelsAsRead(text);
        for (const key of Object.keys(labels.vertices[0] as object)) expect(['name', 'sharedState', 'init', 'requirements']).toContain(key);
        for (const key of Object.keys(labels.edges[1] as object)) expect(['name', 'guard', 'actions', 'requirements']).toContain(key);
        expect(Object.keys(labels.edges[0] as object).filter((k) => k !== 'name')).toEqual([]);
      }),
      { numRuns: 500 },
    );
  });

  it('read back ids exactly, or refuse them naming the id', () => {
    fc.assert(
      fc.property(anyText.filter((id) => id !== ''), (id) => {
        const file = named('v_A', 'e_B', 'e_C');
        file.models[0].vertices[0].id = id;
        for (const edge of file.models[0].edges) edge.targetVertexId = id;
        file.models[0].edges[1].sourceVertexId = id;
        let text: string;
        try {
          text = write(file);
        } catch (error) {
          expect((error as Error).message).toContain(`GraphML cannot hold the vertex id ${JSON.stringify(id)}`);
          return;
        }
        expect(read(text)).toEqual(file);
      }),
      { numRuns: 300 },
    );
  });
});
