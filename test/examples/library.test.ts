import { execFileSync } from 'node:child_process';
import { readFileSync } from 'node:fs';
import { describe, expect, it } from 'vitest';

const EXAMPLE = 'examples/library/offline-walk.mjs';

/** Runs the library example as a user would, against the built package (npm test builds first). */
function runExample(): string {
  return execFileSync(process.execPath, [EXAMPLE, 'examples/models/login.json'], { encoding: 'utf8' });
}

describe('docs/library.md', () => {
  it('shows the example exactly as it is in the repository', () => {
    const doc = readFileSync('docs/library.md', 'utf8');
    const block = /```js\n([\s\S]*?)```/.exec(doc)?.[1];
    expect(block).toBe(readFileSync(EXAMPLE, 'utf8'));
  });

  it('runs the example to full edge coverage, the same way every time for its seed', () => {
    const output = runExample();
    expect(output).toMatch(/^seed 42: \d+ steps, 100% of edges\nfirst steps: e_Start -> v_AppClosed -> /);
    expect(output).toMatch(/\ndata: signedIn=(true|false); remember=(true|false); attempts=\d+\n$/);
    expect(runExample()).toBe(output);
  });

  it('shows the output the example prints', () => {
    const doc = readFileSync('docs/library.md', 'utf8');
    expect(doc).toContain(runExample().split('\n')[0]);
  });
});
