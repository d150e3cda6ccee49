import { mkdtempSync, readFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { beforeAll, describe, expect, it } from 'vitest';
import { ensureBuilt, http, runCli, runWalker, startService, startWalker } from './online-helpers.js';

/**
 * walker's command line as GraphWalker users and AltWalker run it: the global --debug, GraphWalker's flags on
 * online and offline with GraphWalker's meaning, and methods/requirements. Each command and each service runs
 * once through the real executable, where a shell sees its exit code and streams; the variations of a flag run
 * through the same `main` in this process (runCli), since a walker process costs a second of CPU.
 */

const LOGIN = 'examples/models/login.json';
const BLOCKED = 'test/fixtures/models/graphwalker/graphWithBlockedElements.json';
const UC01 = 'test/fixtures/models/graphwalker/UC01.json';
const COVER = 'random(edge_coverage(100))';

beforeAll(() => ensureBuilt(), 120_000);

type Line = Record<string, unknown>;

function jsonLines(stdout: string): Line[] {
  return stdout.trimEnd().split('\n').map((line) => JSON.parse(line) as Line);
}

/** The JSON log lines of a stderr. */
function logLines(stderr: string): Line[] {
  return stderr.split('\n').filter((line) => line.startsWith('{')).map((line) => JSON.parse(line) as Line);
}

describe('--debug <level> before the command', () => {
  it('leaves the stderr of AltWalker\'s offline run empty, and every line carries modelName and the verbose members', async () => {
    const run = await runWalker(['--debug', 'TRACE', 'offline', '--model', LOGIN, COVER, '--verbose', '--unvisited', '--blocked', 'False']);
    expect(run.code).toBe(0);
    expect(run.stderr).toBe('');
    const steps = jsonLines(run.stdout);
    for (const step of steps) {
      expect(Object.keys(step)).toEqual([
        'currentElementName',
        'currentElementID',
        'modelId',
        'modelName',
        'data',
        'properties',
        ...(step.actions === undefined ? [] : ['actions']),
        'numberOfElements',
        'numberOfUnvisitedElements',
        'unvisitedElements',
      ]);
      expect(step.modelName).toBe('Login');
      // Three vertices and nine edges, whatever has been visited.
      expect(step.numberOfElements).toBe(12);
    }
    // The start edge first: the model actions have set the three variables; it has no properties or actions;
    // it is the one element visited so far.
    expect(steps[0]).toEqual({
      currentElementName: 'e_Start',
      currentElementID: 'e_start',
      modelId: 'login',
      modelName: 'Login',
      data: [{ signedIn: 'false' }, { remember: 'false' }, { attempts: '0' }],
      properties: [],
      numberOfElements: 12,
      numberOfUnvisitedElements: 11,
      unvisitedElements: expect.arrayContaining([{ elementName: 'v_AppClosed', elementId: 'v_closed' }]),
    });
    // Full edge coverage: the last step leaves nothing unvisited.
    expect(steps[steps.length - 1]).toMatchObject({ numberOfUnvisitedElements: 0, unvisitedElements: [] });
    const invalid = steps.find((s) => s.currentElementName === 'e_InvalidCredentials');
    expect(invalid?.actions).toEqual([{ Action: 'attempts++;' }]);
  });

  it('lets an offline walk that fails say so on stderr, as a log line at error and the message', async () => {
    const run = await runWalker(['-d', 'trace', 'offline', '-m', 'test/fixtures/models/dead-end.json', 'random(never)']);
    expect(run.code).toBe(2);
    expect(logLines(run.stderr).map((line) => [line.level, line.msg])).toEqual([[50, 'Walk failed']]);
    expect(run.stderr).toMatch(/\nCould not find a valid path from element: v_B \(b\)\n$/);
  });

  it("sets online's log level as it is (TRACE: a line per request); an explicit --log-level after the command wins", async () => {
    const online = ['online', '-s', 'RESTFUL', '-p', '0'];
    const traced = await startWalker(['--debug', 'TRACE', ...online]);
    await http(traced.url, 'GET', '/walker/hasNext');
    expect(await traced.stop()).toBe(0);
    expect(logLines(traced.output().stderr).filter((line) => line.url === '/walker/hasNext')).toHaveLength(1);

    const overridden = await startWalker(['--debug', 'TRACE', ...online, '--log-level', 'warn']);
    await http(overridden.url, 'GET', '/walker/hasNext');
    expect(await overridden.stop()).toBe(0);
    expect(overridden.output().stderr).toBe('');

    const off = await startWalker(['--debug', 'off', ...online]);
    expect(await off.stop()).toBe(0);
    expect(off.output().stderr).toBe('');
    expect(off.output().stdout).toBe(`Listening on ${off.url}\n[HttpServer] Started\n`);
  });

  it('refuses any other level with GraphWalker\'s words and the usage, exit 1', async () => {
    for (const args of [['--debug', 'LOUD', 'offline'], ['-d'], ['--debug=verbose', 'online']]) {
      const run = await runCli(args);
      expect(run.code).toBe(1);
      expect(run.stdout).toBe('');
      expect(run.stderr).toMatch(/^walker: Incorrect argument to --debug: .+; expected one of OFF, ERROR, WARN, INFO, DEBUG, TRACE, ALL \(any case\)\n\n\$ walker /);
    }
  });

  it('says where it goes when it is given after the command', async () => {
    const run = await runCli(['online', '-s', 'RESTFUL', '-p', '0', '--debug', 'TRACE']);
    expect(run.code).toBe(1);
    expect(run.stderr.split('\n')[0]).toBe(
      'walker online: --debug <level> stands before the command, as in GraphWalker: walker --debug <level> <command> ...',
    );
  });

  it('is not the seed after offline: -d there is answered with what to write instead', async () => {
    const run = await runCli(['offline', '-m', LOGIN, COVER, '-d', '42']);
    expect(run.code).toBe(1);
    expect(run.stderr.split('\n')[0]).toBe(
      "walker offline: -d is not walker's seed option: give the seed as --seed <n> (before the command, -d is --debug <level>)",
    );
  });
});

describe('-b,--blocked <true|false>', () => {
  // graphWithBlockedElements.json: v1..v5 and e1..e10, with v5 and e10 marked blocked. A blocked vertex takes its
  // edges (e5 into v5, e6 out of it) with it, so a load that leaves blocked elements out keeps 4 vertices and 7 edges.
  it('keeps blocked elements with false (any case) and leaves them out by default or with true', async () => {
    const counts = async (flags: string[]): Promise<unknown> => {
      const run = await runCli(['offline', '-m', BLOCKED, 'random(length(1))', '--unvisited', ...flags]);
      expect([run.code, run.stderr]).toEqual([0, '']);
      return jsonLines(run.stdout)[0].numberOfElements;
    };
    expect(await counts(['--blocked', 'False'])).toBe(15);
    expect(await counts(['-b', 'false'])).toBe(15);
    expect(await counts([])).toBe(11);
    expect(await counts(['-b', 'TRUE'])).toBe(11);
  });

  it('walks every kept element to full edge coverage, and never a left-out one', async () => {
    const visited = async (flags: string[]): Promise<string[]> => {
      const run = await runCli(['offline', '-m', BLOCKED, COVER, ...flags]);
      expect(run.code).toBe(0);
      return [...new Set(jsonLines(run.stdout).map((s) => String(s.currentElementID)))].sort();
    };
    const all = ['e1', 'e10', 'e2', 'e3', 'e4', 'e5', 'e6', 'e7', 'e8', 'e9', 'v1', 'v2', 'v3', 'v4', 'v5'];
    expect(await visited(['-b', 'false'])).toEqual(all);
    expect(await visited([])).toEqual(all.filter((id) => !['v5', 'e5', 'e6', 'e10'].includes(id)));
  });

  it('counts the same in the statistics of online, as AltWalker starts it', async () => {
    const statistics = async (flags: string[]): Promise<Record<string, unknown>> => {
      const service = await startService(['--model', BLOCKED, COVER, '--port', '0', '--service', 'RESTFUL', '--verbose', ...flags]);
      const answer = await http(service.url, 'GET', '/graphwalker/getStatistics');
      expect(await service.stop()).toBe(0);
      return answer;
    };
    expect(await statistics(['--blocked', 'False'])).toMatchObject({ totalNumberOfVertices: 5, totalNumberOfEdges: 10 });
    expect(await statistics([])).toMatchObject({ totalNumberOfVertices: 4, totalNumberOfEdges: 7 });
  });

  it('refuses anything but true or false', async () => {
    const run = await runCli(['offline', '-m', BLOCKED, COVER, '-b', 'yes']);
    expect(run.code).toBe(1);
    expect(run.stderr.split('\n')[0]).toBe("walker offline: invalid value for -b: expected true or false (any case), got 'yes'");
  });
});

describe('-m <file> <generator> with several models in the file', () => {
  const FILE = 'test/fixtures/models/first-model-generator.json';

  it("replaces the first model's generator only: the second keeps its own", async () => {
    // First's own generator, length(100), would walk into its dead end at v_A; -m's edge_coverage(100) ends
    // there. Second keeps random(length(1)), which counts the steps of the whole walk, so it is fulfilled
    // before Second is entered: Second is never walked. Given -m's generator too, it would walk
    // e_IntoB, v_B, e_AroundB, v_B.
    const run = await runCli(['offline', '-m', FILE, COVER]);
    expect([run.code, run.stderr]).toEqual([0, '']);
    expect(jsonLines(run.stdout).map((s) => s.currentElementID)).toEqual(['a0', 'a1']);
  });

  it("shows that the first model's own generator is replaced: with a long walk asked for it dead-ends", async () => {
    const run = await runCli(['offline', '-m', FILE, 'random(length(100))']);
    expect(run.code).toBe(2);
    expect(run.stderr).toBe('Could not find a valid path from element: v_A (a1)\n');
  });

  it('names a later model without a generator of its own and says what to add', async () => {
    const file = 'test/fixtures/models/second-model-without-generator.json';
    const run = await runCli(['offline', '-m', file, COVER]);
    expect([run.code, run.stdout]).toEqual([2, '']);
    expect(run.stderr).toBe(
      `${file}: model 'second' ('Second') has no generator. The generator given with -m replaces that of the file's ` +
        'first model only; give this model a "generator" member, e.g. "generator": "random(edge_coverage(100))".\n',
    );
  });
});

describe('-e,--start-element <name>', () => {
  it('starts the first model of the first file at the vertex of that name', async () => {
    const run = await runCli(['offline', '-m', LOGIN, 'random(vertex_coverage(100))', '-e', 'v_LoginForm', '--seed', '1']);
    expect(run.code).toBe(0);
    expect(jsonLines(run.stdout)[0]).toMatchObject({ currentElementName: 'v_LoginForm', currentElementID: 'v_prompt' });
  });

  it('makes a model without any start element walkable', async () => {
    const file = 'test/fixtures/models/no-start-element.json';
    const refused = await runCli(['offline', '-m', file, COVER]);
    expect(refused.code).toBe(2);
    // From v_One the only ways are e_There, then e_Back: the whole walk to full edge coverage, ending on a vertex.
    const run = await runCli(['offline', '-m', file, COVER, '--start-element', 'v_One']);
    expect([run.code, run.stderr]).toEqual([0, '']);
    expect(jsonLines(run.stdout).map((s) => s.currentElementName)).toEqual(['v_One', 'e_There', 'v_Two', 'e_Back', 'v_One']);
  });

  it("says in GraphWalker's words that no element or several have the name, exit 2", async () => {
    const none = await runCli(['offline', '-m', LOGIN, COVER, '-e', 'v_Nowhere']);
    expect([none.code, none.stdout]).toEqual([2, '']);
    expect(none.stderr).toBe(
      `--start-element Did not find matching element in the model: '${LOGIN}'. ` +
        "No vertex or edge of the first model ('Login') is named 'v_Nowhere'.\n",
    );
    const several = await runCli(['offline', '-m', LOGIN, COVER, '-e', 'e_OpenApp']);
    expect([several.code, several.stdout]).toEqual([2, '']);
    expect(several.stderr).toBe(
      `--start-element There are more than one matching element in the model: '${LOGIN}'. ` +
        "2 elements of the first model ('Login') are named 'e_OpenApp' (ids 'e_open', 'e_open_remembered'); give the start a name of its own.\n",
    );
  });

  it('does not find a blocked element unless --blocked false keeps it', async () => {
    const left = await runCli(['offline', '-m', BLOCKED, 'random(length(1))', '-e', 'v5']);
    expect(left.code).toBe(2);
    expect(left.stderr).toMatch(/^--start-element Did not find matching element in the model/);
    const kept = await runCli(['offline', '-m', BLOCKED, 'random(length(1))', '-e', 'v5', '-b', 'false']);
    expect(kept.code).toBe(0);
    expect(jsonLines(kept.stdout)[0].currentElementID).toBe('v5');
  });

  it('starts a preloaded model of online there, in the short forms', async () => {
    const service = await startService(['-s', 'RESTFUL', '-p', '0', '-m', LOGIN, 'random(vertex_coverage(100))', '-e', 'v_Home', '-o', '-u', '-b', 'false']);
    const step = await http(service.url, 'GET', '/graphwalker/getNext');
    expect(await service.stop()).toBe(0);
    expect(step).toMatchObject({ currentElementName: 'v_Home', currentElementID: 'v_home', modelName: 'Login', numberOfElements: 12 });
  });

  it('needs a -m file on online', async () => {
    const run = await runCli(['online', '-s', 'RESTFUL', '-p', '0', '-e', 'v_Home']);
    expect(run.code).toBe(1);
    expect(run.stderr.split('\n')[0]).toBe(
      'walker online: -e,--start-element names an element of the first -m model file: give -m <file> <generator> too',
    );
  });
});

describe('walker offline keeps the seed recoverable without writing on stderr', () => {
  it('writes it to --seed-file, and the walk replays from it', async () => {
    const file = join(mkdtempSync(join(tmpdir(), 'walker-seed-')), 'seed.txt');
    const first = await runCli(['offline', '-m', LOGIN, COVER, '--seed-file', file]);
    expect([first.code, first.stderr]).toEqual([0, '']);
    const seed = readFileSync(file, 'utf8');
    expect(seed).toMatch(/^\d+\n$/);
    const again = await runCli(['offline', '-m', LOGIN, COVER, '--seed', seed.trim()]);
    expect(again.stdout).toBe(first.stdout);
  });

  it('says which seed file it cannot write, exit 2, before any step', async () => {
    const run = await runCli(['offline', '-m', LOGIN, COVER, '--seed-file', 'no/such/folder/seed.txt']);
    expect([run.code, run.stdout]).toEqual([2, '']);
    expect(run.stderr).toMatch(/^Could not write the seed file 'no\/such\/folder\/seed\.txt': ENOENT/);
  });

  it('prints it first on stdout with --print-seed', async () => {
    const run = await runCli(['offline', '-m', LOGIN, COVER, '--seed', '77', '--print-seed']);
    expect([run.code, run.stderr]).toEqual([0, '']);
    expect(run.stdout.split('\n')[0]).toBe('Seed: 77');
  });
});

describe('walker methods and walker requirements', () => {
  it('list the unique element names, unnamed ones left out, in Java String order', async () => {
    const run = await runWalker(['methods', '-m', UC01]);
    expect([run.code, run.stderr]).toEqual([0, '']);
    // Upper case sorts before lower case, as Java compares UTF-16 code units: e_StartBrowser before e_init.
    expect(run.stdout).toBe(
      [
        'e_AddBookToCart',
        'e_ClickBook',
        'e_EnterBaseURL',
        'e_SearchBook',
        'e_ShoppingCart',
        'e_StartBrowser',
        'e_init',
        'v_BaseURL',
        'v_BookInformation',
        'v_BrowserStarted',
        'v_BrowserStopped',
        'v_OtherBoughtBooks',
        'v_SearchResult',
        'v_ShoppingCart',
        '',
      ].join('\n'),
    );
  });

  it('leave blocked elements out unless --blocked false, and name e10 before e2', async () => {
    const kept = await runCli(['methods', '--model', BLOCKED, '--blocked', 'False']);
    expect(kept.stdout.split('\n').filter(Boolean)).toEqual(['e1', 'e10', 'e2', 'e3', 'e4', 'e5', 'e6', 'e7', 'e8', 'e9', 'v1', 'v2', 'v3', 'v4', 'v5']);
    const left = await runCli(['methods', '--model', BLOCKED]);
    expect(left.stdout.split('\n').filter(Boolean)).toEqual(['e1', 'e2', 'e3', 'e4', 'e7', 'e8', 'e9', 'v1', 'v2', 'v3', 'v4']);
  });

  it('join several files, each name once', async () => {
    const run = await runCli(['methods', '-m', BLOCKED, '-m', 'test/fixtures/models/first-model-generator.json', '-m', BLOCKED]);
    expect(run.stdout.split('\n').filter(Boolean)).toEqual([
      'e1', 'e2', 'e3', 'e4', 'e7', 'e8', 'e9', 'e_AroundB', 'e_IntoA', 'e_IntoB', 'v1', 'v2', 'v3', 'v4', 'v_A', 'v_B',
    ]);
  });

  it('list the requirement keys of the elements, each once, sorted', async () => {
    const uc01 = await runWalker(['requirements', '-m', UC01]);
    expect(uc01).toEqual({ code: 0, stdout: 'UC01 2.2.1\nUC01 2.2.2\nUC01 2.2.3\nUC01 2.3\n', stderr: '' });
    const both = await runCli(['requirements', '-m', LOGIN, '-m', UC01, '-m', LOGIN]);
    expect(both.stdout).toBe('LOGIN-1\nLOGIN-2\nUC01 2.2.1\nUC01 2.2.2\nUC01 2.2.3\nUC01 2.3\n');
  });

  it('take a file without a generator, and name a file they cannot read, exit 2', async () => {
    const pair = await runCli(['methods', '-m', LOGIN, COVER]);
    expect(pair.code).toBe(1);
    const missing = await runCli(['requirements', '-m', 'no/such.json']);
    expect(missing).toEqual({ code: 2, stdout: '', stderr: "Could not read the model file 'no/such.json': no such file\n" });
  });
});
