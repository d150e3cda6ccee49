import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { beforeAll, describe, expect, it } from 'vitest';
import { createCli } from '../../cli/index.js';
import { ensureBuilt, ROOT, runCli, runWalker, startOverhead } from './online-helpers.js';

const COMMANDS = ['offline', 'online', 'check'];
const LOGIN = 'examples/models/login.json';

beforeAll(() => ensureBuilt(), 120_000);

describe('the help, as the real executable prints it', () => {
  it('shows every command with named option values and no #0 placeholder', async () => {
    const runs = await Promise.all([runWalker(['--help']), ...COMMANDS.map((c) => runWalker([c, '--help']))]);
    for (const run of runs) {
      expect(run.code).toBe(0);
      expect(run.stderr).toBe('');
      expect(run.stdout).not.toMatch(/#\d/);
    }
    const [general, ...commands] = runs.map((r) => r.stdout);
    for (const command of [...COMMANDS, 'methods', 'requirements']) expect(general).toContain(`walker ${command} `);
    expect(general).toContain('walker offline -m,--model <file> <generator> [--seed <n>]');
    expect(general).toContain('walker methods -m,--model <file> [-b,--blocked <true|false>]');
    expect(general).toMatch(/\nOptions before the command\n\n {2}-d,--debug <level> {2}.*OFF, ERROR, WARN, INFO, DEBUG, TRACE or ALL/);
    expect(general).toMatch(/\n {2}-v,--version {8}Print the version/);
    for (const help of commands) {
      expect(help).toMatch(/\nExamples\n\n.+\n {2}\$ walker /);
      expect(help).toContain('-m,--model <file> <generator>');
      expect(help).toMatch(/--log-level <level> +How much to log/);
    }
  });

  it('explains every option of every command, with its values named', () => {
    for (const definition of createCli().definitions()) {
      for (const option of definition.options) {
        expect(option.description, `${definition.path} ${option.definition}`).toMatch(/\w{3,}/);
        expect(option.definition).not.toMatch(/#\d/);
      }
    }
  });

  it('prints the version of package.json as GraphWalker words it, soon after Node starts, nothing on stderr', async () => {
    const { version } = JSON.parse(readFileSync(join(ROOT, 'package.json'), 'utf8')) as { version: string };
    for (const args of [['--version'], ['-v'], ['--debug', 'TRACE', '--version']]) {
      const run = await runWalker(args);
      expect(run).toEqual({ code: 0, stdout: `walker version: ${version}\n`, stderr: '' });
      expect(run.stdout).toMatch(/^\S.* version: \d+\.\d+\.\d+/);
    }
    // AltWalker gives `gw --version` one second before it falls back to GraphWalker's jar: neither the server
    // nor the engine is imported for it.
    expect(await startOverhead(['--version'])).toBeLessThan(500);
  });

  it('names a missing required option in one line on stderr, then the usage, exit 1', async () => {
    const run = await runWalker(['offline']);
    expect(run.code).toBe(1);
    expect(run.stdout).toBe('');
    const [first, blank, usage] = run.stderr.split('\n');
    expect(first).toBe('walker offline: missing required option -m,--model <file> <generator>');
    expect(blank).toBe('');
    expect(usage).toMatch(/^\$ walker offline -m,--model <file> <generator> \[--seed <n>\]/);
  });
});

describe('argument mistakes', () => {
  it.each([
    [['online'], 'walker online: missing required options -s,--service <type> and -p,--port <port>'],
    [['online', '-s', 'RESTFUL'], 'walker online: missing required option -p,--port <port>'],
    [['check'], 'walker check: missing required option -m,--model <file> <generator>'],
    [['offline', '-m', LOGIN], 'walker offline: option -m,--model needs <file> <generator>'],
    [['offline', '-m', LOGIN, 'random(never)', '--bogus'], 'walker offline: unsupported option name ("--bogus").'],
    [['offline', '-m', LOGIN, 'random(never)', '--log-level', 'loud'], 'walker offline: invalid value for --log-level: expected one of'],
    [['frobnicate'], "walker: unknown command 'frobnicate'"],
  ])('%j → %s', async (argv, message) => {
    const { code, stdout, stderr } = await runCli(argv);
    expect(code).toBe(1);
    expect(stdout).toBe('');
    expect(stderr.startsWith(message)).toBe(true);
    expect(stderr).toMatch(/\n\n\$ walker \w+ /);
    expect(stderr).not.toMatch(/#\d|\n\s+at /);
  });

  it('lists every command after an unknown one', async () => {
    const { stderr } = await runCli(['frobnicate']);
    for (const command of COMMANDS) expect(stderr).toContain(`$ walker ${command} `);
    expect(stderr).toMatch(/Run `walker --help` for details\.\n$/);
  });
});
