import { Option } from 'clipanion';
import * as t from 'typanion';
import { DEFAULT_SCRIPT_LIMITS } from '../core/scripting.js';
import { checkLimits } from '../plugins/quickjs/limits.js';
import { valueOption } from './option.js';
import { isSize } from './sizes.js';

/**
 * The options that set what the models' scripts may use (docs/behaviour.md, "Scripts"), shared by `online` and
 * `offline`. A command declares them as fields; `walkSettingsOf` (walk-settings-options.ts) reads them.
 */

const positiveMs = () => t.cascade(t.isNumber(), [t.isInteger(), t.isAtLeast(1)]);

/** `--script-timeout <ms>`: one evaluation (a guard set, an action). */
export function scriptTimeoutOption() {
  return valueOption('--script-timeout <ms>', {
    validator: positiveMs(),
    description: `Milliseconds one guard set or action may run (default ${DEFAULT_SCRIPT_LIMITS.timeoutMs})`,
  });
}

/** `--script-budget <ms>`: all scripts of one request (or, offline, of one step). */
export function scriptBudgetOption() {
  return valueOption('--script-budget <ms>', {
    validator: positiveMs(),
    description: `Milliseconds all scripts of one request (offline: one step) may run together (default ${DEFAULT_SCRIPT_LIMITS.budgetMs})`,
  });
}

/**
 * `--script-memory <size>`: the memory of a walk's scripts, checked at once against what the built-in script
 * engine can do (at least the memory it starts with), so that a wrong value stops the command before any load.
 */
export function scriptMemoryOption() {
  return valueOption('--script-memory <size>', {
    validator: isSize(memoryProblem),
    description: 'Memory the scripts of one walk may hold, in bytes or with KiB, MiB or GiB (default 64MiB, at least 16MiB)',
  });
}

/** `--real-clock`: scripts read the host's clock instead of the run's. */
export function realClockOption() {
  return Option.Boolean('--real-clock', false, {
    description: "Let scripts read the host's clock; by default Date reads the run's clock, which replays with the seed",
  });
}

/** Why the engine would refuse this memory limit, in the option's words; undefined when it takes it. */
function memoryProblem(bytes: number): string | undefined {
  try {
    checkLimits({ ...DEFAULT_SCRIPT_LIMITS, memoryBytes: bytes });
    return undefined;
  } catch (error) {
    if (!(error instanceof RangeError)) throw error;
    return error.message.replace(/^Script limit memoryBytes /, '');
  }
}
