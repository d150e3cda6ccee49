import { join } from 'node:path';
import { beforeAll, describe, expect, it } from 'vitest';
import { Walker } from '../../../../core/walker.js';
import type { Machine } from '../../../../core/machine/machine.js';
import { loadModelFile, readModelFile } from '../../../../core/model/load.js';
import { builtinPlugins } from '../../../../plugins/index.js';

const FOLDER = join(import.meta.dirname, '..', '..', '..', 'fixtures', 'models', 'graphml');
const at = (path: string) => join(FOLDER, path);

let walker: Walker;
beforeAll(async () => {
  walker = await Walker.create(builtinPlugins());
});

function names(machine: Machine): string[] {
  const walked: string[] = [];
  try {
    while (machine.hasNext()) walked.push(machine.next().name);
  } finally {
    machine.dispose();
  }
  return walked;
}

/** GraphWalker's CorrectModelsTest, walked through the library (the CLI tests walk the same files). */
describe('walking yEd models as GraphWalker walks them', () => {
  it('walks simplestModel with random(vertex_coverage(100)): e1, v1', async () => {
    const machine = await walker.open({ file: at('cli/CorrectModels/simplestModel.graphml'), generator: 'random(vertex_coverage(100))', seed: 1 });
    expect(names(machine)).toEqual(['e1', 'v1']);
  });

  it('walks blockedVertex to e1, v1 with blocked elements left out, and on to e2, v2 with them kept', async () => {
    const file = at('cli/CorrectModels/blockedVertex.graphml');
    const generator = 'random(vertex_coverage(100))';
    expect(names(await walker.open({ file, generator, seed: 1 }))).toEqual(['e1', 'v1']);
    expect(names(await walker.open({ file, generator, seed: 1, blocked: false }))).toEqual(['e1', 'v1', 'e2', 'v2']);
  });

  it('walks modelWithNoStartVertex from v1 (what --start-element v1 sets) with a_star(reached_edge(e4)): v1, e2, v2, e4', async () => {
    const { file } = await readModelFile(at('cli/CorrectModels/modelWithNoStartVertex.graphml'), {
      formats: walker.registries.formats,
      requireStart: false,
    });
    const model = file.models[0];
    model.startElementId = model.vertices.find((v) => v.name === 'v1')?.id;
    const machine = walker.walk(loadModelFile(file), { generator: 'a_star(reached_edge(e4))', seed: 1 });
    expect(names(machine)).toEqual(['v1', 'e2', 'v2', 'e4']);
  });

  it('runs an action that defines a JavaScript function: its parts, split at every ;, join into one script', async () => {
    const machine = await walker.open({ file: at('io/FunctionAsAction.graphml'), generator: 'random(edge_coverage(100))', seed: 1 });
    // Start -init-> a -getOut-> Exit: init sets elements [1,2,3] and toString sums them; getOut stores the sum.
    const walked: string[] = [];
    while (machine.hasNext()) walked.push(machine.next().name);
    expect(walked).toEqual(['init', 'a', 'getOut', 'Exit']);
    expect(new Map(machine.modelVariables()).get('result')).toBe('6');
    machine.dispose();
  });
});
