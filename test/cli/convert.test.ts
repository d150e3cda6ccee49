import { mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { readGraphmlDocument } from '../../plugins/formats/graphml/xml-reader.js';
import { ensureBuilt, ROOT, runCli, runWalker } from './online-helpers.js';

// The first case runs the real executable, as a shell sees it; the others the same `main` in this process
// (runCli), since a walker process costs a second of CPU.

const MODELS = join(ROOT, 'test', 'fixtures', 'models');
const WALK_ONLY = join(MODELS, 'convert', 'walk-only-problems.json');
const UNNAMED_SOURCE = join(MODELS, 'convert', 'unnamed-start-source.json');
const LONE_START = join(MODELS, 'graphml', 'ours', 'LoneStart.graphml');
const LATIN1 = join(MODELS, 'graphml', 'ours', 'Latin1.graphml');
let scratch: string;

beforeAll(() => {
  ensureBuilt();
  scratch = mkdtempSync(join(tmpdir(), 'walker-convert-'));
}, 120_000);
afterAll(() => rmSync(scratch, { recursive: true, force: true }));

describe('walker convert forgives what only a walk cares about', () => {
  it('writes a file with a blocked start, a weight and dependency out of range, an unknown path edge: warnings on stderr, exit 0', async () => {
    const graphml = join(scratch, 'shop.graphml');
    const [toGraphml, kept, walked] = await Promise.all([
      runWalker(['convert', '-i', WALK_ONLY, '-f', 'graphml', '-o', graphml]),
      runWalker(['convert', '-i', WALK_ONLY, '-b', 'false']),
      runWalker(['offline', '-m', WALK_ONLY, 'random(never)']),
    ]);
    const warning = (field: string, problem: string) => `${WALK_ONLY}: warning: model 'shop', ${field}: ${problem}\n`;
    const valueWarnings =
      warning('field \'predefinedPathEdgeIds[0]\'', "names no edge of this model ('e_nowhere')") +
      warning("edge 'e_pay', field 'weight'", 'The weight must be a value between 0 and 1, got 1.5') +
      warning("edge 'e_pay', field 'dependency'", 'must be a whole number from 0 to 100, got 150');
    expect(toGraphml).toEqual({
      code: 0,
      stdout: '',
      stderr:
        warning(
          "field 'startElementId'",
          "names 'v_closed', which is left out of the walk because it is blocked (properties.blocked); choose another start element or unblock it",
        ) + valueWarnings,
    });
    // With blocked elements kept the start is fine; the rest is written as it was, and said.
    expect([kept.code, kept.stderr]).toEqual([0, valueWarnings]);
    expect(JSON.parse(kept.stdout).models[0]).toMatchObject({
      startElementId: 'v_closed',
      predefinedPathEdgeIds: ['e_nowhere'],
      edges: expect.arrayContaining([expect.objectContaining({ id: 'e_pay', weight: 1.5, dependency: 150 })]),
    });
    // A walk still refuses it.
    expect([walked.code, walked.stdout]).toEqual([2, '']);
    expect(walked.stderr).toContain("names 'v_closed', which is left out of the walk because it is blocked");
    // The GraphML reads back as JSON with the same values.
    const back = await runWalker(['convert', '-i', graphml]);
    expect(back.code).toBe(0);
    expect(JSON.parse(back.stdout).models[0].edges).toContainEqual(expect.objectContaining({ id: 'e_pay', weight: 1.5, dependency: 150 }));
  });

  it('writes a yEd Start vertex drawn without its edge as a vertex named Start, with a warning; a walk is refused', async () => {
    const [converted, walked] = await Promise.all([
      runCli(['convert', '-i', LONE_START]),
      runCli(['offline', '-m', LONE_START, 'random(never)']),
    ]);
    expect(converted.code).toBe(0);
    expect(converted.stderr).toBe(
      `${LONE_START}: warning: model 'LoneStart', field 'startElementId': is not set, and vertex 'n0' is named Start, which marks ` +
        'the edge the walk starts on, but no edge leaves it: draw that edge from it, or set startElementId to the id of the element to start from\n',
    );
    expect(JSON.parse(converted.stdout).models[0].vertices[0]).toEqual({ id: 'n0', name: 'Start' });
    expect([walked.code, walked.stdout]).toEqual([2, '']);
    expect(walked.stderr).toContain('The model has neither a start element or a defined shared state');
  });
});

describe('GraphML that GraphWalker reads as walker does', () => {
  it('draws a start edge whose source vertex has no name from a yEd Start vertex, and reads it back exactly', async () => {
    const graphml = join(scratch, 'door.graphml');
    const written = await runCli(['convert', '-i', UNNAMED_SOURCE, '-f', 'graphml', '-o', graphml]);
    expect(written).toEqual({ code: 0, stdout: '', stderr: '' });
    const document = readGraphmlDocument(readFileSync(graphml, 'utf8'));
    const start = document.nodes.find((n) => n.data.some((d) => d.graphics?.labels.join('') === 'Start'));
    // GraphWalker's yEd reader starts on the one edge that leaves the vertex labelled Start.
    expect(document.edges.filter((e) => e.source === start?.id).map((e) => e.id)).toEqual(['e_init']);
    const [back, walked] = await Promise.all([
      runCli(['convert', '-i', graphml]),
      runCli(['offline', '-m', graphml, 'random(length(3))', '--seed', '1']),
    ]);
    expect(JSON.parse(back.stdout)).toEqual(JSON.parse(readFileSync(UNNAMED_SOURCE, 'utf8')));
    expect(walked.stdout.split('\n')[0]).toContain('"currentElementName":"e_Init"');
  });

  it('reads a GraphML file declared ISO-8859-1 in that encoding', async () => {
    const [methods, converted] = await Promise.all([runCli(['methods', '-m', LATIN1]), runCli(['convert', '-i', LATIN1])]);
    expect(methods).toEqual({ code: 0, stdout: 'e_Commandé\ne_Entrée\ne_Payé\nv_Café\nv_Crème\n', stderr: '' });
    expect(converted.code).toBe(0);
    expect(JSON.parse(converted.stdout).models[0].startElementId).toBe('e0');
    expect(converted.stdout).toContain('"name": "v_Café"');
  });
});
