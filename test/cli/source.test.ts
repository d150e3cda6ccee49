import { mkdtempSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { beforeAll, describe, expect, it } from 'vitest';
import { expandSourceTemplate, parseSourceTemplate } from '../../cli/source-template.js';
import { ensureBuilt, ROOT, runCli, runWalker } from './online-helpers.js';

const SOURCE = join(ROOT, 'test', 'fixtures', 'source');
const EXAMPLE = join(SOURCE, 'example.json');
const SHARED = join(ROOT, 'test', 'fixtures', 'models', 'shared-start-copied.json');

beforeAll(() => ensureBuilt());

describe('walker source', () => {
  it("expands GraphWalker's own templates as its SourceTest expects, and a template per model of a file", async () => {
    // The first through the real executable; the others through the same `main` in this process, cheaper.
    const dir = mkdtempSync(join(tmpdir(), 'walker-source-'));
    const small = join(dir, 'small.template');
    // Windows line ends, as an editor there saves them: GraphWalker reads the template line by line.
    writeFileSync(small, 'HEADER<{{# start}}>HEADER\r\nstep({LABEL}, "{LABEL}")\r\nFOOTER<{{# end}}>FOOTER\r\n');
    const [python, perl, shared, missing, unmarked, empty] = await Promise.all([
      runWalker(['source', '--input', EXAMPLE, join(SOURCE, 'python.template')]),
      runCli(['source', '-i', EXAMPLE, join(SOURCE, 'perl.template'), '-b', 'false']),
      runCli(['source', '-i', SHARED, small]),
      runCli(['source', '-i', EXAMPLE, join(dir, 'missing.template')]),
      runCli(['source', '-i', EXAMPLE, EXAMPLE]),
      runCli(['source', '-i', join(ROOT, 'test', 'fixtures', 'models', 'no-models.json'), small]),
    ]);
    for (const run of [python, perl, shared]) expect([run.code, run.stderr]).toEqual([0, '']);
    // GraphWalker's SourceTest: between 950 and 1150 characters for Python, 1200 and 1300 for Perl.
    expect(python.stdout.length).toBeGreaterThan(950);
    expect(python.stdout.length).toBeLessThan(1150);
    expect(perl.stdout.length).toBeGreaterThan(1200);
    expect(perl.stdout.length).toBeLessThan(1300);
    // Each name once (e_SomeOtherAction names two edges), sorted as Java sorts strings: edges' e_ before v_.
    const defs = [...python.stdout.matchAll(/^def (\w+)\(\) :$/gm)].map((m) => m[1]);
    expect(defs).toEqual(['e_AnotherAction', 'e_FirstAction', 'e_SomeOtherAction', 'v_VerifySomeAction', 'v_VerifySomeOtherAction']);
    expect(python.stdout.startsWith('\nimport requests,json\n')).toBe(true);
    // The header, each body (from the line end after HEADER to FOOTER) and the footer, each with a line end after it.
    const model = (names: string[]) => `# start\n${names.map((n) => `\nstep(${n}, "${n}")\n\n`).join('')}# end\n`;
    expect(shared.stdout).toBe(model(['e_ToLift', 'e_WalkIn', 'v_Entrance', 'v_Hall', 'v_Lift']) + model(['e_StepOut', 'v_Arrive', 'v_Desk']));
    expect(missing).toEqual({ code: 2, stdout: '', stderr: `Could not read the template '${join(dir, 'missing.template')}': no such file\n` });
    expect([unmarked.code, unmarked.stdout]).toEqual([2, '']);
    expect(unmarked.stderr).toContain('has no HEADER<{{ ... }}>HEADER, body and FOOTER<{{ ... }}>FOOTER');
    expect(empty).toEqual({ code: 2, stdout: '', stderr: expect.stringContaining("No valid models found in: '") });
  });
});

describe('the template expansion', () => {
  it('matches the markers greedily, as GraphWalker does, and puts a name in as it is', () => {
    const template = parseSourceTemplate('HEADER<{{a}}>HEADER}}>HEADER\n{LABEL}$1\nFOOTER<{{z}}>FOOTER');
    expect(template).toEqual({ header: 'a}}>HEADER', body: '\n{LABEL}$1\n', footer: 'z' });
    expect(expandSourceTemplate(template!, ['b$&', 'B', 'b$&'])).toBe('a}}>HEADER\n\nB$1\n\n\nb$&$1\n\nz\n');
    expect(parseSourceTemplate('no markers')).toBeUndefined();
  });
});
