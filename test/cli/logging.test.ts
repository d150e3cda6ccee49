import { beforeAll, describe, expect, it } from 'vitest';
import { ensureBuilt, http, runCli, startService } from './online-helpers.js';

const LOGIN = 'examples/models/login.json';

beforeAll(() => ensureBuilt(), 120_000);

/** The JSON log lines of a stderr, parsed; the other lines (the seed, a message) are left out. */
function logLines(stderr: string): Record<string, unknown>[] {
  return stderr
    .split('\n')
    .filter((line) => line.startsWith('{'))
    .map((line) => JSON.parse(line) as Record<string, unknown>);
}

describe('walker online --log-level, the real executable', () => {
  it('logs one JSON line per request at debug', async () => {
    const service = await startService(['-s', 'RESTFUL', '-p', '0', '--log-level', 'debug']);
    await http(service.url, 'GET', '/walker/hasNext');
    await http(service.url, 'GET', '/walker/getStatistics');
    await fetch(`${service.url}/walker/drafts`, { method: 'POST' });
    expect(await service.stop()).toBe(0);
    const requests = logLines(service.output().stderr).filter((line) => line.method !== undefined);
    expect(requests.map((r) => [r.level, r.method, r.url, r.statusCode])).toEqual([
      [20, 'GET', '/walker/hasNext', 200],
      [20, 'GET', '/walker/getStatistics', 200],
      [20, 'POST', '/walker/drafts', 201],
    ]);
    expect(service.output().stdout).toBe(`Listening on ${service.url}\n[HttpServer] Started\n`);
  });

  it('logs where it listens and that it stopped at the default level, info, and no request', async () => {
    const service = await startService(['-s', 'RESTFUL', '-p', '0']);
    await http(service.url, 'GET', '/walker/hasNext');
    expect(await service.stop()).toBe(0);
    const lines = logLines(service.output().stderr);
    expect(lines.map((line) => [line.level, line.msg])).toEqual([
      [30, `Listening on ${service.url}`],
      [30, 'Stopped'],
    ]);
    expect(service.output().stdout).toBe(`Listening on ${service.url}\n[HttpServer] Started\n`);
  });
});

describe('walker offline and check --log-level', () => {
  it('logs nothing by default', async () => {
    const { stderr } = await runCli(['offline', '-m', LOGIN, 'random(edge_coverage(100))', '--seed', '3']);
    expect(stderr).toBe('');
  });

  it('logs the models, the seed and the steps of a walk at info, on stderr only', async () => {
    const quiet = await runCli(['offline', '-m', LOGIN, 'random(edge_coverage(100))', '--seed', '3']);
    const { code, stdout, stderr } = await runCli(['offline', '-m', LOGIN, 'random(edge_coverage(100))', '--seed', '3', '--log-level', 'info']);
    expect(code).toBe(0);
    expect(stdout).toBe(quiet.stdout);
    const lines = logLines(stderr);
    expect(lines.map((line) => line.msg)).toEqual(['Models loaded', 'Walk started', 'Walk finished']);
    expect(lines[0]).toMatchObject({ level: 30, files: [LOGIN], models: 1, elements: 12 });
    expect(lines[1]).toMatchObject({ seed: 3 });
    expect(lines[2]).toMatchObject({ steps: quiet.stdout.trimEnd().split('\n').length, edgeCoverage: 100 });
  });

  it('logs a walk that fails at error, with the steps it took', async () => {
    const args = ['offline', '-m', 'test/fixtures/models/dead-end.json', 'random(never)', '--log-level', 'error'];
    const { code, stderr } = await runCli(args);
    expect(code).toBe(2);
    expect(logLines(stderr)).toEqual([expect.objectContaining({ level: 50, msg: 'Walk failed', steps: 4 })]);
    expect(stderr).toMatch(/Could not find a valid path from element: v_B \(b\)\n$/);
  });

  it('logs each checked file at info', async () => {
    const { code, stdout, stderr } = await runCli(['check', '-m', LOGIN, 'random(edge_coverage(100))', '--log-level', 'info']);
    expect(code).toBe(0);
    expect(stdout).toBe('No issues found with the model(s).\n');
    expect(logLines(stderr)).toEqual([expect.objectContaining({ msg: 'Model file checked', file: LOGIN, issues: 0 })]);
  });
});
