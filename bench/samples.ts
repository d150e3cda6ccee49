import { readFileSync } from 'node:fs';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';

/** The shared sample models the benchmarks walk (GraphWalker's own test models, beside the repository). */
export const SAMPLE_MODELS = ['SmallModel.json', 'Login.json', 'UC01.json', 'PetClinic.json', 'Selftest.json', 'SuperLarge.json'];

/** The folder of the shared sample models: `../shared/models` beside the repository. */
export function sampleModelsFolder(): string {
  // dist/bench/samples.js and bench/samples.ts are both two levels below the repository root.
  const here = dirname(fileURLToPath(import.meta.url));
  const root = here.endsWith(join('dist', 'bench')) ? join(here, '..', '..') : join(here, '..');
  return join(root, '..', 'shared', 'models');
}

/** The text of a sample model file. */
export function sampleModel(name: string): string {
  return readFileSync(join(sampleModelsFolder(), name), 'utf8');
}
