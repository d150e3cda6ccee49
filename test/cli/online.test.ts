import { createServer, type Server } from 'node:net';
import { mkdtempSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, beforeAll, describe, expect, it } from 'vitest';
import { loop } from '../server/models.js';
import { runCli } from './online-helpers.js';

let dir: string;
let model: string;
const servers: Server[] = [];

beforeAll(() => {
  dir = mkdtempSync(join(tmpdir(), 'walker-online-'));
  model = join(dir, 'loop.json');
  writeFileSync(model, JSON.stringify(loop()));
});

afterEach(() => {
  for (const server of servers.splice(0)) server.close();
});

/**
 * The lines of stderr that are not log lines: at the default level (info) the service logs that it stopped, as
 * a JSON line, also when it stops because of the mistake.
 */
function plainLines(stderr: string): string[] {
  return stderr.split('\n').filter((line) => line !== '' && !line.startsWith('{'));
}

/**
 * The reason a start failed: the plain lines after GraphWalker's `An error occurred when running command:` line,
 * which must come first and repeat the arguments (AltWalker shows the line after it).
 */
function reasonLines(stderr: string, argv: readonly string[]): string[] {
  const [first, ...rest] = plainLines(stderr);
  expect(first).toBe(`An error occurred when running command: '${argv.join(' ')}'.`);
  return rest;
}

/** Occupies a port on 127.0.0.1 and answers it. */
async function takenPort(): Promise<number> {
  const server = createServer();
  servers.push(server);
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  return (server.address() as { port: number }).port;
}

describe('walker online: mistakes', () => {
  it('refuses a service other than RESTFUL or WEBSOCKET', async () => {
    const res = await runCli(['online', '-s', 'SOAP', '-p', '0']);
    expect(res.code).toBe(1);
    expect(res.stderr).toMatch(/^walker online: -s,--service must be RESTFUL or WEBSOCKET, got 'SOAP'\n/);
    expect(res.stdout).toBe('');
  });

  it('requires a port', async () => {
    const res = await runCli(['online', '-s', 'RESTFUL']);
    expect(res.code).toBe(1);
    expect(res.stderr).toMatch(/-p/);
  });

  it.each([['65536'], ['http'], ['1.5']])('refuses the port %s', async (port) => {
    const res = await runCli(['online', '-s', 'RESTFUL', '-p', port]);
    expect(res.code).toBe(1);
    expect(res.stderr).toMatch(/^walker online: invalid value for -p/);
  });

  it('refuses a negative seed', async () => {
    const res = await runCli(['online', '-s', 'RESTFUL', '-p', '0', '--seed', '-3']);
    expect(res.code).toBe(1);
    expect(res.stderr).toContain('--seed');
  });

  it('says in one line that the port is in use', async () => {
    const port = await takenPort();
    const argv = ['online', '-s', 'restful', '-p', String(port)];
    const res = await runCli(argv);
    expect(res.code).toBe(2);
    expect(reasonLines(res.stderr, argv)).toEqual([
      `Address already in use: Port ${port} is already in use on 127.0.0.1; stop what listens there, or choose another port with -p (0 picks a free one)`,
    ]);
  });

  it('says in one line that a model file cannot be read', async () => {
    const missing = join(dir, 'missing.json');
    const argv = ['online', '-s', 'RESTFUL', '-p', '0', '-m', missing, 'random(edge_coverage(100))'];
    const res = await runCli(argv);
    expect(res.code).toBe(2);
    // Nothing was built, so nothing logged: GraphWalker's line and the reason are all of stderr.
    expect(res.stderr.trimEnd().split('\n')).toHaveLength(2);
    expect(reasonLines(res.stderr, argv)).toEqual([`Could not read the model file '${missing}': no such file`]);
  });

  it('says in one line that a generator is bad', async () => {
    const argv = ['online', '-s', 'RESTFUL', '-p', '0', '-m', model, 'random(edge_coverage(100)'];
    const res = await runCli(argv);
    expect(res.code).toBe(2);
    const reason = reasonLines(res.stderr, argv);
    expect(reason).toHaveLength(1);
    expect(reason[0]).toMatch(/^Model '[^']+': Generator 'random\(edge_coverage\(100\)', column \d+: expected/);
  });

  it('says in one line that a generator is unknown', async () => {
    const argv = ['online', '-s', 'RESTFUL', '-p', '0', '-m', model, 'zigzag(never)'];
    const res = await runCli(argv);
    expect(res.code).toBe(2);
    expect(reasonLines(res.stderr, argv)).toEqual([expect.stringContaining("unknown path generator 'zigzag'")]);
  });

  it('lists the online command in the help', async () => {
    const res = await runCli(['online', '--help']);
    expect(res.code).toBe(0);
    expect(res.stdout).toContain('walker online');
    expect(res.stdout).toContain('--max-model-bytes');
  });
});
