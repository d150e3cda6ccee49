import { invalidGenerator } from './errors.js';
import { DEFAULT_SCRIPT_LIMITS, type ScriptLimits } from './scripting.js';

/**
 * What every walk of one command or one service shares: the limits and choices the command line
 * (cli/walk-settings-options.ts) and the app's options (server/options.ts) set, built once by
 * {@link walkSettings} and handed on whole to every walk, load, check and draft validation. A new limit is a
 * field here (with its default and its check in {@link walkSettings}), its command-line option, and its use.
 */
export interface WalkSettings {
  /** Fixes the seed of every walk (`--seed`); it wins over the model file's `seed`. None: the file's, else a fresh one. */
  readonly seed?: number;
  /** Leave out elements whose `properties.blocked` is true (`--blocked`). */
  readonly blocked: boolean;
  /** What the models' scripts may use (docs/behaviour.md, "Scripts"); the script engine checks them. */
  readonly scriptLimits: ScriptLimits;
  /** States a guard-aware plan explores at most (`--plan-states`, docs/planning.md); 0 plans by the graph alone. */
  readonly planStates: number;
  /** Milliseconds one exploration of a guard-aware plan takes at most (`--plan-time`, docs/planning.md). */
  readonly planTimeMs: number;
}

/** What a caller may give of {@link WalkSettings}: any field, and any script limit, left out keeps its default. */
export type WalkSettingsInput = Partial<Omit<WalkSettings, 'scriptLimits'>> & { readonly scriptLimits?: Partial<ScriptLimits> };

/** States explored at most per exploration unless the walk says otherwise (`--plan-states`). */
export const DEFAULT_PLAN_STATES = 100_000;

/**
 * Milliseconds after which an exploration stops wherever it is, unless the walk says otherwise (`--plan-time`):
 * a safety stop, not a bound. The states bound what is explored, so that a seed fixes every plan; this stop only
 * ends an exploration whose scripts are far slower than planning expects (the sandbox's own limits allow a
 * request seconds), and it breaks replay where it fires, which the walk then says (docs/planning.md, "The bound").
 * At the default bounds the bench's largest explorations end well within it on a busy machine (docs/benchmarks.md).
 */
export const DEFAULT_PLAN_TIME_MS = 10_000;

export const DEFAULT_WALK_SETTINGS: WalkSettings = Object.freeze({
  blocked: true,
  scriptLimits: DEFAULT_SCRIPT_LIMITS,
  planStates: DEFAULT_PLAN_STATES,
  planTimeMs: DEFAULT_PLAN_TIME_MS,
});

/**
 * The settings `given` asks for, every field it leaves out at its default, checked: a wrong value is refused
 * with the field's name before any walk opens. It reads only the fields of {@link WalkSettings}, so a larger
 * options value (the app's, a library caller's) can be handed as it is. The script limits are the script
 * engine's to check (what it can do is its own), when it makes a sandbox with them.
 */
export function walkSettings(given: WalkSettingsInput = {}): WalkSettings {
  const planStates = given.planStates ?? DEFAULT_PLAN_STATES;
  if (!Number.isInteger(planStates) || planStates < 0) {
    throw invalidGenerator(`planStates must be a whole number of states, 0 or more; got ${planStates}.`);
  }
  const planTimeMs = given.planTimeMs ?? DEFAULT_PLAN_TIME_MS;
  if (!(planTimeMs > 0)) throw invalidGenerator(`planTimeMs must be a number of milliseconds above 0; got ${planTimeMs}.`);
  const settings = {
    blocked: given.blocked ?? DEFAULT_WALK_SETTINGS.blocked,
    scriptLimits: { ...DEFAULT_SCRIPT_LIMITS, ...definedFields(given.scriptLimits ?? {}) },
    planStates,
    planTimeMs,
  };
  return given.seed === undefined ? settings : { seed: given.seed, ...settings };
}

/** Every field of {@link WalkSettings}: the compiler asks for a new one here. */
const WALK_SETTINGS_FIELDS: Readonly<Record<keyof WalkSettings, true>> = Object.freeze({
  seed: true,
  blocked: true,
  scriptLimits: true,
  planStates: true,
  planTimeMs: true,
});

/** `options` without the fields of {@link WalkSettings}: what is left of a larger options value once they are taken. */
export function withoutWalkSettings<T extends object>(options: T): Omit<T, keyof WalkSettings> {
  return Object.fromEntries(Object.entries(options).filter(([name]) => !Object.hasOwn(WALK_SETTINGS_FIELDS, name))) as Omit<T, keyof WalkSettings>;
}

/** `limits` without its undefined fields, which would otherwise replace a default with nothing. */
function definedFields(limits: Partial<ScriptLimits>): Partial<ScriptLimits> {
  return Object.fromEntries(Object.entries(limits).filter(([, value]) => value !== undefined));
}
