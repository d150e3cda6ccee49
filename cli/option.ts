import { Option } from 'clipanion';
import type { StrictValidator } from 'typanion';

/**
 * What walker keeps of an option beyond what clipanion does: clipanion 3 prints a value as `#0` and cannot
 * name it, and it answers a missing required option with "Command not found". The command line
 * (`cli/walker-cli.ts`) reads these specs to print `-m,--model <file> <generator>` and to name what is missing.
 */
export interface OptionSpec {
  /** The option's names as clipanion prints them, e.g. `-m,--model`. */
  readonly names: string;
  /** One placeholder per value the option takes, e.g. `['<file>', '<generator>']`. */
  readonly placeholders: readonly string[];
  readonly required: boolean;
}

/** What every option with a value is declared with. */
export interface ValueFlags<T> {
  /** What the option means, for `--help`; say the default here when there is one. */
  readonly description: string;
  readonly validator?: StrictValidator<unknown, T>;
  readonly required?: boolean;
}

const SPEC = Symbol('walker.optionSpec');

/** The placeholders of a usage string: `'-m <file> <generator>'` gives `[string, string]`. */
type Placeholders<S extends string> = S extends `${string}<${string}>${infer Rest}` ? [string, ...Placeholders<Rest>] : [];
/** What one occurrence of an option holds: a string for one placeholder, a tuple for several. */
type Occurrence<S extends string> = Placeholders<S> extends [string] ? string : Placeholders<S>;

/**
 * An option that takes one value, declared with its usage: `valueOption('--seed <n>', {...})`. Clipanion is
 * told the option is optional either way, so that walker, not clipanion, reports a missing one.
 */
export function valueOption<T extends NonNullable<unknown> = string>(usage: string, flags: ValueFlags<T> & { required: true }): T;
export function valueOption<T extends NonNullable<unknown> = string>(usage: string, flags: ValueFlags<T>, fallback: string): T;
export function valueOption<T extends NonNullable<unknown> = string>(usage: string, flags: ValueFlags<T>): T | undefined;
export function valueOption<T extends NonNullable<unknown>>(usage: string, flags: ValueFlags<T>, fallback?: string): T | undefined {
  const spec = parseUsage(usage, flags.required === true);
  if (spec.placeholders.length !== 1) throw new Error(`valueOption '${usage}' must name exactly one value`);
  const options = { description: flags.description, validator: flags.validator };
  const declaration = fallback === undefined ? Option.String(spec.names, options) : Option.String(spec.names, fallback, options);
  return withSpec(declaration, spec) as T | undefined;
}

/**
 * An option that may be given several times, each time with the values its usage names:
 * `listOption('-m,--model <file> <generator>', {...})` holds `[file, generator]` pairs, `[]` when absent.
 */
export function listOption<S extends string>(usage: S, flags: Omit<ValueFlags<never>, 'validator'>): Occurrence<S>[] {
  const spec = parseUsage(usage, flags.required === true);
  const declaration = Option.Array(spec.names, [], { arity: spec.placeholders.length, description: flags.description });
  return withSpec(declaration, spec) as Occurrence<S>[];
}

/** The spec of an option declaration made here, or undefined for any other field of a command. */
export function optionSpecOf(declaration: unknown): OptionSpec | undefined {
  if (typeof declaration !== 'object' || declaration === null) return undefined;
  return (declaration as { [SPEC]?: OptionSpec })[SPEC];
}

/** True when a required option was not given: clipanion leaves it undefined, or an empty list. */
export function isAbsent(value: unknown): boolean {
  return value === undefined || (Array.isArray(value) && value.length === 0);
}

function parseUsage(usage: string, required: boolean): OptionSpec {
  const match = /^(-\S+)((?:\s+<[^<>\s]+>)+)$/.exec(usage);
  if (match === null) throw new Error(`option usage '${usage}' must read like '-m,--model <file> <generator>'`);
  return { names: match[1], placeholders: match[2].trim().split(/\s+/), required };
}

function withSpec(declaration: unknown, spec: OptionSpec): unknown {
  // Clipanion reads only its own members of the declaration; the spec rides along, out of its way.
  Object.defineProperty(declaration, SPEC, { value: spec });
  return declaration;
}
