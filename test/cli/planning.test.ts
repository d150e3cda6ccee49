import { mkdtempSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { beforeAll, describe, expect, it } from 'vitest';
import { ensureBuilt, runWalker } from './online-helpers.js';
import { CLINIC_MODELS, clinicFile } from '../support/clinic-project.js';
import { counterFile, jobRunner } from '../support/counter-models.js';
import { unboundedCoverageOptimum } from '../support/guard-oracle.js';

/**
 * What planning with guards shows a user of the command line (docs/planning.md): the real process, on fixture
 * files, its output and exit code.
 */

const GUARDED = 'test/fixtures/models/guarded/';
const COVER = 'shortest_all_paths(edge_coverage(100))';

beforeAll(() => ensureBuilt(), 120_000);

/** The lines of an output, the empty last one left out. */
const lines = (text: string) => text.split('\n').filter((line) => line !== '');

/** The JSON log lines of a stderr, parsed. */
function logLines(stderr: string): Array<Record<string, unknown>> {
  return lines(stderr)
    .filter((line) => line.startsWith('{'))
    .map((line) => JSON.parse(line) as Record<string, unknown>);
}

/** A model whose counter grows without end: its states are endless, so every exploration stops at a bound. */
function endlessCounter(): string {
  const folder = mkdtempSync(join(tmpdir(), 'walker-planning-'));
  const file = join(folder, 'endless.json');
  const model = {
    models: [
      {
        id: 'endless',
        name: 'Endless',
        startElementId: 'v_Count',
        actions: ['count = 0;'],
        vertices: [{ id: 'v_Count', name: 'v_Count' }, { id: 'v_Even', name: 'v_Even' }],
        edges: [
          { id: 'e_Count', name: 'e_Count', sourceVertexId: 'v_Count', targetVertexId: 'v_Count', actions: ['count++;'] },
          { id: 'e_Even', name: 'e_Even', sourceVertexId: 'v_Count', targetVertexId: 'v_Even', guard: 'count % 2 == 0' },
          { id: 'e_Back', name: 'e_Back', sourceVertexId: 'v_Even', targetVertexId: 'v_Count' },
        ],
      },
    ],
  };
  writeFileSync(file, JSON.stringify(model));
  return file;
}

describe('walker check and the planning bounds', () => {
  it('--plan-states: notes that the walk reaches more states than the bound, and judges no guard; exit 0', async () => {
    // lockout.json has 10 states: with a bound of 3 none of its goals or closed edges is judged.
    const { code, stdout } = await runWalker(['check', '-m', `${GUARDED}lockout.json`, COVER, '--plan-states', '3']);
    expect({ code, lines: lines(stdout) }).toEqual({
      code: 0,
      lines: [
        'No issues found with the model(s).',
        `${GUARDED}lockout.json: note: The walk reaches more than 3 states (vertices with the values of the variables): ` +
          'edges the guards keep closed are not known, goals they make impossible are not refused, and plans are ' +
          'made on the fly from where the walk stands, each over the nearest 3 states at most. Raise --plan-states to explore them all.',
      ],
    });
  });

  it('--plan-states: with the bound above the states, says nothing', async () => {
    const { code, stdout } = await runWalker(['check', '-m', `${GUARDED}lockout.json`, COVER, '--plan-states', '10']);
    expect({ code, stdout }).toEqual({ code: 0, stdout: 'No issues found with the model(s).\n' });
  });

  it('--plan-time: notes that the safety stop ended exploring, with the states found by then, and that replay may differ; exit 0', async () => {
    // Endless states cannot be explored in a millisecond, however fast the machine: the time bound ends it,
    // long before the 100,000 states of the other.
    const file = endlessCounter();
    const { code, stdout } = await runWalker(['check', '-m', file, 'random(edge_coverage(100))', '--plan-time', '1']);
    expect({ code, lines: lines(stdout).length }).toEqual({ code: 0, lines: 2 });
    expect(stdout).toMatch(
      new RegExp(`^No issues found with the model\\(s\\)\\.\\n${file.replaceAll('\\', '\\\\')}: note: Exploring the walk's states was stopped by its safety stop of 1 ms \\([\\d,]+ states found by then; .* may not replay from its seed\\): .* Raise --plan-time to explore them all\\.\\n$`),
    );
  });

  it('--plan-time 0 is a usage mistake', async () => {
    const { code, stderr } = await runWalker(['check', '-m', `${GUARDED}lockout.json`, COVER, '--plan-time', '0']);
    expect({ code, names: stderr.startsWith('walker check: invalid value for --plan-time') }).toEqual({ code: 1, names: true });
  });
});

describe('walker check and walker offline on guards that read chance or time', () => {
  it('check names the edge no state lets through beside a guard that reads the time: for full coverage a warning unless a client sets data, exit 0', async () => {
    const { code, stdout } = await runWalker(['check', '-m', `${GUARDED}clock.json`, COVER]);
    const [line] = lines(stdout);
    const goal = line.startsWith(`${GUARDED}clock.json: warning: `) && line.includes('unless a client sets data');
    expect({ code, lines: lines(stdout).length, goal, never: line.includes('e_Never (guard "visits > 7"') }).toEqual({
      code: 0,
      lines: 2,
      goal: true,
      never: true,
    });
  });

  it('check warns of it when the goal does not need it, and not of the edge chance decides; exit 0', async () => {
    const { code, stdout } = await runWalker(['check', '-m', `${GUARDED}clock.json`, 'shortest_all_paths(edge_coverage(80))']);
    const [line] = lines(stdout);
    expect({ code, lines: lines(stdout).length, warning: line.startsWith(`${GUARDED}clock.json: warning: Model 'MaintenanceWindow': edge e_Never (guard "visits > 7"`) }).toEqual({
      code: 0,
      lines: 1,
      warning: true,
    });
  });

  it('offline refuses the walk to full coverage before the first step, naming e_Never; exit 2', async () => {
    const { code, stdout, stderr } = await runWalker(['offline', '-m', `${GUARDED}clock.json`, COVER, '--seed', '1']);
    expect({ code, stdout, lines: lines(stderr).length, never: stderr.includes('e_Never') }).toEqual({ code: 2, stdout: '', lines: 1, never: true });
  });

  it('offline walks flaky.json to its chance-gated edge and ends', async () => {
    const { code, stdout, stderr } = await runWalker(['offline', '-m', `${GUARDED}flaky.json`, 'a_star(reached_edge(e_Flaky))', '--seed', '2']);
    const steps = lines(stdout).map((line) => (JSON.parse(line) as { currentElementID: string }).currentElementID);
    expect({ code, stderr, last: steps.at(-1), aborts: steps.includes('e_Abort') }).toEqual({ code: 0, stderr: '', last: 'e_Flaky', aborts: false });
  });
});

describe('walker offline --log-level and planning', () => {
  it('warns of the closed edges at the start, and says at the end how many states were explored', async () => {
    const { code, stderr } = await runWalker(['offline', '-m', `${GUARDED}never-open.json`, 'random(vertex_coverage(100))', '--seed', '1', '--log-level', 'info']);
    const logged = logLines(stderr);
    const closed = logged.filter((line) => line.code === 'closed_edge');
    const finished = logged.find((line) => line.msg === 'Walk finished');
    // never-open.json has 6 states (its README), all explored at once.
    expect({ code, closed: closed.map((line) => [line.level, line.elementId]), planning: finished?.planning }).toEqual({
      code: 0,
      closed: [[40, 'e_OverheatAlarm']],
      planning: { exploredStates: 6, stateBound: 100_000, timeBoundMs: 10_000 },
    });
  });

  it('warns when an exploration stopped at its bound, and which', async () => {
    const { code, stderr } = await runWalker(['offline', '-m', `${GUARDED}lockout.json`, COVER, '--seed', '1', '--plan-states', '3', '--log-level', 'warn']);
    const logged = logLines(stderr);
    expect({ code, logged: logged.map((line) => [line.level, line.msg]) }).toEqual({
      code: 0,
      logged: [
        [40, expect.stringMatching(/^The walk reaches more than 3 states/)],
        [40, expect.stringMatching(/^Exploring the walk's states stopped at its bound of 3 states \(--plan-states\): from then on, plans were made on the fly from where the walk stood \(\d+ explorations(; \d+ decisions found nothing within their bound and went by the graph alone)?\)$/)],
      ],
    });
  });
});

describe('walker offline on a counter without bound', () => {
  it('stops exploring once the states grow without end, plans on the fly, walks the optimum, and says so', async () => {
    const folder = mkdtempSync(join(tmpdir(), 'walker-counter-'));
    const file = join(folder, 'job-runner.json');
    writeFileSync(file, JSON.stringify(counterFile(jobRunner)));
    const { code, stdout, stderr } = await runWalker(['offline', '-m', file, COVER, '--seed', '1', '--log-level', 'warn']);
    const logged = logLines(stderr).map((line) => line.msg);
    expect({ code, steps: lines(stdout).length, logged }).toEqual({
      code: 0,
      steps: unboundedCoverageOptimum(jobRunner),
      logged: [
        expect.stringMatching(/^The walk's states grow without end: after 2,\d{3} states, a variable has grown past twice every number its scripts name: .* plans are made on the fly from where the walk stands, each over the nearest 2,000 states at most\.$/),
        expect.stringMatching(/^Exploring the walk's states stopped at 2\d{3} states, which grow without end: from then on, plans were made on the fly from where the walk stood \(\d+ explorations\)$/),
      ],
    });
  });
});


describe('walker offline on models linked by shared states', () => {
  it('plans the clinic project as one walk: every edge of its four models, ending, in fewer steps than planning by the graph alone', async () => {
    const folder = mkdtempSync(join(tmpdir(), 'walker-planning-'));
    const file = join(folder, 'clinic.json');
    writeFileSync(file, JSON.stringify(clinicFile()));
    const edgeIds = CLINIC_MODELS.flatMap((m) => m.edges.map((e) => e.id));
    const walk = async (extra: string[]) => {
      const { code, stdout, stderr } = await runWalker(['offline', '-m', file, COVER, '--seed', '1', ...extra]);
      const steps = lines(stdout).map((line) => (JSON.parse(line) as { currentElementID: string }).currentElementID);
      return { code, stderr, steps, covered: edgeIds.filter((id) => steps.includes(id)).length };
    };
    const [planned, graphAlone] = await Promise.all([walk([]), walk(['--plan-states', '0'])]);
    expect({ code: planned.code, stderr: planned.stderr, covered: planned.covered }).toEqual({ code: 0, stderr: '', covered: edgeIds.length });
    expect({ code: graphAlone.code, covered: graphAlone.covered }).toEqual({ code: 0, covered: edgeIds.length });
    expect(planned.steps.length).toBeLessThan(graphAlone.steps.length);
  }, 120_000);
});
