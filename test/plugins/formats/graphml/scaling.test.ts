import { throws } from 'node:assert/strict';
import { describe, expect, it } from 'vitest';
import { read, refusal } from './read-graphml.js';
import { ErrorCodes } from '../../../../core/errors.js';
import type { ModelFileJson } from '../../../../core/model/types.js';
import { dotFormat } from '../../../../plugins/formats/dot/index.js';
import { graphmlFormat } from '../../../../plugins/formats/graphml/index.js';
import { parseVertexLabel } from '../../../../plugins/formats/graphml/label-parser.js';
import { modelFileFromDocument } from '../../../../plugins/formats/graphml/read-models.js';
import { readGraphmlDocument } from '../../../../plugins/formats/graphml/xml-reader.js';
import { LINEAR_RATIO, timeGrowth } from '../../../support/growth.js';
import { documentOf } from './yed-documents.js';

const write = graphmlFormat.write as NonNullable<typeof graphmlFormat.write>;
const writeDot = dotFormat.write as NonNullable<typeof dotFormat.write>;

/** The time of turning a document, already parsed, into models: where INIT: and groups were quadratic. */
function modelsScaling(part: string, n: number) {
  return timeGrowth(
    (s) => readGraphmlDocument(documentOf([part], s)),
    (document) => modelFileFromDocument(document, 'm.graphml'),
    n,
  );
}


describe('reading GraphML takes time in proportion to the document', () => {
  it('collects the INIT: actions of every vertex into the model', () => {
    const file = read(documentOf(['initLabels'], 3));
    expect(file.models[0].actions).toEqual(['x = 0;', 'x = 1;', 'x = 2;']);
    // Old code copied the list so far for each vertex: 10,000 and 20,000 vertices took 0.7 s and 5.9 s.
    const timing = modelsScaling('initLabels', 10_000);
    expect(timing.ratio, JSON.stringify(timing)).toBeLessThan(LINEAR_RATIO);
  }, 60_000);

  it('finds the model of a vertex in groups nested however deep', () => {
    const file = read(documentOf(['nestedGroups'], 3));
    expect(file.models[0].vertices.map((v) => v.id)).toEqual(['a', 'b', 'gv0', 'gv1', 'gv2']);
    // Old code climbed from each vertex to the top: 10,000 and 20,000 levels took 0.6 s and 5.6 s.
    const timing = modelsScaling('nestedGroups', 10_000);
    expect(timing.ratio, JSON.stringify(timing)).toBeLessThan(LINEAR_RATIO);
  }, 60_000);

  it('scans a label of unclosed /* once, and names the label in a line', () => {
    const error = refusal(documentOf(['unclosedComments'], 1_000));
    expect(error.code).toBe(ErrorCodes.MODEL_SYNTAX);
    // The label is cut in the message: 60,000 characters would not make a readable line.
    expect(error.message).toMatch(/^m\.graphml, element 'uc', field 'label': the vertex label 'v_Unclosed \/\* \/\*[ /*]*…' does not parse at column 12: expected a name/);
    expect(error.message.length).toBeLessThan(400);
    // Old code searched for the end of a comment from each of them to the end of the label: 40,000 took 18 s.
    const timing = timeGrowth((s) => `v${' /*'.repeat(s)}`, (label) => throws(() => parseVertexLabel(label)), 20_000);
    expect(timing.ratio, JSON.stringify(timing)).toBeLessThan(LINEAR_RATIO);
  }, 60_000);

  it('refuses key defaults that would make the model far larger than its document, naming the keys', () => {
    // Each of 300 defaults copied onto each of 300 nodes: 90,000 properties from a document of 60 kB.
    const error = refusal(documentOf(['keyDefaults'], 300));
    expect(error.code).toBe(ErrorCodes.MODEL_SYNTAX);
    expect(error.message).toMatch(
      /^m\.graphml, field 'default': the <default> values of the node keys \(k0, k1, k2, k3, k4 and 295 more\) would give each of the 303 nodes \d+ characters of properties, more than the 1048576 in all that a document of \d+ characters may give: set such values on the elements that need them$/,
    );
    const few = read(documentOf(['keyDefaults'], 3)).models[0].vertices.find((v) => v.id === 'k1');
    expect(few?.properties).toEqual({ k0: 'default value 0', k1: 'default value 1', k2: 'default value 2' });
  });
});

describe('writing large models', () => {
  it('writes 200,000 vertices, where an argument list of them overflowed the stack', () => {
    const vertices = Array.from({ length: 200_000 }, (_, i) => ({ id: `v${i}` }));
    const file: ModelFileJson = { models: [{ id: 'm', name: 'm', vertices, edges: [] }] };
    expect(write(file)).toMatch(/<node id="v199999">.*\n {2}<\/graph>\n<\/graphml>\n$/);
    expect(writeDot(file)).toMatch(/\n {2}"v199999" \[label=""\];\n\}\n$/);
  }, 60_000);

  it('writes a vertex label of 200,000 lines, which reads back', () => {
    // The model's actions are the INIT: of its first vertex, whose shape is sized to the label's longest line.
    const actions = [`${'\n'.repeat(200_000)}x = 1;`];
    const file: ModelFileJson = { models: [{ id: 'm', actions, vertices: [{ id: 'a' }], edges: [] }] };
    const text = write(file);
    expect(text).toContain(`<y:NodeLabel>INIT: ${actions[0]}</y:NodeLabel>`);
    expect(read(text).models[0].actions).toEqual(actions);
  });
});
