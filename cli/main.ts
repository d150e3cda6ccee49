import { VERSION } from '../core/version.js';
import type { WalkerContext } from './context.js';
import { readGlobalOptions } from './global-options.js';

/** Streams a run writes to; the process's own by default, captured ones in tests. */
export interface Streams {
  readonly stdin?: NodeJS.ReadableStream;
  readonly stdout?: NodeJS.WritableStream;
  readonly stderr?: NodeJS.WritableStream;
}

/**
 * Runs the command line and returns the exit code. A user mistake (bad option, bad model, bad generator)
 * prints one clear message on stderr — and the usage, for option mistakes — never a stack trace.
 *
 * `walker --version` is answered before the commands are even imported: clients probe the executable with it
 * under a deadline (AltWalker gives it one second, then falls back to GraphWalker's jar).
 */
export async function main(argv: readonly string[], streams: Streams = {}): Promise<number> {
  const context: WalkerContext = {
    stdin: (streams.stdin ?? process.stdin) as WalkerContext['stdin'],
    stdout: (streams.stdout ?? process.stdout) as WalkerContext['stdout'],
    stderr: (streams.stderr ?? process.stderr) as WalkerContext['stderr'],
    colorDepth: 1,
    env: process.env,
    argv,
  };
  // A reader that has gone (`walker check ... | head`, `2>&1 | head`) cannot be told anything more, and is no
  // reason to fail: the command's own exit code stands. The listeners stay for writes still under way at exit.
  for (const stream of [context.stdout, context.stderr]) stream.on('error', ignoreClosedPipe);
  if (asksForVersion(argv)) {
    // `<name> version: <version>`, as GraphWalker words it: AltWalker reads the version after the last colon.
    context.stdout.write(`walker version: ${VERSION}\n`);
    return 0;
  }
  const { runCommandLine } = await import('./index.js');
  return runCommandLine(argv, context);
}

/** `--version` or `-v` before the command; a mistake in the global options is left for the command line to explain. */
function asksForVersion(argv: readonly string[]): boolean {
  try {
    return readGlobalOptions(argv).version;
  } catch {
    return false;
  }
}

function ignoreClosedPipe(error: NodeJS.ErrnoException): void {
  if (error.code !== 'EPIPE') throw error;
}
