import { Command, UsageError } from 'clipanion';
import { WalkerError } from '../core/errors.js';
import { ListenError } from '../server/start.js';
import type { WalkerContext } from './context.js';
import { OutputError } from './line-output.js';
import { RunnerError } from '../runner/errors.js';
import { LOG_LEVELS, type LogLevel } from './logger.js';

/**
 * The base of every walker command. Clipanion prints what `execute` throws on stdout, with a stack trace; a
 * walker command instead answers a user mistake with one line on stderr (and the usage, for option mistakes)
 * and an exit code, and shows a stack only for a bug.
 */
export abstract class WalkerCommand extends Command<WalkerContext> {
  /**
   * The `--log-level` a command runs at when `--debug <level>` stands before it. By default no more than
   * `error`: the command's stderr is for failures, since GraphWalker's clients (AltWalker passes `--debug
   * TRACE`) read any text there as one. A command whose stderr is a log, as `online`'s is, takes the level as
   * it is.
   */
  static logLevelForDebug(level: LogLevel): LogLevel {
    return LOG_LEVELS.indexOf(level) > LOG_LEVELS.indexOf('error') ? 'error' : level;
  }

  /**
   * Options GraphWalker's command of the same name takes that walker spells otherwise, each with what to write
   * instead: the usage mistake then says so rather than only that the option is unknown.
   */
  static readonly graphWalkerSpellings: Readonly<Record<string, string>> = {
    '--debug': '--debug <level> stands before the command, as in GraphWalker: walker --debug <level> <command> ...',
    '-d': '-d <level> (--debug) stands before the command, as in GraphWalker: walker -d <level> <command> ...',
  };

  /** The command's work; its return value is the exit code. */
  protected abstract perform(): Promise<number>;

  /** What stderr gets for a failure the user can fix (exit 2): the message, on a line of its own. */
  protected describeFailure(message: string): string {
    return `${message}\n`;
  }

  async execute(): Promise<number> {
    try {
      return await this.perform();
    } catch (error) {
      return this.report(error);
    }
  }

  /**
   * Exit codes: 1 for a usage mistake, 2 for a model, generator, plugin, port or output the user can fix, 3 for
   * a bug (docs/cli.md).
   */
  private report(error: unknown): number {
    const stderr = this.context.stderr;
    if (error instanceof UsageError) {
      stderr.write(this.cli.error(error, { command: this }));
      return 1;
    }
    if (error instanceof WalkerError || error instanceof ListenError || error instanceof OutputError || error instanceof RunnerError) {
      stderr.write(this.describeFailure(failureMessage(error)));
      return 2;
    }
    const name = (this.constructor as typeof Command).paths?.[0]?.join(' ') ?? '';
    stderr.write(`An unexpected error occurred in 'walker ${name}':\n${String((error as Error)?.stack ?? error)}\n`);
    return 3;
  }
}

/**
 * A failure's message; a port that is taken leads with the words of GraphWalker's failure (Java's), which
 * GraphWalker's clients look for.
 */
function failureMessage(error: Error): string {
  if (!(error instanceof ListenError) || error.code !== 'EADDRINUSE') return error.message;
  return `Address already in use: ${error.message}; stop what listens there, or choose another port with -p (0 picks a free one)`;
}
