import { mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { loadModelFile } from '../../core/model/load.js';
import { graphmlFormat } from '../../plugins/formats/graphml/index.js';
import { ensureBuilt, runCli, runWalker } from './online-helpers.js';

const GRAPHML = 'test/fixtures/models/graphml';
const SIMPLEST = `${GRAPHML}/cli/CorrectModels/simplestModel.graphml`;
const COVER = 'random(edge_coverage(100))';
let scratch: string;

// One walk and one conversion run through the real executable, as a shell sees them; the other cases run the
// same `main` in this process (runCli), since a walker process costs a second of CPU.

beforeAll(() => {
  ensureBuilt();
  scratch = mkdtempSync(join(tmpdir(), 'walker-graphml-'));
}, 120_000);
afterAll(() => rmSync(scratch, { recursive: true, force: true }));

function steps(stdout: string): { currentElementName: string; modelId: string }[] {
  return stdout.trim().split('\n').map((line) => JSON.parse(line));
}

describe('yEd GraphML models on the command line', () => {
  it('walker offline walks simplestModel.graphml with random(vertex_coverage(100)) to e1, v1', async () => {
    const run = await runWalker(['offline', '-m', SIMPLEST, 'random(vertex_coverage(100))', '--seed', '1']);
    expect([run.code, run.stderr]).toEqual([0, '']);
    expect(steps(run.stdout)).toEqual([
      { currentElementName: 'e1', currentElementID: 'e0', modelId: 'simplestModel', modelName: 'simplestModel' },
      { currentElementName: 'v1', currentElementID: 'n1', modelId: 'simplestModel', modelName: 'simplestModel' },
    ]);
  });

  it("walks GraphWalker's CorrectModels as its CLI test expects: --start-element, and --blocked either way", async () => {
    const names = (stdout: string): string[] => steps(stdout).map((s) => s.currentElementName);
    const correct = `${GRAPHML}/cli/CorrectModels`;
    const started = await runCli(['offline', '-e', 'v1', '-m', `${correct}/modelWithNoStartVertex.graphml`, 'a_star(reached_edge(e4))']);
    expect([started.code, started.stderr, names(started.stdout)]).toEqual([0, '', ['v1', 'e2', 'v2', 'e4']]);
    const blocked = `${correct}/blockedVertex.graphml`;
    const kept = await runCli(['offline', '-m', blocked, 'random(edge_coverage(100))', '-b', 'false']);
    expect(names(kept.stdout)).toEqual(['e1', 'v1', 'e2', 'v2']);
    const left = await runCli(['offline', '-m', blocked, 'random(edge_coverage(100))']);
    expect(names(left.stdout)).toEqual(['e1', 'v1']);
  });

  it('walks a GraphML and a JSON file in one run, linked through their SHARED: state', async () => {
    // SharedRight as JSON, by walker convert itself.
    const right = join(scratch, 'SharedRight.json');
    const converted = await runCli(['convert', '-i', `${GRAPHML}/ours/SharedRight.graphml`, '-o', right]);
    expect([converted.code, converted.stdout, converted.stderr]).toEqual([0, '', '']);
    const run = await runCli(['offline', '-m', `${GRAPHML}/ours/SharedLeft.graphml`, COVER, '-m', right, COVER, '--seed', '3']);
    expect(run.code).toBe(0);
    const walked = steps(run.stdout);
    // SharedLeft holds the start edge; the walk reaches SharedRight only by jumping at the DOOR state.
    expect(walked[0]).toEqual({ currentElementName: 'e_EnterLeft', currentElementID: 'e0', modelId: 'SharedLeft', modelName: 'SharedLeft' });
    const rightNames = new Set(walked.filter((s) => s.modelId === 'SharedRight').map((s) => s.currentElementName));
    expect([...rightNames].sort()).toEqual(['e_BackToDoor', 'e_ToRight', 'v_Right', 'v_RightDoor']);
  });

  it('walker check reads GraphML: no issues in a good file, the label problem of a broken one', async () => {
    const good = await runCli(['check', '-m', SIMPLEST, 'quick_random(edge_coverage(100))']);
    expect([good.code, good.stdout]).toEqual([0, 'No issues found with the model(s).\n']);
    // v1 has no way out: GraphWalker's checker warns of it under a random generator and full edge coverage.
    const warned = await runCli(['check', '-m', SIMPLEST, COVER]);
    expect(warned.code).toBe(0);
    expect(warned.stdout).toMatch(/simplestModel\.graphml: warning: model 'simplestModel': The model has one cul-de-sacs, .* That might not work\./);
    const broken = await runCli(['check', '-m', `${GRAPHML}/ours/BrokenGuard.graphml`, COVER]);
    expect(broken.code).toBe(1);
    expect(broken.stdout).toMatch(/^test\/fixtures\/models\/graphml\/ours\/BrokenGuard\.graphml: error: element 'e2', field 'label': the edge label 'e_Back \[ready == true' does not parse at column 8/);
  });

  it('refuses a label that does not parse, or a file without a start, in one line on stderr, exit 2', async () => {
    const broken = await runCli(['offline', '-m', `${GRAPHML}/ours/BrokenGuard.graphml`, COVER]);
    expect([broken.code, broken.stdout]).toEqual([2, '']);
    expect(broken.stderr).toBe(
      `${GRAPHML}/ours/BrokenGuard.graphml, element 'e2', field 'label': the edge label 'e_Back [ready == true' does not parse ` +
        "at column 8: the '[' that opens a guard is never closed by ']' (line 104 of the document)\n",
    );
    const vertex = await runCli(['offline', '-m', `${GRAPHML}/cli/IncorrectModels/wrongVertexSyntax.graphml`, COVER]);
    expect([vertex.code, vertex.stderr]).toEqual([2, expect.stringMatching(/element 'n0', field 'label': the vertex label '1' does not parse at column 1/)]);
    const single = await runCli(['offline', '-m', `${GRAPHML}/cli/IncorrectModels/singleVertex.graphml`, COVER]);
    expect([single.code, single.stderr]).toEqual([2, expect.stringMatching(/singleVertex\.graphml: The model has neither a start element or a defined shared state/)]);
  });
});

describe('walker convert', () => {
  it('prints a GraphML model as JSON by default', async () => {
    const run = await runWalker(['convert', '-i', `${GRAPHML}/io/UC01.graphml`]);
    expect([run.code, run.stderr]).toEqual([0, '']);
    const expected = loadModelFile(graphmlFormat.read?.(readFileSync(`${GRAPHML}/io/UC01.graphml`, 'utf8'), { path: 'UC01.graphml' })).file;
    expect(JSON.parse(run.stdout)).toEqual(expected);
  });

  it('writes JSON as GraphML into a file that walks as the JSON does, and draws it as DOT', async () => {
    const out = join(scratch, 'login.graphml');
    const converted = await runCli(['convert', '-i', 'examples/models/login.json', '-f', 'graphml', '-o', out]);
    expect([converted.code, converted.stdout, converted.stderr]).toEqual([0, '', '']);
    expect(readFileSync(out, 'utf8')).toMatch(/^<\?xml version="1\.0" encoding="UTF-8" standalone="no"\?>\n<graphml /);
    const [json, graphml] = await Promise.all([
      runCli(['offline', '-m', 'examples/models/login.json', COVER, '--seed', '9']),
      runCli(['offline', '-m', out, COVER, '--seed', '9']),
    ]);
    expect(graphml.code).toBe(0);
    expect(graphml.stdout).toBe(json.stdout);
    const dot = await runCli(['convert', '-i', out, '-f', 'DOT']);
    expect(dot.code).toBe(0);
    expect(dot.stdout).toMatch(/^digraph "Login" \{\n/);
    expect(dot.stdout).toContain('"Start" -> "v_closed" [label="e_Start"];');
  });

  it('converts JSON to GraphML and back keeping names that read as a guard, actions or a shared state as names', async () => {
    const model = {
      models: [
        {
          id: 'm',
          name: 'names',
          generator: 'random(edge_coverage(100))',
          startElementId: 'e0',
          vertices: [{ id: 'a', name: 'v_Home SHARED: HOME' }],
          edges: [
            { id: 'e0', name: 'e_Logout [false]', targetVertexId: 'a' },
            { id: 'e1', name: 'e_Quit / signedIn = true; remember = true;', sourceVertexId: 'a', targetVertexId: 'a' },
          ],
        },
      ],
    };
    const json = join(scratch, 'names.json');
    writeFileSync(json, JSON.stringify(model));
    const graphml = join(scratch, 'names.graphml');
    const there = await runCli(['convert', '-i', json, '-f', 'graphml', '-o', graphml]);
    expect([there.code, there.stderr]).toEqual([0, '']);
    // What GraphWalker reads: the names' letters and digits, and no guard, action or shared state.
    expect(readFileSync(graphml, 'utf8').match(/<y:(?:Node|Edge)Label>[^<]*</g)).toEqual([
      '<y:NodeLabel>v_Home_SHARED_HOME<',
      '<y:NodeLabel>Start<',
      '<y:EdgeLabel>e_Logout_false_<',
      '<y:EdgeLabel>e_Quit_signedIn_true_remember_true_<',
    ]);
    const back = await runCli(['convert', '-i', graphml]);
    expect([back.code, back.stderr]).toEqual([0, '']);
    expect(JSON.parse(back.stdout)).toEqual(loadModelFile(JSON.stringify(model)).file);
  });

  it('answers an unknown format as a usage mistake, and a file it cannot write with exit 2', async () => {
    const unknown = await runCli(['convert', '-i', SIMPLEST, '-f', 'yaml']);
    expect(unknown.code).toBe(1);
    expect(unknown.stderr).toMatch(/^walker convert: -f,--format must be one of json, graphml, dot; got 'yaml'\n/);
    const nowhere = await runCli(['convert', '-i', SIMPLEST, '-o', join(scratch, 'no', 'such', 'out.json')]);
    expect([nowhere.code, nowhere.stderr]).toEqual([2, `Could not write '${join(scratch, 'no', 'such', 'out.json')}': its folder does not exist\n`]);
    const dot = await runCli(['convert', '-i', join(scratch, 'x.dot')]);
    expect([dot.code, dot.stderr]).toEqual([2, expect.stringMatching(/^Could not read the model file/)]);
  });
});
