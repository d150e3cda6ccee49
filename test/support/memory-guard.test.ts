import { spawnSync } from 'node:child_process';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';

const ROOT = join(import.meta.dirname, '..', '..');

describe('the memory guard of the test workers', () => {
  it('ends a test file that holds more than any test needs, naming the file and the test', () => {
    const started = Date.now();
    const run = spawnSync(
      process.execPath,
      [join(ROOT, 'node_modules', 'vitest', 'vitest.mjs'), 'run', '--config', join(ROOT, 'test', 'fixtures', 'memory-guard', 'vitest.config.ts')],
      { cwd: ROOT, encoding: 'utf8', env: { ...process.env, CI: 'true', NO_COLOR: '1' }, timeout: 100_000 },
    );
    expect(run.status).not.toBe(0);
    expect(run.stdout + run.stderr).toMatch(/\[memory guard\] \S*runaway\.fixture\.ts › holds 1\.5 GB: the process holds \d+ MB, past the alarm of 1200 MB/);
    // Well before the fixture's own minute is up.
    expect(Date.now() - started).toBeLessThan(55_000);
  }, 120_000);
});
