import type { Machine } from '../core/machine/machine.js';
import type { LoadedModelFile } from '../core/model/load.js';
import type { WalkSettings } from '../core/walk-settings.js';
import type { Walker } from '../core/walker.js';
import { RECORDED_PATH_GENERATOR } from './recorded-path.js';

/** What every walk of a run is opened with: the models, their generators and the run's walk settings. */
export interface RunWalkSettings {
  readonly loaded: LoadedModelFile;
  readonly generators: readonly (string | undefined)[];
  readonly settings: WalkSettings;
}

/**
 * Opens one walk of a run: the first, a replay of a recorded path, or a shrinking attempt. The one place a run
 * opens walks, so that what a walk driven by test code needs from the engine is said once. `follow` walks
 * the path the run's `recorded_path` generator reads instead of the models' generators.
 */
export async function openRunWalk(walker: Walker, run: RunWalkSettings, follow: boolean): Promise<Machine> {
  const { loaded, settings } = run;
  const generators = follow ? loaded.graph.models.map(() => RECORDED_PATH_GENERATOR) : run.generators;
  // Test code writes the walk's data, so a goal that only guards close may still be opened by it.
  return walker.reserved((reservation) =>
    walker.walk(loaded, { ...settings, generators, reservation, dataWriters: 'client' }),
  );
}
