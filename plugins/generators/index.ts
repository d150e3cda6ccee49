import type { PathGeneratorFactory } from '../../core/generator.js';
import type { WalkerPlugin } from '../../core/plugin.js';
import { aStarGenerator } from './a-star.js';
import { predefinedPathGenerator } from './predefined-path.js';
import { quickRandomGenerator } from './quick-random.js';
import { randomGenerator } from './random.js';
import { shortestAllPathsGenerator } from './shortest-all-paths.js';
import { weightedRandomGenerator } from './weighted-random.js';
import { VERSION } from '../../core/version.js';

export {
  aStarGenerator,
  predefinedPathGenerator,
  quickRandomGenerator,
  randomGenerator,
  shortestAllPathsGenerator,
  weightedRandomGenerator,
};
export { planCoveringWalk, type CoveringPlan } from './algorithms/route-inspection.js';
export { weightedShares } from './weighted-random.js';

const PLUGIN_NAME = 'walker-generators';

/** The six built-in path generators, in the order `walker --help` lists them. */
export const builtinGenerators: readonly PathGeneratorFactory[] = [
  randomGenerator,
  weightedRandomGenerator,
  quickRandomGenerator,
  aStarGenerator,
  shortestAllPathsGenerator,
  predefinedPathGenerator,
];

/**
 * The plugin that registers the built-in path generators under their names and GraphWalker's aliases:
 * `random` (`randompath`), `weighted_random` (`weightedrandompath`), `quick_random` (`quickrandom`,
 * `quickrandompath`), `a_star` (`astarpath`), `shortest_all_paths` (`shortestallpaths`) and
 * `predefined_path` (`predefinedpath`).
 */
export function generatorsPlugin(): WalkerPlugin {
  return {
    meta: { name: PLUGIN_NAME, version: VERSION },
    setup(registries) {
      for (const factory of builtinGenerators) registries.generators.register(factory, PLUGIN_NAME);
    },
  };
}
