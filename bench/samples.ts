import { readFileSync } from 'node:fs';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';

/** The sample models the benchmarks walk: GraphWalker's own test models, kept among the test fixtures. */
export const SAMPLE_MODELS = ['SmallModel.json', 'Login.json', 'UC01.json', 'PetClinic.json', 'Selftest.json', 'SuperLarge.json'];

/** The folder of the sample models: `test/fixtures/models/graphwalker` in the repository. */
export function sampleModelsFolder(): string {
  // dist/bench/samples.js and bench/samples.ts are both two levels below the repository root.
  const here = dirname(fileURLToPath(import.meta.url));
  const root = here.endsWith(join('dist', 'bench')) ? join(here, '..', '..') : join(here, '..');
  return join(root, 'test', 'fixtures', 'models', 'graphwalker');
}

/** The text of a sample model file. */
export function sampleModel(name: string): string {
  return readFileSync(join(sampleModelsFolder(), name), 'utf8');
}
