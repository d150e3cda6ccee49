import { readdirSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { loadModelFile } from '../../../../core/model/load.js';
import type { ModelFileJson } from '../../../../core/model/types.js';
import { graphmlFormat } from '../../../../plugins/formats/graphml/index.js';
import { parseEdgeLabel, parseVertexLabel } from '../../../../plugins/formats/graphml/label-parser.js';
import { readGraphmlDocument } from '../../../../plugins/formats/graphml/xml-reader.js';

const MODELS = join(import.meta.dirname, '..', '..', '..', 'fixtures', 'models');
const write = graphmlFormat.write as NonNullable<typeof graphmlFormat.write>;
const read = (text: string, path = 'out.graphml') => (graphmlFormat.read as NonNullable<typeof graphmlFormat.read>)(text, { path });

const JSON_FIXTURES = readdirSync(MODELS, { recursive: true, encoding: 'utf8' }).filter((f) => f.endsWith('.json')).sort();

/** Every JSON model file of the fixtures that loads (the broken ones are there to be refused). */
function loadableJsonFixtures(): [string, ModelFileJson][] {
  return JSON_FIXTURES.flatMap((f): [string, ModelFileJson][] => {
    try {
      // Blocked elements kept: the round trip must keep them too.
      return [[f, loadModelFile(readFileSync(join(MODELS, f), 'utf8'), { blocked: false }).file]];
    } catch {
      return [];
    }
  });
}

const fixtures = loadableJsonFixtures();

describe('JSON -> GraphML -> JSON', () => {
  it('covers every loadable JSON fixture: all but those made to be refused', () => {
    const loaded = new Set(fixtures.map(([f]) => f));
    expect(JSON_FIXTURES.filter((f) => !loaded.has(f))).toEqual([
      'broken-syntax.json',
      // Half of a pair: its models are entered only through the shared state of check/door-outside.json.
      'check/door-inside.json',
      'check/graphwalker-errors.json',
      'check/no-start.json',
      // Problems only a walk has: walker convert writes it, with warnings (test/cli/convert.test.ts).
      'convert/walk-only-problems.json',
      'graphwalker/peer/ModelWithPredefinedPath_unknown_edge.json',
      'graphwalker/peer/NonModel.json',
      'invalid-model.json',
      'no-models.json',
      // Walkable only from --start-element.
      'no-start-element.json',
    ]);
  });

  for (const [name, file] of fixtures) {
    it(`keeps every field of ${name}`, () => {
      const again = loadModelFile(read(write(file)), { blocked: false }).file;
      expect(again).toEqual(file);
    });
  }

  it('writes labels GraphWalker reads: what the label shows is what the model says, elsewhere the exact value is kept', () => {
    const file = fixtures.find(([f]) => f === 'graphwalker/UC01.json')?.[1] as ModelFileJson;
    const document = readGraphmlDocument(write(file));
    const labels = document.edges.map((e) => e.data.find((d) => d.graphics)?.graphics?.labels.join(''));
    const add = file.models[0].edges.findIndex((e) => e.name === 'e_AddBookToCart');
    expect(parseEdgeLabel(labels[add] as string)).toEqual({ name: 'e_AddBookToCart', guard: 'num_of_books<=MAX_BOOKS', actions: [' num_of_books++;'] });
    // One Start vertex more than the model has vertices, for its start edge e0.
    expect(document.nodes).toHaveLength(file.models[0].vertices.length + 1);
    const start = document.nodes.find((n) => n.data.some((d) => d.graphics?.labels[0] === 'Start'));
    expect(document.edges.find((e) => e.id === 'e0')?.source).toBe(start?.id);
    const vertexLabels = document.nodes.map((n) => n.data.find((d) => d.graphics)?.graphics?.labels.join('') as string);
    expect(vertexLabels.filter((l) => l !== 'Start').map((l) => parseVertexLabel(l).name)).toEqual(file.models[0].vertices.map((v) => v.name));
  });

  it('writes what yEd opens: its graphics keys, y:ShapeNode with y:NodeLabel, y:PolyLineEdge with y:EdgeLabel', () => {
    const text = write({ models: [{ id: 'm', vertices: [{ id: 'a', name: 'v_A' }], edges: [{ id: 'e', name: 'e_Loop', sourceVertexId: 'a', targetVertexId: 'a' }] }] });
    expect(text).toContain('<key for="node" id="d0" yfiles.type="nodegraphics"/>');
    expect(text).toContain('<key for="edge" id="d1" yfiles.type="edgegraphics"/>');
    expect(text).toMatch(/<node id="a">.*<data key="d0"><y:ShapeNode><y:Geometry [^>]+\/>.*<y:NodeLabel>v_A<\/y:NodeLabel>/);
    expect(text).toMatch(/<edge id="e" source="a" target="a">.*<data key="d1"><y:PolyLineEdge>.*<y:EdgeLabel>e_Loop<\/y:EdgeLabel>/);
  });

  it('keeps a model whose labels cannot hold its names, properties of every JSON type and a start vertex', () => {
    const file: ModelFileJson = {
      name: 'odd',
      seed: 5,
      models: [
        {
          id: 'm1',
          name: 'First model',
          generator: 'random(never)',
          startElementId: 'a',
          actions: ['x = 1; y = 2;'],
          requirements: ['R'],
          properties: { owner: { team: 'qa' } },
          vertices: [
            { id: 'a', name: 'a vertex', sharedState: 'S-1', actions: ['v++'], properties: { n: 1.5, on: false, list: [1], none: null, text: ' padded ', x: 'left' } },
            { id: 'Start', name: 'Start', requirements: ['has, comma'], properties: { blocked: true, x: 3, y: 4 } },
          ],
          edges: [
            { id: 'e1', name: 'e 1', sourceVertexId: 'a', targetVertexId: 'Start', guard: 'a ] b', actions: ['x++'], weight: 1e-7, properties: { blocked: 'true' } },
            { id: 'e2', targetVertexId: 'a' },
          ],
          predefinedPathEdgeIds: ['e1'],
        },
        { id: 'm2', vertices: [{ id: 'a', sharedState: 'S-1' }], edges: [] },
      ],
    };
    expect(read(write(file))).toEqual(file);
  });

  it('takes what a label says over what walker kept beside it once the label was changed in yEd', () => {
    const file: ModelFileJson = {
      models: [
        {
          id: 'm',
          startElementId: 'e0',
          vertices: [{ id: 'n1', name: 'v_A' }],
          edges: [
            { id: 'e0', targetVertexId: 'n1' },
            // One action of two statements: the label shows two actions; walker keeps the one exactly.
            { id: 'e1', name: 'e_Loop', sourceVertexId: 'n1', targetVertexId: 'n1', actions: ['a = 1; b = 2;'] },
          ],
        },
      ],
    };
    const text = write(file);
    expect(read(text).models[0].edges[1].actions).toEqual(['a = 1; b = 2;']);
    // In yEd the user changes the label's actions; walker's kept value no longer matches it and gives way.
    const edited = text.replace('/a = 1; b = 2;</y:EdgeLabel>', '/a = 3;</y:EdgeLabel>');
    expect(edited).not.toBe(text);
    expect(read(edited).models[0].edges[1].actions).toEqual(['a = 3;']);
  });
});
