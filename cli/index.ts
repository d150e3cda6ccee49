import { Builtins, type Cli } from 'clipanion';
import { OfflineCommand } from './commands/offline.js';
import { CheckCommand } from './commands/check.js';
import { OnlineCommand } from './commands/online.js';
import { ConvertCommand } from './commands/convert.js';
import type { WalkerContext } from './context.js';
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
  cli.register(Builtins.VersionCommand);
  cli.register(OfflineCommand);
  cli.register(CheckCommand);
  cli.register(OnlineCommand);
  cli.register(ConvertCommand);
  return cli;
}

/** Streams a run writes to; the process's own by default, captured ones in tests. */
export interface Streams {
  readonly stdin?: NodeJS.ReadableStream;
  readonly stdout?: NodeJS.WritableStream;
  readonly stderr?: NodeJS.WritableStream;
}

/**
 * Runs the command line and returns the exit code. A user mistake (bad option, bad model, bad generator)
 * prints one clear message on stderr — and the usage, for option mistakes — never a stack trace.
 */
export async function main(argv: readonly string[], streams: Streams = {}): Promise<number> {
  const stdout = streams.stdout ?? process.stdout;
  // Colours only for a terminal: help piped into a file or a test must not carry escape codes.
  const cli = createCli({ colors: (stdout as { isTTY?: boolean }).isTTY === true });
  const context: WalkerContext = {
    stdin: (streams.stdin ?? process.stdin) as WalkerContext['stdin'],
    stdout: stdout as WalkerContext['stdout'],
    stderr: (streams.stderr ?? process.stderr) as WalkerContext['stderr'],
    colorDepth: 1,
    env: process.env,
  };
  // A reader that has gone (`walker check ... | head`, `2>&1 | head`) cannot be told anything more, and is no
  // reason to fail: the command's own exit code stands. The listeners stay for writes still under way at exit.
  for (const stream of [context.stdout, context.stderr]) stream.on('error', ignoreClosedPipe);
  let command;
  try {
    command = cli.process([...argv], context);
  } catch (error) {
    // Clipanion would print a parse error on stdout; it belongs on stderr, with the usage of the command.
    context.stderr.write(cli.error(error));
    return 1;
  }
  // `run` accepts a processed command as well as an argv array; its declared type only names the array.
  return cli.run(command as unknown as string[], context);
}

function ignoreClosedPipe(error: NodeJS.ErrnoException): void {
  if (error.code !== 'EPIPE') throw error;
}
