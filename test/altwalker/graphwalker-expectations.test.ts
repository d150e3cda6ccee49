import { join } from 'node:path';
import { beforeAll, describe, expect, it } from 'vitest';
import { ensureBuilt, http, ROOT, runCli, runWalker, startService } from '../cli/online-helpers.js';
import { gw, freePort } from './altwalker-client.js';

/**
 * What AltWalker's tests of its GraphWalker integration expect of the `gw` executable beyond a walk: the words
 * GraphWalker prints for an unknown generator or stop condition, exceptions on stderr (AltWalker's `check`
 * fails only on stderr, whatever the exit code), and the two-model file joined by a shared state whose second
 * model copies the first one's startElementId. Each kind of answer is read once from the real executable, as
 * AltWalker reads it; the other cases run the same `main` in this process (runCli), where a process would only
 * add a second of CPU.
 */

const FIXTURES = join(ROOT, 'test', 'fixtures', 'models');
const SHARED = join(FIXTURES, 'shared-start-copied.json');
const EMPTY = join(FIXTURES, 'no-models.json');
const LOGIN = join(ROOT, 'examples', 'models', 'login.json');
const UNKNOWN_GENERATOR = 'No suitable generator found with name: invalid_generator';
const UNKNOWN_CONDITION = 'No valid stop condition found.';

/** The path of the shared-state file under `random(length(3))`, as GraphWalker walks it: model by model. */
const SHARED_PATH = [
  ['Lobby', 'v_Entrance'],
  ['Lobby', 'e_WalkIn'],
  ['Lobby', 'v_Hall'],
  // length(3) holds here, but Floor still wants its elements: the walk goes on to the shared state.
  ['Lobby', 'e_ToLift'],
  ['Lobby', 'v_Lift'],
  ['Floor', 'v_Arrive'],
  ['Floor', 'e_StepOut'],
  ['Floor', 'v_Desk'],
];

beforeAll(() => ensureBuilt());

describe("GraphWalker's words for an unknown generator or stop condition, walker's explanation after them", () => {
  it('check: on stderr with exit 2, nothing on stdout; offline: on stderr with exit 2', async () => {
    const runs = await Promise.all([
      runWalker(['--debug', 'TRACE', 'check', '--model', LOGIN, 'invalid_generator(never)', '--blocked', 'False']),
      runCli(['check', '--model', LOGIN, 'random(invalid_stop_condition)', '--blocked', 'False']),
      runCli(['offline', '--model', LOGIN, 'invalid_generator(never)', '--verbose', '--blocked', 'False']),
      runCli(['offline', '--model', LOGIN, 'random(invalid_stop_condition)', '--verbose']),
      // GraphWalker's parser throws for a generator that does not parse too.
      runCli(['check', '--model', LOGIN, 'random(edge_coverage(100)']),
    ]);
    const [checkGenerator, checkCondition, offlineGenerator, offlineCondition, checkSyntax] = runs;
    for (const run of runs) expect([run.code, run.stdout]).toEqual([2, '']);
    expect(checkGenerator.stderr).toBe(
      `${LOGIN}: error: ${UNKNOWN_GENERATOR}. Model 'Login', generator 'invalid_generator(never)': unknown path generator ` +
        "'invalid_generator' at column 1. Known: random, weighted_random, quick_random, a_star, shortest_all_paths, predefined_path.\n",
    );
    expect(checkCondition.stderr).toMatch(
      new RegExp(`^.*login\\.json: error: No valid stop condition found\\. Model 'Login', generator 'random\\(invalid_stop_condition\\)': unknown stop condition 'invalid_stop_condition' at column 8\\. Known: edge_coverage, .*\\n$`),
    );
    expect(offlineGenerator.stderr).toContain(`${UNKNOWN_GENERATOR}. Model 'Login'`);
    expect(offlineCondition.stderr).toContain(`${UNKNOWN_CONDITION} Model 'Login'`);
    expect(checkSyntax.stderr).toMatch(/login\.json: error: Model 'Login': Generator 'random\(edge_coverage\(100\)', column 26: expected '\)'/);
  });

  it("online: on the line after GraphWalker's 'An error occurred when running command', which AltWalker reports", async () => {
    const cases = [
      ['invalid_generator(never)', UNKNOWN_GENERATOR],
      ['random(invalid_stop_condition)', UNKNOWN_CONDITION],
    ];
    const runs = await Promise.all(
      cases.map(async ([generator], i) => {
        const port = await freePort();
        const argv = ['online', '--model', LOGIN, generator, '--port', String(port), '--service', 'RESTFUL', '--verbose'];
        return i === 0 ? runWalker(argv) : runCli(argv);
      }),
    );
    runs.forEach((run, i) => {
      expect(run.code).toBe(2);
      // AltWalker's regular expression over the log it keeps of stdout and stderr: the one line after GraphWalker's.
      const reason = /An error occurred when running command:.*[\r\n]+([^\r\n]+)/.exec(`${run.stdout}${run.stderr}`)?.[1];
      expect(reason).toContain(cases[i][1]);
    });
  });
});

describe("a file whose 'models' list is empty", () => {
  it('check: an exception on stderr, exit 2; methods: prints nothing, exit 0; offline: refused on stderr', async () => {
    const [check, methods, offline] = await Promise.all([
      runCli(['check', '--model', EMPTY, 'random(never)', '--blocked', 'False']),
      runCli(['methods', '--model', EMPTY, '--blocked', 'False']),
      runCli(['offline', '--model', EMPTY, 'random(length(3))']),
    ]);
    expect(check).toEqual({
      code: 2,
      stdout: '',
      stderr: `${EMPTY}: error: The file has no models: its 'models' list is empty; add a model with a 'startElementId' to walk it\n`,
    });
    expect(methods).toEqual({ code: 0, stdout: '', stderr: '' });
    expect([offline.code, offline.stdout]).toEqual([2, '']);
    expect(offline.stderr).toContain("its 'models' list is empty");
  });
});

describe("a second model whose startElementId names nothing of its own, entered through a shared state", () => {
  it('check finds no issue, methods lists every name, offline walks the first model, then the second', async () => {
    const [check, methods, offline] = await Promise.all([
      runCli(['--debug', 'TRACE', 'check', '--model', SHARED, 'random(never)', '--blocked', 'False']),
      runCli(['methods', '--model', SHARED, '--blocked', 'False']),
      runCli(['offline', '--model', SHARED, 'random(length(3))', '--verbose', '--blocked', 'False']),
    ]);
    expect(check).toEqual({ code: 0, stdout: 'No issues found with the model(s).\n', stderr: '' });
    expect(methods).toEqual({
      code: 0,
      stdout: ['e_StepOut', 'e_ToLift', 'e_WalkIn', 'v_Arrive', 'v_Desk', 'v_Entrance', 'v_Hall', 'v_Lift'].map((n) => `${n}\n`).join(''),
      stderr: '',
    });
    expect([offline.code, offline.stderr]).toEqual([0, '']);
    const steps = offline.stdout.trim().split('\n').map((line) => JSON.parse(line) as { modelName: string; currentElementName: string });
    expect(steps.map((s) => [s.modelName, s.currentElementName])).toEqual(SHARED_PATH);
  });

  it('online walks it the same way over /graphwalker: a finished model does not end the walk while another wants elements', async () => {
    const service = await startService(['-s', 'RESTFUL', '-p', '0', '-m', SHARED, 'random(length(3))', '--verbose']);
    try {
      const port = Number(new URL(service.url).port);
      const path: string[][] = [];
      while ((await gw(port, 'GET', '/hasNext')).hasNext === 'true') {
        const step = await gw(port, 'GET', '/getNext');
        path.push([String(step.modelName), String(step.currentElementName)]);
        if (path.length > 100) break;
      }
      expect(path).toEqual(SHARED_PATH);
      const statistics = await http(service.url, 'GET', '/graphwalker/getStatistics');
      expect(statistics).toMatchObject({ totalNumberOfModels: 2, totalCompletedNumberOfModels: 2, edgeCoverage: 100 });
    } finally {
      await service.stop();
    }
  });
});
