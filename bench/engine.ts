import { performance } from 'node:perf_hooks';
import { Walker } from '../core/walker.js';
import { generateModel } from '../core/model/generate.js';
import { loadModelFile, loadModelText, type LoadedModelFile } from '../core/model/load.js';
import { reachableElements } from '../core/model/reachability.js';
import { builtinPlugins, graphmlFormat } from '../plugins/index.js';
import type { BenchRow } from './report.js';
import { sampleModel, SAMPLE_MODELS } from './samples.js';

const LARGE = { vertices: 10_000, edges: 50_000, seed: 2026 };
const SECTION = 'engine';
/** Time budget of one throughput measurement. */
const RUN_MS = 2_000;
/** Coverage runs give up after this many steps (reported as not reached). */
const COVERAGE_STEP_CAP = 20_000_000;
const COVERAGE_GENERATORS = ['random', 'weighted_random', 'quick_random', 'shortest_all_paths'];

/** Offline engine figures: load time, steps per second, steps to full edge coverage per generator. */
export async function benchEngine(): Promise<BenchRow[]> {
  const walker = await Walker.create(builtinPlugins());
  const rows: BenchRow[] = [];
  const plainText = JSON.stringify(generateModel(LARGE));
  const scriptedText = JSON.stringify(generateModel({ ...LARGE, guards: true, actions: true }));
  rows.push(loadTime(plainText));
  rows.push(graphmlLoadTime(walker, plainText));
  rows.push(throughput(walker, loadModelFile(plainText), 'without scripts', '>= 1,000,000', 1_000_000));
  rows.push(throughput(walker, loadModelFile(scriptedText), 'guard on every edge, action on every step', '>= 100,000', 100_000));
  const large = loadModelFile(plainText);
  for (const generator of COVERAGE_GENERATORS) rows.push(coverageRatio(walker, large, 'generated 10k/50k', generator));
  for (const name of SAMPLE_MODELS) {
    const loaded = loadModelFile(sampleModel(name), { source: name });
    for (const generator of COVERAGE_GENERATORS) rows.push(coverageRatio(walker, loaded, name, generator));
  }
  return rows;
}

function loadTime(text: string): BenchRow {
  let best = Infinity;
  for (let i = 0; i < 5; i++) {
    const start = performance.now();
    loadModelFile(text);
    best = Math.min(best, performance.now() - start);
  }
  const value = Math.round(best * 10) / 10;
  return { section: SECTION, subject: 'generated 10k/50k (JSON text)', metric: 'load ms (best of 5)', value, target: '< 300', met: value < 300 };
}

/** The same model written as yEd GraphML by the GraphML format, then loaded as `-m x.graphml` loads it. */
function graphmlLoadTime(walker: Walker, jsonText: string): BenchRow {
  const text = (graphmlFormat.write as NonNullable<typeof graphmlFormat.write>)(loadModelFile(jsonText).file);
  const formats = walker.registries.formats;
  let best = Infinity;
  for (let i = 0; i < 5; i++) {
    const start = performance.now();
    loadModelText(text, { formats, source: 'generated.graphml' });
    best = Math.min(best, performance.now() - start);
  }
  const value = Math.round(best * 10) / 10;
  const subject = `generated 10k/50k (GraphML text, ${Math.round(text.length / 2 ** 20)} MiB)`;
  return { section: SECTION, subject, metric: 'load ms (best of 5)', value, target: '< 1000', met: value < 1000 };
}

function throughput(walker: Walker, loaded: LoadedModelFile, what: string, target: string, goal: number): BenchRow {
  const machine = walker.walk(loaded, { seed: 1, generator: 'random(never)' });
  try {
    for (let i = 0; i < 50_000; i++) machine.next();
    let steps = 0;
    const start = performance.now();
    let elapsed = 0;
    while (elapsed < RUN_MS) {
      for (let i = 0; i < 10_000; i++) machine.next();
      steps += 10_000;
      elapsed = performance.now() - start;
    }
    const value = Math.round((steps / elapsed) * 1000);
    return { section: SECTION, subject: `generated 10k/50k, random, ${what}`, metric: 'steps/s', value, target, met: value >= goal };
  } finally {
    machine.dispose();
  }
}

/**
 * Steps to 100 % edge coverage divided by the lower bound 2 x (edges reachable from the start). The start
 * element itself is not a move, so it is not counted: an Euler tour from a start vertex scores exactly 1.
 */
function coverageRatio(walker: Walker, loaded: LoadedModelFile, subject: string, generator: string): BenchRow {
  const reachableEdges = countReachableEdges(loaded);
  const condition = `${generator}(edge_coverage(100))`;
  const generators = loaded.graph.models.map(() => condition);
  const machine = walker.walk(loaded, { seed: 1, generators });
  const target = generator === 'shortest_all_paths' ? 'route-inspection optimum' : generator === 'quick_random' ? '< 2.5' : undefined;
  try {
    let steps = 0;
    while (machine.hasNext() && steps < COVERAGE_STEP_CAP) {
      machine.next();
      steps++;
    }
    const value = machine.hasNext() ? Infinity : Math.round(((steps - 1) / (2 * reachableEdges)) * 1000) / 1000;
    const met = generator === 'quick_random' ? value < 2.5 : undefined;
    return { section: SECTION, subject: `${subject}, ${generator}`, metric: 'steps / (2 x reachable edges)', value, target, met };
  } catch (error) {
    return { section: SECTION, subject: `${subject}, ${generator}: ${(error as Error).message.slice(0, 80)}`, metric: 'steps / (2 x reachable edges)', value: NaN, target };
  } finally {
    machine.dispose();
  }
}

function countReachableEdges(loaded: LoadedModelFile): number {
  const reachable = reachableElements(loaded.graph);
  let count = 0;
  for (let e = loaded.graph.vertexCount; e < loaded.graph.size; e++) count += reachable[e];
  return count;
}

