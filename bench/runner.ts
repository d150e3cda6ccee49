import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import http from 'node:http';
import os from 'node:os';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { performance } from 'node:perf_hooks';
import { Walker } from '../core/walker.js';
import { generateModel } from '../core/model/generate.js';
import { loadModelFile } from '../core/model/load.js';
import type { Graph } from '../core/model/graph.js';
import { builtinPlugins } from '../plugins/index.js';
import { run } from '../runner/run.js';
import { startExecutor } from '../runner/executor.js';
import type { BenchRow } from './report.js';

const SECTION = 'runner';
const STEPS = 200_000;
const EXECUTOR_STEPS = 2_000;
/** The shrinking figure: a walk of about this many steps before the failure, and the model it walks. */
const FAILING_AFTER = 500;
const SHRINK_MODEL = { vertices: 40, edges: 90, seed: 11 };

/** The test runner's figures: its overhead over a plain walk, the executor's per step, and shrinking. */
export async function benchRunner(): Promise<BenchRow[]> {
  const dir = mkdtempSync(join(tmpdir(), 'walker-bench-runner-'));
  try {
    return [...(await overhead(dir)), ...(await executor(dir)), ...(await shrinking(dir))];
  } finally {
    rmSync(dir, { recursive: true, force: true });
  }
}

/** A test module with a class for the model whose methods, one per element name, do nothing; no fixtures. */
function emptyTests(model: string, names: readonly (string | undefined)[]): Record<string, unknown> {
  const instance: Record<string, () => void> = {};
  for (const name of names) if (name) instance[name] = () => {};
  return { [model]: instance };
}

/** Steps per second of `walker run` with empty test methods, against the library's plain offline walk. */
async function overhead(dir: string): Promise<BenchRow[]> {
  const model = generateModel({ vertices: 1_000, edges: 5_000, seed: 7 });
  model.models[0].name = 'Generated';
  const file = join(dir, 'generated.json');
  writeFileSync(file, JSON.stringify(model));
  const generator = `random(length(${STEPS}))`;

  const walker = await Walker.create(builtinPlugins());
  let plain = 0;
  for (let i = 0; i < 3; i++) {
    const machine = await walker.open({ model, generator, seed: 1 });
    const start = performance.now();
    while (machine.hasNext()) machine.next();
    plain = Math.max(plain, STEPS / ((performance.now() - start) / 1000));
    machine.dispose();
  }
  walker.dispose();

  let runner = 0;
  const tests = emptyTests('Generated', loadModelFile(model).graph.names);
  for (let i = 0; i < 3; i++) {
    let start = 0;
    const result = await run({ tests, models: [{ file, generator }], seed: 1, onWalk: () => void (start = performance.now()) });
    runner = Math.max(runner, result.steps.length / ((performance.now() - start) / 1000));
  }
  const subject = `generated 1k/5k, no scripts, empty test methods (load average ${loadAverage()})`;
  return [
    { section: SECTION, subject, metric: 'plain offline walk, steps/s', value: Math.round(plain) },
    { section: SECTION, subject, metric: 'walker run, steps/s (best of 3, from the walk open)', value: Math.round(runner), target: '>= 50,000', met: runner >= 50_000 },
    { section: SECTION, subject, metric: 'walker run / plain walk', value: Math.round((runner / plain) * 1000) / 1000 },
  ];
}

/** Milliseconds per step over loopback, as AltWalker calls a test step: five hasStep (the step, four fixtures) and an executeStep. */
async function executor(dir: string): Promise<BenchRow[]> {
  const tests = join(dir, 'tests.mjs');
  writeFileSync(tests, 'export class Model { e_Step(data) { data.n = (data.n ?? 0) + 1; } }\n');
  const { url, app } = await startExecutor({ tests, port: 0 });
  let closeAgent = (): void => {};
  try {
    // One kept-alive connection, as a client that keeps its session (Python requests.Session) would use.
    const agent = new http.Agent({ keepAlive: true, maxSockets: 1 });
    const { hostname, port } = new URL(url);
    const call = (method: string, path: string, body?: unknown): Promise<void> =>
      new Promise((resolve, reject) => {
        const headers = body === undefined ? {} : { 'content-type': 'application/json' };
        const request = http.request({ host: hostname, port, method, path: `/altwalker/${path}`, agent, headers }, (response) => {
          response.resume();
          response.on('end', resolve);
        });
        request.on('error', reject);
        request.end(body === undefined ? undefined : JSON.stringify(body));
      });
    closeAgent = () => agent.destroy();
    await call('POST', 'load', { path: tests });
    const step = async (): Promise<void> => {
      for (const fixture of ['beforeStep', 'afterStep']) {
        await call('GET', `hasStep?name=${fixture}`);
        await call('GET', `hasStep?modelName=Model&name=${fixture}`);
      }
      await call('GET', 'hasStep?modelName=Model&name=e_Step');
      await call('POST', 'executeStep?modelName=Model&name=e_Step', { data: { n: 1 }, step: { id: 'e0', name: 'e_Step', modelName: 'Model' } });
    };
    for (let i = 0; i < 200; i++) await step();
    const start = performance.now();
    for (let i = 0; i < EXECUTOR_STEPS; i++) await step();
    const ms = (performance.now() - start) / EXECUTOR_STEPS;
    const value = Math.round(ms * 1000) / 1000;
    const executeOnly = performance.now();
    for (let i = 0; i < EXECUTOR_STEPS; i++) await call('POST', 'executeStep?modelName=Model&name=e_Step', { data: { n: 1 }, step: { id: 'e0', name: 'e_Step', modelName: 'Model' } });
    const single = Math.round(((performance.now() - executeOnly) / EXECUTOR_STEPS) * 1000) / 1000;
    const subject = `walker executor, loopback, keep-alive (load average ${loadAverage()})`;
    return [
      { section: SECTION, subject, metric: 'ms per executeStep', value: single, target: '<= 1', met: single <= 1 },
      { section: SECTION, subject, metric: "ms per step as AltWalker calls it (5 hasStep + executeStep)", value },
    ];
  } finally {
    closeAgent();
    await app.close();
  }
}

/** The machine's one-minute load average: these figures are wall-clock times on a machine others share. */
function loadAverage(): string {
  return os.loadavg()[0].toFixed(1);
}

/**
 * A failure that needs two edges, A before B, found by a random walk of about 500 steps: the seed is the first
 * whose walk meets B after A between steps 450 and 550. Shrinking must come within 1.2 x the shortest failing
 * path of the model (the shortest way to A, then on to B) in at most 100 runs.
 */
async function shrinking(dir: string): Promise<BenchRow[]> {
  const model = generateModel(SHRINK_MODEL);
  model.models[0].name = 'Ring';
  const file = join(dir, 'ring.json');
  writeFileSync(file, JSON.stringify(model));
  const { graph } = loadModelFile(model);
  const [a, b] = [graph.ids.indexOf('e60'), graph.ids.indexOf('e75')];
  const walker = await Walker.create(builtinPlugins());
  let seed = 0;
  for (let s = 1; s < 10_000 && seed === 0; s++) {
    const machine = await walker.open({ model, generator: 'random(length(2000))', seed: s });
    let sawA = false;
    for (const step of machine) {
      if (step.element === a) sawA = true;
      if (step.element === b && sawA) {
        if (machine.steps >= FAILING_AFTER - 50 && machine.steps <= FAILING_AFTER + 50) seed = s;
        break;
      }
    }
    machine.dispose();
  }
  walker.dispose();
  let sawA = false;
  const instance = new Proxy(
    {},
    {
      get: (_target, name) => () => {
        if (name === 'e_60') sawA = true;
        if (name === 'e_75' && sawA) throw new Error('e_75 after e_60');
      },
    },
  );
  const tests = { setUpRun: () => void (sawA = false), Ring: instance };
  const started = performance.now();
  const result = await run({ tests, models: [{ file, generator: 'random(length(2000))' }], seed, shrink: { file: join(dir, 'shrunk.path'), runs: 100 } });
  const ms = performance.now() - started;
  const shortest = shortestThrough(graph, [graph.models[0].startElement, a, b]);
  const found = result.shrunk?.path.length ?? Infinity;
  const ratio = Math.round((found / shortest) * 1000) / 1000;
  const subject = `generated 40/90, e_60 then e_75, failing at step ${result.shrunk?.originalLength} (seed ${seed})`;
  return [
    { section: SECTION, subject, metric: `shrunk length / shortest failing path (${shortest})`, value: ratio, target: '<= 1.2', met: ratio <= 1.2 },
    { section: SECTION, subject, metric: 'shrinking runs', value: result.shrunk?.runs ?? 0, target: '<= 100', met: (result.shrunk?.runs ?? Infinity) <= 100 },
    { section: SECTION, subject, metric: 'ms, run and shrinking', value: Math.round(ms) },
  ];
}

/** The number of elements of the shortest walk from the first element through each of the others in turn. */
function shortestThrough(graph: Graph, elements: readonly number[]): number {
  let total = 1;
  for (let i = 1; i < elements.length; i++) total += distance(graph, elements[i - 1], elements[i]);
  return total;
}

function distance(graph: Graph, from: number, to: number): number {
  const seen = new Int32Array(graph.size).fill(-1);
  seen[from] = 0;
  const queue = [from];
  for (let i = 0; i < queue.length; i++) {
    const e = queue[i];
    if (e === to) return seen[e];
    for (const n of graph.isVertex(e) ? Array.from(graph.outEdgesOf(e)) : [graph.target[e]]) {
      if (seen[n] === -1) {
        seen[n] = seen[e] + 1;
        queue.push(n);
      }
    }
  }
  return Infinity;
}
