import { Command, Option } from 'clipanion';
import * as t from 'typanion';
import { WalkerCommand } from '../command.js';
import { valueOption } from '../option.js';
import { ListenError } from '../../server/start.js';

/** `walker executor`: serves a test module over AltWalker's HTTP executor protocol (docs/runner.md). */
export class ExecutorCommand extends WalkerCommand {
  static override paths = [['executor']];

  static override usage = Command.Usage({
    description: "Serve a TypeScript or JavaScript test module over AltWalker's HTTP executor protocol",
    details: `
      Listens on \`--host\` and \`-p, --port\` (default 127.0.0.1:5000) and answers AltWalker's executor calls under
      \`/altwalker/\` (load, reset, hasModel, hasStep, executeStep) from the test module, so that AltWalker 0.4,
      run as \`altwalker online <tests> -m ... -x http --executor-url http://127.0.0.1:<port>\`, runs TypeScript
      tests, with GraphWalker or walker choosing the steps. Prints \`Listening on <url>\`; Ctrl-C or SIGTERM stops it.
    `,
    examples: [['Serve the example', '$0 executor examples/runner/shop.test.ts --port 5000']],
  });

  tests = Option.String({ name: 'tests' });
  port = valueOption('-p,--port <port>', { validator: t.cascade(t.isNumber(), [t.isInteger(), t.isInInclusiveRange(0, 65535)]), description: 'Port to listen on (default 5000; 0 picks a free one)' });
  host = valueOption('--host <host>', { description: 'Address to listen on (default 127.0.0.1)' });
  stepTimeout = valueOption('--step-timeout <ms>', { validator: t.cascade(t.isNumber(), [t.isInteger(), t.isAtLeast(1)]), description: 'Milliseconds a step may take to settle (default 60000)' });

  protected async perform(): Promise<number> {
    const { startExecutor } = await import('../../runner/executor.js');
    const { loadTestModule } = await import('../../runner/load-module.js');
    // A module that does not load is said now, not at AltWalker's first call.
    await loadTestModule(this.tests);
    let started;
    try {
      started = await startExecutor({ tests: this.tests, port: this.port, host: this.host, stepTimeoutMs: this.stepTimeout });
    } catch (error) {
      throw new ListenError(`Could not listen on ${this.host ?? '127.0.0.1'}:${this.port ?? 5000}: ${(error as Error).message}`, (error as NodeJS.ErrnoException).code);
    }
    this.context.stdout.write(`Listening on ${started.url}\n`);
    await new Promise<void>((resolve) => {
      process.once('SIGINT', resolve);
      process.once('SIGTERM', resolve);
    });
    await started.app.close();
    return 0;
  }
}
