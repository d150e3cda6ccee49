import { Builtins } from 'clipanion';
import { OfflineCommand } from './commands/offline.js';
import { CheckCommand } from './commands/check.js';
import { OnlineCommand } from './commands/online.js';
import { ConvertCommand } from './commands/convert.js';
import { MethodsCommand } from './commands/methods.js';
import { RequirementsCommand } from './commands/requirements.js';
import { SourceCommand } from './commands/source.js';
import { RunCommand } from './commands/run.js';
import { VerifyCommand } from './commands/verify.js';
import { GenerateCommand } from './commands/generate.js';
import { ExecutorCommand } from './commands/executor.js';
import { WalkerCommand } from './command.js';
import type { WalkerContext } from './context.js';
import { readGlobalOptions, withLogLevel, type GlobalOptions } from './global-options.js';
import { VERSION } from '../core/version.js';
import { WalkerCli } from './walker-cli.js';

/** The `walker` command line with every command registered. */
export function createCli(options: { colors?: boolean } = {}): WalkerCli {
  const cli = new WalkerCli({
    binaryName: 'walker',
    binaryLabel: 'walker',
    binaryVersion: VERSION,
    enableColors: options.colors ?? false,
  });
  cli.register(Builtins.HelpCommand);
  cli.register(OfflineCommand);
  cli.register(CheckCommand);
  cli.register(OnlineCommand);
  cli.register(ConvertCommand);
  cli.register(MethodsCommand);
  cli.register(RequirementsCommand);
  cli.register(SourceCommand);
  cli.register(RunCommand);
  cli.register(VerifyCommand);
  cli.register(GenerateCommand);
  cli.register(ExecutorCommand);
  return cli;
}

export { main, type Streams } from './main.js';

/**
 * Runs a command line whose context `main` made: reads the global options, then lets clipanion read the
 * command, and answers the exit code.
 */
export async function runCommandLine(argv: readonly string[], context: WalkerContext): Promise<number> {
  // Colours only for a terminal: help piped into a file or a test must not carry escape codes.
  const cli = createCli({ colors: (context.stdout as { isTTY?: boolean }).isTTY === true });
  let command;
  try {
    command = cli.process(commandArguments(cli, readGlobalOptions(argv)), context);
  } catch (error) {
    // Clipanion would print a parse error on stdout; it belongs on stderr, with the usage of the command.
    context.stderr.write(cli.error(error));
    return 1;
  }
  // `run` accepts a processed command as well as an argv array; its declared type only names the array.
  return cli.run(command as unknown as string[], context);
}

/** The arguments clipanion reads: the command and its options, with the log level `--debug` asked for. */
function commandArguments(cli: WalkerCli, globals: GlobalOptions): string[] {
  const commandClass = cli.commandFor(globals.rest);
  if (globals.debug === undefined || commandClass === undefined || !cli.hasOption(commandClass, '--log-level')) {
    return [...globals.rest];
  }
  const level = commandClass.prototype instanceof WalkerCommand
    ? (commandClass as unknown as typeof WalkerCommand).logLevelForDebug(globals.debug)
    : globals.debug;
  return withLogLevel(globals.rest, commandClass.paths?.[0]?.length ?? 1, level);
}
