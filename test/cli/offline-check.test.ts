import { describe, expect, it } from 'vitest';
import { runCli } from './online-helpers.js';

const LOGIN = 'examples/models/login.json';
const COVER = 'random(edge_coverage(100))';

function steps(stdout: string): { currentElementName: string; currentElementID: string; modelId: string }[] {
  return stdout.trim().split('\n').map((line) => JSON.parse(line));
}

describe('walker offline', () => {
  it('prints one JSON object per step and nothing else on stdout, and nothing on stderr', async () => {
    const { code, stdout, stderr } = await runCli(['offline', '-m', LOGIN, COVER, '--seed', '42']);
    expect(code).toBe(0);
    const lines = steps(stdout);
    expect(lines[0]).toEqual({ currentElementName: 'e_Start', currentElementID: 'e_start', modelId: 'login', modelName: 'Login' });
    expect(lines.every((l) => Object.keys(l).join() === 'currentElementName,currentElementID,modelId,modelName')).toBe(true);
    expect(stderr).toBe('');
  });

  it('replays the identical path from the seed, and another seed walks another path', async () => {
    const a = await runCli(['offline', '-m', LOGIN, COVER, '--seed', '7']);
    const b = await runCli(['offline', '-m', LOGIN, COVER, '--seed', '7']);
    const c = await runCli(['offline', '-m', LOGIN, COVER, '--seed', '8']);
    expect(a.stdout).toBe(b.stdout);
    expect(c.stdout).not.toBe(a.stdout);
  });

  it('prints the seed it chose as the first line with --print-seed, which replays the walk', async () => {
    const first = await runCli(['offline', '-m', LOGIN, COVER, '--print-seed']);
    const [seedLine, ...walk] = first.stdout.split('\n');
    const seed = /^Seed: (\d+)$/.exec(seedLine)?.[1];
    expect(seed).toBeDefined();
    expect(first.stderr).toBe('');
    const again = await runCli(['offline', '-m', LOGIN, COVER, '--seed', seed as string]);
    expect(again.stdout).toBe(walk.join('\n'));
  });

  it('answers a usage mistake with the usage on stderr and exit 1, no stack trace', async () => {
    const { code, stdout, stderr } = await runCli(['offline', '-m', LOGIN]);
    expect(code).toBe(1);
    expect(stdout).toBe('');
    expect(stderr).toMatch(/walker offline/);
    expect(stderr).not.toMatch(/\n\s+at /);
  });

  it('rejects a negative or fractional seed as a usage mistake', async () => {
    for (const seed of ['-1', '1.5', 'abc']) {
      const { code, stderr } = await runCli(['offline', '-m', LOGIN, COVER, '--seed', seed]);
      expect(code).toBe(1);
      expect(stderr).toMatch(/--seed/);
    }
  });

  it('names an unreadable file in one line on stderr, exit 2', async () => {
    const { code, stdout, stderr } = await runCli(['offline', '-m', 'no/such.json', COVER]);
    expect(code).toBe(2);
    expect(stdout).toBe('');
    expect(stderr).toBe("Could not read the model file 'no/such.json': no such file\n");
  });

  it('names the column of a generator syntax error', async () => {
    const { code, stderr } = await runCli(['offline', '-m', LOGIN, 'random(edge_coverage(100)']);
    expect(code).toBe(2);
    expect(stderr).toBe("Model 'Login': Generator 'random(edge_coverage(100)', column 26: expected ')' to close the '(' at column 7\n");
  });

  it('reports a dead end on stderr after the steps it walked', async () => {
    const { code, stdout, stderr } = await runCli(['offline', '-m', 'test/fixtures/models/dead-end.json', 'random(never)']);
    expect(code).toBe(2);
    expect(steps(stdout).map((s) => s.currentElementID)).toEqual(['e0', 'a', 'e1', 'b']);
    expect(stderr).toMatch(/Could not find a valid path from element: v_B \(b\)\n$/);
  });
});
