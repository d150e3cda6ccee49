import type { StopConditionFactory } from '../../core/condition.js';
import type { Registries, WalkerPlugin } from '../../core/plugin.js';
import { edgeCoverage, requirementCoverage, vertexCoverage } from './coverage.js';
import { dependencyEdgeCoverage } from './dependency.js';
import { length, never, timeDuration } from './limits.js';
import { predefinedPath } from './predefined-path.js';
import { reachedEdge, reachedSharedState, reachedVertex } from './reached.js';
import { VERSION } from '../../core/version.js';

export { edgeCoverage, requirementCoverage, vertexCoverage } from './coverage.js';
export { dependencyEdgeCoverage } from './dependency.js';
export { length, never, timeDuration } from './limits.js';
export { predefinedPath } from './predefined-path.js';
export { reachedEdge, reachedSharedState, reachedVertex } from './reached.js';
export { FULFILLED } from './common.js';

/** The plugin's name, as it appears in registry clash messages. */
export const STOP_CONDITIONS_PLUGIN = 'walker-conditions';

/** Every built-in stop condition of docs/generators.md (`and`/`or` are the machine's), in the order of that list. */
export const builtInStopConditions: readonly StopConditionFactory[] = Object.freeze([
  edgeCoverage,
  vertexCoverage,
  requirementCoverage,
  dependencyEdgeCoverage,
  reachedVertex,
  reachedEdge,
  reachedSharedState,
  timeDuration,
  length,
  never,
  predefinedPath,
]);

/**
 * The built-in stop conditions as a walker plugin. Registering it twice into the same registries fails
 * with DUPLICATE_NAME, like any other name clash.
 */
export function stopConditionsPlugin(): WalkerPlugin {
  return {
    meta: { name: STOP_CONDITIONS_PLUGIN, version: VERSION },
    setup(registries: Registries): void {
      for (const factory of builtInStopConditions) registries.conditions.register(factory, STOP_CONDITIONS_PLUGIN);
    },
  };
}
