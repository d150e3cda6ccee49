import { beforeAll, describe, expect, it } from 'vitest';
import { ensureBuilt, runCli, runWalker } from './online-helpers.js';

/**
 * `walker check` as users run it, on fixture files, its stdout and exit code: the example model and a refused
 * flag through the real executable, as a shell sees them; the many fixtures through the same `main` in this
 * process (runCli), since a walker process costs a second of CPU.
 */

const GW = 'test/fixtures/models/graphwalker/';
const OURS = 'test/fixtures/models/check/';
const COVER = 'random(edge_coverage(100))';
const NONE = 'No issues found with the model(s).\n';

beforeAll(() => ensureBuilt());

async function check(...args: string[]): Promise<{ code: number | null; lines: string[]; stdout: string }> {
  const { code, stdout } = await runCli(['check', ...args]);
  return { code, stdout, lines: stdout.split('\n').filter((line) => line !== '') };
}

const unreachable =
  'cannot be reached from any start element (following edges and shared states, guards ignored), so the walk ' +
  'never visits it; connect it, or remove it if it is not needed';

describe('walker check', () => {
  it('says there are no issues with the example model, exit 0', async () => {
    expect(await runWalker(['check', '-m', 'examples/models/login.json', COVER])).toMatchObject({ code: 0, stdout: NONE, stderr: '' });
  });
});

describe("walker check on GraphWalker's own models", () => {
  // Each with the generator it states, as GraphWalker's own check of them is run.
  const accepted: Array<[string, string]> = [
    ['DependencyModel.json', 'random(dependency_edge_coverage(80))'],
    ['ModelWithPredefinedPath.json', 'predefined_path(predefined_path)'],
    ['ModelWithProperties.json', COVER],
    ['PetClinic.json', COVER],
    ['Selftest.json', 'quick_random(edge_coverage(100))'],
    ['SharedState.json', COVER],
    ['SmallModel.json', COVER],
    ['SuperLarge.json', 'quick_random(edge_coverage(100))'],
    ['UC01-rest.json', COVER],
    ['UC01.json', 'RandomPath(EdgeCoverage(100))'],
    ['graphWithBlockedElements.json', COVER],
    ['petClinic.json', COVER],
    ['peer/petClinicWithSeed.json', COVER],
    ['peer/java-Login.json', COVER],
  ];

  it.each(accepted)('finds no issue in %s, as GraphWalker finds none, and exits 0', async (file, generator) => {
    // Notes say how walker plans the walk (PetClinic's counters grow without end), after GraphWalker's answer.
    const { code, lines } = await check('-m', `${GW}${file}`, generator);
    expect({ code, first: lines[0] }).toEqual({ code: 0, first: NONE.trimEnd() });
    for (const line of lines.slice(1)) expect(line).toMatch(new RegExp(`^${GW}${file.replace(/[.]/g, '\\.')}: note: `));
  });

  it("warns of Login's unnamed vertex, as GraphWalker does, and that nothing reaches it; warnings exit 0", async () => {
    const file = `${GW}Login.json`;
    const model = "model '853429e2-0528-48b9-97b3-7725eafbb8b5', vertex 'Start'";
    expect(await check('-m', file, COVER)).toMatchObject({
      code: 0,
      lines: [
        `${file}: warning: ${model}, field 'name': Name of vertex cannot be null; give it a name: tests and generated code call a vertex by its name`,
        `${file}: warning: ${model}: ${unreachable}`,
      ],
    });
  });

  it("warns of SimpleModel's one cul-de-sac under a random generator to full coverage, in GraphWalker's words", async () => {
    const file = `${GW}peer/java-SimpleModel.json`;
    const line = (coverage: string) =>
      `${file}: warning: model '1b69c3f3-727b-48b4-bb6c-cf90e45f7be1': The model has one cul-de-sacs, and is ` +
      `requested to run using a random path generator and 100% ${coverage} coverage. That might not work. The walk ` +
      'cannot leave v_Vertex_2 (v2), and fails there when chance takes it there before the rest is covered; give it ' +
      'a way out, or use a generator that plans (quick_random, shortest_all_paths)';
    expect(await check('-m', file, COVER)).toMatchObject({ code: 0, lines: [line('edge')] });
    expect(await check('-m', file, 'random(vertex_coverage(100))')).toMatchObject({ code: 0, lines: [line('vertex')] });
    // A generator that plans heads for what is left and ends in the dead end last.
    expect(await check('-m', file, 'quick_random(edge_coverage(100))')).toMatchObject({ code: 0, stdout: NONE });
  });

  it('refuses DualPathModel, whose two branches meet in a dead end: no walk covers both (GraphWalker walks and fails)', async () => {
    const file = `${GW}DualPathModel.json`;
    const { code, lines } = await check('-m', file, 'a_star(reached_vertex(v2)) random(edge_coverage(100))');
    expect(code).toBe(1);
    expect(lines).toHaveLength(2);
    expect(lines[0]).toMatch(new RegExp(`^${file}: warning: model '[^']+': The model has one cul-de-sacs, .* That might not work\\. The walk cannot leave v2 \\(n4\\)`));
    expect(lines[1]).toMatch(new RegExp(`^${file}: error: Model 'DualPathModel', generator '.*': edge_coverage\\(100\\) can never be fulfilled: one walk covers at most 3 of the 5 edges`));
  });
});

describe('walker check reports every issue GraphWalker reports, graded', () => {
  it("warns of GraphWalker's conventions, of an edge no walk takes and of a model no walk enters, and exits 0", async () => {
    const file = `${OURS}conventions.json`;
    const shop = `${file}: warning: model 'shop'`;
    const admin = `${file}: warning: model 'admin'`;
    const nameIt = 'give it a name: tests and generated code call a vertex by its name';
    const noSpaces = 'tests and generated code use names as method names, which cannot hold spaces';
    const empty = 'Script statement cannot be an empty string; write the statement, or remove the item';
    expect(await check('-m', file, 'random(length(10))')).toMatchObject({
      code: 0,
      lines: [
        `${shop}, field 'actions[1]': ${empty}`,
        `${shop}, vertex 'n2', field 'name': Name of vertex cannot be null; ${nameIt}`,
        `${shop}, vertex 'n3', field 'name': Name of vertex cannot be an empty string; ${nameIt}`,
        `${shop}, vertex 'n4', field 'name': Name of vertex cannot have any white spaces ('v Cart'); ${noSpaces}`,
        `${shop}, vertex 'n4', field 'requirements[1]': Requirement cannot be an empty string; write the requirement key, or remove the item`,
        `${shop}, edge 'e1', field 'name': Name of edge cannot have any white spaces ('e Browse'); ${noSpaces}`,
        `${shop}, edge 'e2', field 'name': Vertex: n2, have a unnamed self loop edge; name the edge, so that a test can tell the loop from staying`,
        `${shop}, edge 'e3', field 'actions[1]': ${empty}`,
        `${shop}, edge 'e6', field 'sourceVertexId': names no vertex of this model ('n9'), so the edge has no source, ` +
          "as GraphWalker reads it, and only the start element may lack one: the walk never takes it. Give the id of the vertex it leaves, or make it the model's startElementId",
        `${admin}, field 'startElementId': is not set, and 2 edges could start the walk ('a0', 'a2'): edges without a ` +
          "source or leaving a vertex named 'Start'; set it to the id of the one to start from",
        `${admin}: The model has neither a start element or a defined shared state, so the walk never enters it; set ` +
          "its 'startElementId', or give one of its vertices the 'sharedState' of a vertex in another model",
        `${admin}, vertex 'a1': ${unreachable}`,
        `${admin}, edge 'a0': ${unreachable}`,
        `${admin}, edge 'a2': ${unreachable}`,
      ],
    });
  });

  it('calls several cul-de-sacs under a random generator to full coverage an error, in GraphWalker\'s words; exit 1', async () => {
    const file = `${OURS}dead-ends.json`;
    const line = (coverage: string) =>
      `${file}: error: model 'ends': The model has multiple cul-de-sacs, and is requested to run using a random path ` +
      `generator and 100% ${coverage} coverage. That will not work. The walk cannot leave v_C (c), v_D (d), and can ` +
      'end in only one of them; give them a way out';
    expect(await check('-m', file, COVER)).toMatchObject({ code: 1, lines: [line('edge')] });
    expect(await check('-m', file, 'weighted_random(vertex_coverage(100))')).toMatchObject({ code: 1, lines: [line('vertex')] });
    // Not a random generator: the walk itself says why no walk covers both branches.
    const planned = await check('-m', file, 'quick_random(edge_coverage(100))');
    expect(planned.code).toBe(1);
    expect(planned.lines).toEqual([expect.stringMatching(new RegExp(`^${file}: error: Model 'Ends', generator 'quick_random\\(edge_coverage\\(100\\)\\)': edge_coverage\\(100\\) can never be fulfilled`))]);
  });

  it('names model, element, field, line and column of every guard, action and model action that does not parse; exit 1', async () => {
    const file = `${OURS}syntax-errors.json`;
    const at = (where: string, what: string, position: string, message: string) =>
      `${file}: error: model 'login', ${where}: the ${what} does not parse, at ${position}: SyntaxError: ${message}`;
    // `loggedIn = ;`: the `;` is the 12th character; the vertex action's second line `if (shown {}` has its `{`
    // 11th; `tries <` ends after its 7th; `global.loggedIn = true +;` has its `;` 25th, `global.` counted.
    expect(await check('-m', file, COVER)).toMatchObject({
      code: 1,
      lines: [
        at("field 'actions[1]'", 'model action', 'line 1, column 12', "unexpected token in expression: ';'"),
        at("vertex 'n1', field 'actions[0]'", 'action', 'line 2, column 11', "expecting ')'"),
        at("edge 'e1', field 'guard'", 'guard', 'line 1, column 8', "unexpected token in expression: ''"),
        at("edge 'e1', field 'actions[0]'", 'action', 'line 1, column 25', "unexpected token in expression: ';'"),
      ],
    });
  });

  it('calls a model with neither start element nor shared state an error when it is the only one; exit 1', async () => {
    const file = `${OURS}no-start.json`;
    expect(await check('-m', file, COVER)).toMatchObject({
      code: 1,
      lines: [
        `${file}: error: The model has neither a start element or a defined shared state; set 'startElementId' to ` +
          "the id of a vertex or edge, or leave it out and give the model one edge without a source, or one vertex named 'Start'",
      ],
    });
  });

  it("reports GraphWalker's errors: a weight outside 0..1, an edge whose target is no vertex; exit 1", async () => {
    const file = 'test/fixtures/models/invalid-model.json';
    expect(await check('-m', file, COVER)).toMatchObject({
      code: 1,
      lines: [
        `${file}: error: model 'invalid', edge 'e0', field 'weight': The weight must be a value between 0 and 1, got 3`,
        `${file}: error: model 'invalid', edge 'e1', field 'targetVertexId': names no vertex of this model ('n9')`,
      ],
    });
  });

  it("reports GraphWalker's errors about ids, targets and weights in its words, one line each, in file order", async () => {
    const file = `${OURS}graphwalker-errors.json`;
    const model = `${file}: error: model 'errors'`;
    const unique = 'element ids must be unique within a model';
    expect(await check('-m', file, COVER)).toMatchObject({
      code: 1,
      lines: [
        `${model}, vertex 'v1', field 'id': Id of the vertex is not unique: 'v1' is already the id of a vertex of this model; ${unique}`,
        `${model}, edge 'e1', field 'targetVertexId': Edge must have a target vertex: targetVertexId is missing; give the id of the vertex it leads to`,
        `${model}, edge 'e2', field 'weight': The weight must be a value between 0 and 1, got 1.5`,
        `${model}, edge 'e2', field 'id': Id of the edge is not unique: 'e2' is already the id of an edge of this model; ${unique}`,
        `${model}, field 'id': Id of the model is not unique: models[0] has this id too; model ids must be unique within a file`,
      ],
    });
  });

  it('reports a generator that cannot work with the model', async () => {
    const { code, lines } = await check('-m', 'examples/models/login.json', 'random(reached_vertex(v_Nowhere))');
    expect(code).toBe(1);
    expect(lines).toEqual([expect.stringMatching(/^examples\/models\/login\.json: error: .*reached_vertex: model 'Login' has no vertex named 'v_Nowhere'/)]);
  });

  it('names a file it cannot read, and a file that is not JSON with line and column', async () => {
    expect(await check('-m', 'no/such.json', COVER)).toMatchObject({
      code: 1,
      lines: ['no/such.json: error: Could not read the file: no such file'],
    });
    const broken = 'test/fixtures/models/broken-syntax.json';
    const { code, lines } = await check('-m', broken, COVER);
    expect(code).toBe(1);
    expect(lines).toEqual([`${broken}: error: The model file is not valid JSON: line 6, column 7: expected ',' or '}' after a property value, found '"vertices"'`]);
  });
});

describe('walker check of several files, and -b', () => {
  const outside = `${OURS}door-outside.json`;
  const inside = `${OURS}door-inside.json`;

  it('checks files as they are walked together: a start in one file serves a model entered by a shared state in another', async () => {
    expect(await check('-m', outside, COVER, '-m', inside, COVER)).toMatchObject({ code: 0, stdout: NONE });
    expect(await check('-m', inside, COVER)).toMatchObject({
      code: 1,
      lines: [
        `${inside}: error: No model has a start element; set 'startElementId' of at least one model to the id of a ` +
          'vertex or edge (models reached only through shared states need none)',
      ],
    });
  });

  it('reports a model id that two files state, as GraphWalker does', async () => {
    expect(await check('-m', outside, COVER, '-m', outside, 'random(vertex_coverage(100))')).toMatchObject({
      code: 1,
      lines: [
        `${outside}: error: model 'outside', field 'id': Id of the model is not unique: '${outside}' has a model with ` +
          'this id too; give each model of the files walked together an id of its own',
      ],
    });
  });

  it('leaves blocked elements out unless -b false (any case) keeps them', async () => {
    const file = `${OURS}blocked-dead-end.json`;
    const kept =
      `${file}: warning: model 'blocked': The model has one cul-de-sacs, and is requested to run using a random path ` +
      'generator and 100% edge coverage. That might not work. The walk cannot leave v_Retired (v3), and fails there ' +
      'when chance takes it there before the rest is covered; give it a way out, or use a generator that plans ' +
      '(quick_random, shortest_all_paths)';
    expect(await check('-m', file, COVER)).toMatchObject({ code: 0, stdout: NONE });
    expect(await check('-m', file, COVER, '-b', 'TRUE')).toMatchObject({ code: 0, stdout: NONE });
    expect(await check('-m', file, COVER, '--blocked', 'False')).toMatchObject({ code: 0, lines: [kept] });
    const wrong = await runWalker(['check', '-m', file, COVER, '-b', 'maybe']);
    expect(wrong.code).toBe(1);
    expect(wrong.stderr).toMatch(/-b,--blocked/);
  });
});
