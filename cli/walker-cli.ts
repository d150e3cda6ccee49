import { Cli, UsageError, type BaseContext, type Command, type CommandClass } from 'clipanion';
import { isAbsent, optionSpecOf, type OptionSpec } from './option.js';
import { describeOption, listed, lowerFirst, withPlaceholders } from './usage-text.js';
import type { WalkerContext } from './context.js';
import { GlobalOptionError, globalOptionsHelp } from './global-options.js';

/** A mistake in the arguments, with the command it was made on (undefined: no command was recognised). */
export class ArgumentError extends UsageError {
  constructor(
    message: string,
    readonly commandClass: CommandClass<WalkerContext> | undefined,
  ) {
    super(message);
  }
}

/** What clipanion throws when no command's syntax fits the arguments (its class is not exported). */
interface UnknownSyntax {
  readonly name: 'UnknownSyntaxError';
  readonly candidates: readonly { readonly usage: string; readonly reason: string | null }[];
}

type Usage = { usage: string; options: { definition: string; description: string; required: boolean }[] };

/**
 * Clipanion's command line, taught to read: help and errors name an option's values (`<file> <generator>`,
 * not `#0 #1`), a missing required option is named, and every argument mistake is answered with
 * `walker <command>: <what is wrong>` and the usage of that command.
 */
export class WalkerCli extends Cli<WalkerContext> {
  private readonly specs = new Map<CommandClass<WalkerContext>, readonly (OptionSpec & { key: string })[]>();

  override register(commandClass: CommandClass<WalkerContext>): void {
    super.register(commandClass);
    const instance = new commandClass() as unknown as Record<string, unknown>;
    const specs = Object.keys(instance).flatMap((key) => {
      const spec = optionSpecOf(instance[key]);
      return spec === undefined ? [] : [{ ...spec, key }];
    });
    this.specs.set(commandClass, specs);
  }

  override process(input: string[], context?: Partial<WalkerContext> | void): Command<WalkerContext> {
    let command: Command<WalkerContext>;
    try {
      command = super.process(input, context as WalkerContext);
    } catch (error) {
      throw this.explain(error, input);
    }
    const commandClass = command.constructor as CommandClass<WalkerContext>;
    const missing = (this.specs.get(commandClass) ?? []).filter(
      (spec) => spec.required && isAbsent((command as unknown as Record<string, unknown>)[spec.key]),
    );
    if (missing.length > 0) {
      const noun = missing.length === 1 ? 'option' : 'options';
      throw new ArgumentError(`missing required ${noun} ${listed(missing.map(describeOption))}`, commandClass);
    }
    return command;
  }

  /** The general help names the options that stand before the command too. */
  override usage(command: CommandClass<WalkerContext> | Command<WalkerContext> | null = null, opts?: { colored?: boolean; detailed?: boolean; prefix?: string }): string {
    const text = super.usage(command, opts);
    return command === null ? `${text}${globalOptionsHelp()}` : text;
  }

  /** A usage mistake in one line after `walker <command>: `, then the usage; anything else as clipanion says it. */
  override error(error: unknown, opts: { colored?: boolean; command?: Command<BaseContext> | null } = {}): string {
    if (!(error instanceof UsageError)) return super.error(error, opts);
    const commandClass = opts.command
      ? (opts.command.constructor as CommandClass<WalkerContext>)
      : error instanceof ArgumentError
        ? error.commandClass
        : undefined;
    const name = [this.binaryName, ...(commandClass?.paths?.[0] ?? [])].join(' ');
    const usages = commandClass ? [this.usage(commandClass, opts)] : this.documented().map((c) => this.usage(c, opts));
    const message = error instanceof GlobalOptionError ? error.message : lowerFirst(error.message);
    return `${name}: ${message}\n\n${usages.join('')}\nRun \`${name} --help\` for details.\n`;
  }

  protected override getUsageByIndex(n: number, opts?: { detailed?: boolean; inlineOptions?: boolean }): Usage {
    const usage = super.getUsageByIndex(n, opts);
    const commandClass = [...this.registrations].find(([, record]) => record.index === n)?.[0];
    const specs = commandClass === undefined ? [] : (this.specs.get(commandClass) ?? []);
    return {
      usage: withPlaceholders(usage.usage, specs),
      options: usage.options.map((option) => {
        const definition = withPlaceholders(option.definition, specs);
        const required = specs.some((spec) => spec.required && describeOption(spec) === definition);
        return { ...option, definition, required, description: required ? `${option.description} (required)` : option.description };
      }),
    };
  }

  /** Turns clipanion's parse errors into an {@link ArgumentError} that names the command it concerns. */
  private explain(error: unknown, input: readonly string[]): unknown {
    const commandClass = this.commandFor(input);
    if (error instanceof UsageError) return new ArgumentError(error.message, commandClass);
    if ((error as UnknownSyntax)?.name !== 'UnknownSyntaxError') return error;
    const reasons = new Set((error as UnknownSyntax).candidates.map((c) => c.reason));
    const [reason] = reasons;
    if (reasons.size === 1 && reason !== null && reason !== undefined) {
      return new ArgumentError(this.reworded(reason, commandClass), commandClass);
    }
    if (commandClass !== undefined) {
      return new ArgumentError(`the arguments do not fit the usage: ${input.slice(1).join(' ')}`, commandClass);
    }
    return new ArgumentError(input.length === 0 ? 'which command?' : `unknown command '${input[0]}'`, undefined);
  }

  /**
   * Clipanion's "Not enough arguments to option -m." says what the option takes instead, and an unknown option
   * that GraphWalker's command takes says what walker calls it.
   */
  private reworded(reason: string, commandClass: CommandClass<WalkerContext> | undefined): string {
    const unknown = /^Unsupported option name \("(\S+)"\)\.$/.exec(reason)?.[1];
    const spellings = (commandClass as { graphWalkerSpellings?: Readonly<Record<string, string>> } | undefined)?.graphWalkerSpellings;
    if (unknown !== undefined && spellings !== undefined && Object.hasOwn(spellings, unknown)) return spellings[unknown];
    const name = /^Not enough arguments to option (\S+)\.$/.exec(reason)?.[1];
    const spec = (commandClass ? this.specs.get(commandClass) : undefined)?.find((s) => s.names.split(',').includes(name ?? ''));
    return spec === undefined ? reason : `option ${spec.names} needs ${spec.placeholders.join(' ')}`;
  }

  /** The registered command whose path starts the arguments. */
  commandFor(input: readonly string[]): CommandClass<WalkerContext> | undefined {
    return this.documented().find((c) => c.paths?.some((path) => path.every((word, i) => input[i] === word)));
  }

  /** True when the command declares the option, e.g. `--log-level`. */
  hasOption(commandClass: CommandClass<WalkerContext>, name: string): boolean {
    return (this.specs.get(commandClass) ?? []).some((spec) => spec.names.split(',').includes(name));
  }

  /** The commands with a usage (the help and version built-ins have none). */
  private documented(): CommandClass<WalkerContext>[] {
    return [...this.registrations.keys()].filter((c) => c.usage !== undefined);
  }
}
