import { join } from 'node:path';
import { readFileSync } from 'node:fs';
import { createServer } from 'node:net';
import { beforeAll, describe, expect, it } from 'vitest';
import { ensureBuilt, ROOT, runWalker, startOverhead } from '../cli/online-helpers.js';
import { freePort, gw, gwCall, normaliseStep, pyQuote, startAsAltWalker, type AltWalkerService } from './altwalker-client.js';

/**
 * walker driven exactly as AltWalker 0.4 drives GraphWalker: its argument lists, its readiness line, its client's
 * calls and encodings, its reporter's reads. Nothing here is walker's own API.
 */

const LOGIN = join(ROOT, 'examples', 'models', 'login.json');
const GENERATOR = 'random(edge_coverage(100))';

beforeAll(() => ensureBuilt());

/** `gw online --model <file> <generator> --port <p> --service RESTFUL --verbose --blocked False`, as `_create_command` writes it. */
async function altWalkerOnline(extra: { before?: string[]; after?: string[]; generator?: string } = {}): Promise<AltWalkerService> {
  const port = await freePort();
  const args = [
    ...(extra.before ?? []),
    'online',
    '--model',
    LOGIN,
    extra.generator ?? GENERATOR,
    '--port',
    String(port),
    '--service',
    'RESTFUL',
    ...(extra.after ?? ['--verbose', '--blocked', 'False']),
  ];
  return startAsAltWalker(args, port);
}

/**
 * AltWalker's `Walker` over one run: restart, then per step getData, getNext, the test method (here: a method
 * per element name that records what it saw in the data), setData for every key the method changed, and at the
 * end the statistics its reporters read.
 */
async function altWalkerRun(port: number): Promise<{ steps: ReturnType<typeof normaliseStep>[]; statistics: Record<string, unknown> }> {
  await gw(port, 'PUT', '/restart');
  const steps: ReturnType<typeof normaliseStep>[] = [];
  while ((await gw(port, 'GET', '/hasNext')).hasNext === 'true') {
    const before = (await gw(port, 'GET', '/getData')).data as Record<string, string>;
    expect(typeof before).toBe('object');
    const step = normaliseStep(await gw(port, 'GET', '/getNext'));
    steps.push(step);
    // The class named after the model is what AltWalker calls; an unnamed step is skipped.
    expect(step.modelName).toBe('Login');
    if (step.name === 'v_Home') {
      const after = { ...before, homeVisits: String(Number(before.homeVisits ?? '0') + 1), seenHome: 'true' };
      for (const [key, value] of Object.entries(after)) {
        if (before[key] === value) continue;
        await gw(port, 'PUT', `/setData/${pyQuote(`${key}=${value}`)}`);
      }
    }
    if (steps.length > 10_000) throw new Error('the walk does not end');
  }
  return { steps, statistics: await gw(port, 'GET', '/getStatistics') };
}

describe('walker online, started and driven as AltWalker does', () => {
  it('runs a whole walk: readiness line, verbose steps, data as a dict, setData, the reporters\' statistics', async () => {
    const service = await altWalkerOnline();
    try {
      const { steps, statistics } = await altWalkerRun(service.port);
      expect(steps[0]).toMatchObject({ id: 'e_start', name: 'e_Start', modelName: 'Login', properties: [] });
      expect(steps[0].data).toEqual({ signedIn: 'false', remember: 'false', attempts: '0' });
      const invalid = steps.find((s) => s.name === 'e_InvalidCredentials');
      expect(invalid?.actions).toEqual(['attempts++;']);
      // ClickReporter and JUnitXMLReporter read these keys with [...]: every one must be there.
      expect(statistics).toMatchObject({
        totalNumberOfModels: 1,
        totalCompletedNumberOfModels: 1,
        totalIncompleteNumberOfModels: 0,
        totalNotExecutedNumberOfModels: 0,
        totalFailedNumberOfModels: 0,
        edgeCoverage: 100,
        vertexCoverage: 100,
        totalNumberOfVertices: 3,
        totalNumberOfEdges: 9,
        edgesNotVisited: [],
        verticesNotVisited: [],
        totalNumberOfRequirement: 2,
        requirementCoverage: 100,
        totalNumberOfPassedRequirement: 2,
        totalNumberOfUncoveredRequirement: 0,
        totalNumberOfFailedRequirement: 0,
        requirementsNotCovered: [],
        requirementsFailed: [],
      });
      expect(statistics.requirementsPassed).toEqual([
        { requirementKey: 'LOGIN-1', modelName: 'Login' },
        { requirementKey: 'LOGIN-2', modelName: 'Login' },
      ]);
      // What the test method wrote came back through getData, as strings.
      const data = (await gw(service.port, 'GET', '/getData')).data as Record<string, string>;
      expect(data.seenHome).toBe('true');
      expect(Number(data.homeVisits)).toBe(steps.filter((s) => s.name === 'v_Home').length);
    } finally {
      await service.kill();
    }
  });

  it('takes the altwalker CLI\'s --debug TRACE before the command, and --start-element, --unvisited, --blocked True', async () => {
    // Started at v_AppClosed the walk can never take the start edge e_Start, so full edge coverage would be
    // refused at load: vertex coverage is a goal this start can reach.
    const service = await altWalkerOnline({
      before: ['--debug', 'TRACE'],
      after: ['--start-element', 'v_AppClosed', '--verbose', '--unvisited', '--blocked', 'True'],
      generator: 'random(vertex_coverage(100))',
    });
    try {
      await gw(service.port, 'PUT', '/restart');
      const first = await gw(service.port, 'GET', '/getNext');
      expect(first).toMatchObject({
        currentElementName: 'v_AppClosed',
        currentElementID: 'v_closed',
        modelName: 'Login',
        numberOfElements: 12,
        numberOfUnvisitedElements: 11,
      });
      expect(first.unvisitedElements).toContainEqual({ elementName: 'v_LoginForm', elementId: 'v_prompt' });
    } finally {
      await service.kill();
    }
  });

  it('loads the models AltWalker sends in --gw-host mode: every file merged, sourceFile added, no Content-Type', async () => {
    const port = await freePort();
    const service = await startAsAltWalker(['online', '--port', String(port), '--service', 'RESTFUL', '--verbose', '--blocked', 'False'], port);
    try {
      const login = JSON.parse(readFileSync(LOGIN, 'utf8')) as { name: string; models: object[] };
      const body = JSON.stringify({ name: login.name, models: login.models.map((m) => ({ ...m, sourceFile: LOGIN })) });
      expect((await gwCall(port, 'POST', '/load', body)).body).toMatchObject({ result: 'ok' });
      const { statistics } = await altWalkerRun(port);
      expect(statistics.edgeCoverage).toBe(100);
    } finally {
      await service.kill();
    }
  });

  it('answers fail by its status alone, with any characters in the reason, and counts the failed model', async () => {
    const service = await altWalkerOnline();
    try {
      await gw(service.port, 'PUT', '/restart');
      await gw(service.port, 'GET', '/getNext');
      const reason = 'Step not found.\n$&+,/:;=?@<>#%{}|[]^~` é 名';
      const answer = await gwCall(service.port, 'PUT', `/fail/${pyQuote(reason)}`);
      expect(answer).toEqual({ status: 200, body: { result: 'nok', error: reason } });
      expect(await gw(service.port, 'GET', '/hasNext')).toEqual({ hasNext: 'false' });
      expect((await gw(service.port, 'GET', '/getStatistics')).totalFailedNumberOfModels).toBe(1);
    } finally {
      await service.kill();
    }
  });

  it("stores AltWalker's setData values as its integration test expects them back", async () => {
    const service = await altWalkerOnline();
    try {
      await gw(service.port, 'PUT', '/restart');
      await gw(service.port, 'GET', '/getNext');
      // AltWalker's set_data: booleans as true/false, strings in double quotes, numbers as str(x).
      const values: Array<[string, string, string]> = [
        ['flag', 'true', 'true'],
        ['message', '"Test message."', 'Test message.'],
        ['url', '"url/example/"', 'url/example/'],
        ['zero', '0', '0'],
        ['one', '1', '1'],
        ['ratio', '1.33', '1.33'],
        ['neg', '-1', '-1'],
        ['word', '"καλημέρα"', 'καλημέρα'],
      ];
      for (const [key, sent] of values) await gw(service.port, 'PUT', `/setData/${pyQuote(`${key}=${sent}`)}`);
      await gw(service.port, 'PUT', `/setData/${pyQuote('global.shared=1')}`);
      const data = (await gw(service.port, 'GET', '/getData')).data as Record<string, string>;
      for (const [key, , expected] of values) expect(data[key], key).toBe(expected);
      expect(data.shared).toBeUndefined();
      expect(data['global.shared']).toBeUndefined();
      const failed = await gwCall(service.port, 'PUT', `/setData/${pyQuote('y = undefinedVar + 1')}`);
      expect(failed.body).toEqual({ result: 'nok', error: expect.stringContaining('ReferenceError: undefinedVar is not defined') });
    } finally {
      await service.kill();
    }
  });

  it("prints GraphWalker's error line before the reason when it cannot start, and exits non-zero", async () => {
    const blocker = createServer();
    await new Promise<void>((resolve) => blocker.listen(0, '127.0.0.1', resolve));
    const port = (blocker.address() as { port: number }).port;
    try {
      const args = ['online', '--model', LOGIN, GENERATOR, '--port', String(port), '--service', 'RESTFUL', '--verbose', '--blocked', 'False'];
      const run = await runWalker(args);
      expect(run.code).not.toBe(0);
      const lines = `${run.stdout}${run.stderr}`.split('\n');
      const at = lines.findIndex((line) => line.startsWith('An error occurred when running command: '));
      expect(lines[at]).toBe(`An error occurred when running command: '${args.join(' ')}'.`);
      // AltWalker shows the line after it as the reason.
      expect(lines[at + 1]).toMatch(new RegExp(`Port ${port} is already in use`));
    } finally {
      await new Promise((resolve) => blocker.close(resolve));
    }
  });
});

describe('the other commands AltWalker runs (any output on stderr is a failure to it)', () => {
  it('offline: JSON lines with modelName and the verbose members, nothing on stderr', async () => {
    const run = await runWalker(['--debug', 'TRACE', 'offline', '--model', LOGIN, GENERATOR, '--verbose', '--unvisited', '--blocked', 'False']);
    expect([run.code, run.stderr]).toEqual([0, '']);
    const steps = run.stdout.trim().split('\n').map((line) => JSON.parse(line) as Record<string, unknown>);
    expect(steps.length).toBeGreaterThanOrEqual(9 + 3);
    for (const step of steps) {
      expect(step).toMatchObject({ currentElementName: expect.any(String), currentElementID: expect.any(String), modelName: 'Login' });
      expect(Array.isArray(step.data) && Array.isArray(step.properties)).toBe(true);
      expect(typeof step.numberOfUnvisitedElements).toBe('number');
    }
    expect(steps[0]).toMatchObject({ currentElementID: 'e_start' });
  });

  it('check: "No issues found with the model(s)." and nothing on stderr', async () => {
    const run = await runWalker(['--debug', 'TRACE', 'check', '--model', LOGIN, GENERATOR, '--blocked', 'False']);
    expect(run).toEqual({ code: 0, stdout: 'No issues found with the model(s).\n', stderr: '' });
  });

  it('methods: the unique element names, one per line, for the stubs AltWalker generates', async () => {
    const run = await runWalker(['methods', '--model', LOGIN, '--blocked', 'False']);
    expect(run.stderr).toBe('');
    expect(run.stdout.split('\n').filter(Boolean)).toEqual([
      'e_InvalidCredentials',
      'e_Logout',
      'e_OpenApp',
      'e_Quit',
      'e_Start',
      'e_ToggleRememberMe',
      'e_ValidCredentials',
      'v_AppClosed',
      'v_Home',
      'v_LoginForm',
    ]);
  });

  it('--version: a first line whose text after the last colon parses as the version, soon after Node starts, nothing on stderr', async () => {
    const run = await runWalker(['--version']);
    expect([run.code, run.stderr]).toEqual([0, '']);
    const first = run.stdout.split('\n')[0];
    // AltWalker's get_version: rpartition(":"), then ints split on . and -.
    const version = first.slice(first.lastIndexOf(':') + 1).trim();
    expect(first).toMatch(/ version: /);
    expect(version.split(/[.-]/).slice(0, 3).map(Number)).toEqual(
      (JSON.parse(readFileSync(join(ROOT, 'package.json'), 'utf8')) as { version: string }).version.split('.').map(Number),
    );
    // AltWalker gives gw --version one second: walker adds a small part of it to Node's own start.
    expect(await startOverhead(['--version'])).toBeLessThan(500);
  });
});
