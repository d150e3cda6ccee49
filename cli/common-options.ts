import { DEFAULT_PLAN_STATES, DEFAULT_PLAN_TIME_MS } from '../core/walk-settings.js';
import { Option } from 'clipanion';
import * as t from 'typanion';
import { listOption, valueOption } from './option.js';
import { LOG_LEVELS, type LogLevel } from './logger.js';

/**
 * The options several commands share, declared once so that they read and check the same everywhere. A command
 * declares them as fields: `models = modelsOption({ required: true })`.
 */

/** `-m,--model <file> <generator>`, repeatable: the model files to walk, each with its generator. */
export function modelsOption(flags: { required: boolean; description?: string }) {
  return listOption('-m,--model <file> <generator>', {
    required: flags.required,
    description: flags.description ?? "A model file and the generator of its first model (the others keep their own); repeat for more files",
  });
}

/** `-m,--model <file>`, repeatable and required: model files without a generator (`methods`, `requirements`). */
export function modelFilesOption() {
  return listOption('-m,--model <file>', { required: true, description: 'A model file; repeat for more files' });
}

/** `-e,--start-element <name>`: where the first model of the first `-m` file starts, by element name. */
export function startElementOption() {
  return valueOption('-e,--start-element <name>', {
    description: 'Start the first model of the first -m file at the vertex or edge of this name, instead of its startElementId',
  });
}

/** `-o,--verbose`: GraphWalker's verbose step members. */
export function verboseOption(where: string) {
  return Option.Boolean('-o,--verbose', false, {
    description: `Add the element id, the model's data, the element's properties and actions to ${where}`,
  });
}

/** `-u,--unvisited`: GraphWalker's unvisited step members. */
export function unvisitedOption(where: string) {
  return Option.Boolean('-u,--unvisited', false, {
    description: `Add the number of elements of the model and those not visited yet to ${where}`,
  });
}

/** `--seed <n>`: a non-negative whole number. */
export function seedOption(description: string) {
  return valueOption('--seed <n>', { validator: t.cascade(t.isNumber(), [t.isInteger(), t.isAtLeast(0)]), description });
}

/** `--plugin <package>`, repeatable. */
export function pluginsOption() {
  return listOption('--plugin <package>', {
    description: 'A plugin package name or path (resolved from the current directory) that adds generators, conditions, script engines or model formats; repeat for more',
  });
}

/** `--log-level <level>`, checked against {@link LOG_LEVELS}. */
export function logLevelOption(fallback: LogLevel) {
  return valueOption<LogLevel>(
    '--log-level <level>',
    {
      validator: t.isEnum(LOG_LEVELS),
      description: `How much to log on stderr, as JSON lines: ${LOG_LEVELS.join(', ')} (default ${fallback})`,
    },
    fallback,
  );
}

/** `--plan-states <n>`: how many states a plan that follows guards explores at most (docs/planning.md). */
export function planStatesOption() {
  return valueOption('--plan-states <n>', {
    validator: t.cascade(t.isNumber(), [t.isInteger(), t.isAtLeast(0)]),
    description: `States a plan that follows guards and actions explores at most; beyond, plans are made on the fly from where the walk stands; 0 never explores (default ${DEFAULT_PLAN_STATES.toLocaleString('en-US')})`,
  });
}

/** `--plan-time <ms>`: a safety stop for one exploration of a plan that follows guards (docs/planning.md, "The bound"). */
export function planTimeOption() {
  return valueOption('--plan-time <ms>', {
    validator: t.cascade(t.isNumber(), [t.isInteger(), t.isAtLeast(1)]),
    description: `Milliseconds after which a safety stop ends one exploration of a plan that follows guards and actions; plans are then made on the fly, and the walk may not replay from its seed (default ${DEFAULT_PLAN_TIME_MS})`,
  });
}

/**
 * `-b,--blocked <true|false>`, any case, as GraphWalker (and AltWalker, which always passes it) spells it:
 * `true` leaves out elements whose `blocked` property is true, `false` keeps them. Default true.
 */
export function blockedOption() {
  return valueOption<boolean>(
    '-b,--blocked <true|false>',
    {
      validator: isTrueOrFalse,
      description: 'false keeps the elements whose blocked property is true; true (the default) leaves them out',
    },
    'true',
  );
}

const isTrueOrFalse = t.makeValidator<unknown, boolean>({
  test: (value, state): value is boolean => {
    if (typeof value === 'boolean') return true;
    const word = typeof value === 'string' ? value.toLowerCase() : undefined;
    if ((word === 'true' || word === 'false') && state?.coercions !== undefined && state.coercion !== undefined) {
      state.coercions.push([state.p ?? '.', state.coercion.bind(null, word === 'true')]);
      return true;
    }
    state?.errors?.push(`${state.p ?? '.'}: expected true or false (any case), got '${String(value)}'`);
    return false;
  },
});
