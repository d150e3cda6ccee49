import { UsageError } from 'clipanion';
import type { LogLevel } from './logger.js';

/**
 * GraphWalker's `--debug` levels and the `--log-level` each stands for. GraphWalker has no `fatal`, and its
 * `ALL` says no more than `TRACE` does here.
 */
const DEBUG_LEVELS: ReadonlyMap<string, LogLevel> = new Map([
  ['OFF', 'silent'],
  ['ERROR', 'error'],
  ['WARN', 'warn'],
  ['INFO', 'info'],
  ['DEBUG', 'debug'],
  ['TRACE', 'trace'],
  ['ALL', 'trace'],
]);

/** The help's paragraph on the options before the command, which clipanion's general help cannot list. */
export function globalOptionsHelp(): string {
  const levels = [...DEBUG_LEVELS.keys()];
  return (
    '\nOptions before the command\n\n' +
    `  -d,--debug <level>  How much to log, as GraphWalker names it: ${levels.slice(0, -1).join(', ')} or ${levels[levels.length - 1]} (any case);\n` +
    '                      the same as --log-level after the command, at most error for a command whose stderr is for failures\n' +
    '  -v,--version        Print the version: walker version: <version>\n'
  );
}

/** What stands before the command: `walker [--debug <level>] [--version] <command> ...`. */
export interface GlobalOptions {
  /** The `--log-level` that `--debug` asks for, when it was given. */
  readonly debug?: LogLevel;
  /** `--version` or `-v` was given. */
  readonly version: boolean;
  /** The command and everything after it, untouched. */
  readonly rest: readonly string[];
}

/** A global option that is wrong; the message starts with GraphWalker's words, which are kept as they are. */
export class GlobalOptionError extends UsageError {}

/**
 * Reads the options GraphWalker's command line takes before the command, which clipanion cannot declare (it
 * knows options of commands only). Reading stops at the first argument that is none of them, so `-d` after
 * the command keeps whatever meaning that command gives it.
 */
export function readGlobalOptions(argv: readonly string[]): GlobalOptions {
  let debug: LogLevel | undefined;
  let version = false;
  let i = 0;
  for (; i < argv.length; i++) {
    const arg = argv[i];
    if (arg === '--version' || arg === '-v') {
      version = true;
    } else if (arg === '--debug' || arg === '-d') {
      debug = debugLevel(argv[i + 1]);
      i++;
    } else if (arg.startsWith('--debug=')) {
      debug = debugLevel(arg.slice('--debug='.length));
    } else {
      break;
    }
  }
  return { debug, version, rest: argv.slice(i) };
}

/**
 * The arguments with `--log-level <level>` put right after the command's name, so that the command logs as
 * `--debug` asked; an explicit `--log-level` after the command wins and the arguments stay as they are.
 */
export function withLogLevel(rest: readonly string[], commandWords: number, level: LogLevel): string[] {
  const explicit = rest.some((arg) => arg === '--log-level' || arg.startsWith('--log-level='));
  if (explicit) return [...rest];
  return [...rest.slice(0, commandWords), '--log-level', level, ...rest.slice(commandWords)];
}

function debugLevel(value: string | undefined): LogLevel {
  const level = value === undefined ? undefined : DEBUG_LEVELS.get(value.toUpperCase());
  if (level !== undefined) return level;
  const given = value === undefined ? 'no value' : `'${value}'`;
  throw new GlobalOptionError(
    `Incorrect argument to --debug: ${given}; expected one of ${[...DEBUG_LEVELS.keys()].join(', ')} (any case)`,
  );
}
