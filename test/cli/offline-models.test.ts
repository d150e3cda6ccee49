import { beforeAll, describe, expect, it } from 'vitest';
import { ensureBuilt, runWalker } from './online-helpers.js';

/** `walker offline` (the real process) on GraphWalker's own start conventions, and on scripts that do not parse. */

const PEER = 'test/fixtures/models/graphwalker/peer/';

beforeAll(() => ensureBuilt());

function ids(stdout: string): string[] {
  return stdout.trim().split('\n').map((line) => (JSON.parse(line) as { currentElementID: string }).currentElementID);
}

describe("walker offline on GraphWalker's Java test models", () => {
  it("walks Login, whose start edge names the vertex 'Start' that does not exist, to full edge coverage", async () => {
    const { code, stdout } = await runWalker(['offline', '-m', `${PEER}java-Login.json`, 'random(edge_coverage(100))', '--seed', '7']);
    expect(code).toBe(0);
    const path = ids(stdout);
    expect(path[0]).toBe('e0');
    expect(new Set(path.filter((id) => id.startsWith('e')))).toEqual(new Set(['e0', 'e1', 'e2', 'e3', 'e4', 'e5', 'e6', 'e7', 'e8']));
    expect(['n1', 'n2', 'n3']).toContain(path[path.length - 1]);
  });

  it('walks SimpleModel from its start vertex to its end', async () => {
    const { code, stdout } = await runWalker(['offline', '-m', `${PEER}java-SimpleModel.json`, 'random(edge_coverage(100))']);
    expect(code).toBe(0);
    expect(ids(stdout)).toEqual(['v1', 'e1', 'v2']);
  });
});

describe('walker offline on scripts that do not parse', () => {
  it('refuses the file before the first step, naming file, model, element, field and position, exit 2', async () => {
    const file = 'test/fixtures/models/check/syntax-errors.json';
    const { code, stdout, stderr } = await runWalker(['offline', '-m', file, 'random(edge_coverage(100))']);
    expect(code).toBe(2);
    expect(stdout).toBe('');
    expect(stderr).toBe(
      `${file}: model 'login', field 'actions[1]': the model action does not parse, at line 1, column 12: ` +
        "SyntaxError: unexpected token in expression: ';' (and 3 more errors)\n",
    );
  });
});
