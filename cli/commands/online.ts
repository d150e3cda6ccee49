import { Command, UsageError } from 'clipanion';
import { WalkerCommand } from '../command.js';
import * as t from 'typanion';
import type { ExecutionSession } from '../../core/session.js';
import { buildApp } from '../../server/app.js';
import { startServer } from '../../server/start.js';
import { readModelArguments, type ModelArguments } from '../models.js';
import { valueOption } from '../option.js';
import { loadPluginArguments } from '../services.js';
import { logLevelOption, modelsOption, pluginsOption, seedOption } from '../common-options.js';

const positiveInteger = () => t.cascade(t.isNumber(), [t.isInteger(), t.isAtLeast(1)]);

/** `walker online`: serves the REST execution and draft-authoring APIs until SIGINT or SIGTERM. */
export class OnlineCommand extends WalkerCommand {
  static override paths = [['online']];

  static override usage = Command.Usage({
    description: 'Serve the REST API: load models, step through them, author drafts',
    details: `
      Listens on 127.0.0.1 (\`--host\` to change) and prints \`Listening on http://<host>:<port>\` once it
      accepts requests; with \`-m\` it first prints \`Seed: <n>\`. Give that seed, or the one \`POST /walker/load\`
      answers, back with \`--seed\` to replay the identical path. Without \`-m\` the service waits for
      \`/walker/load\` and serves draft authoring. Stops cleanly on SIGINT (Control+C) or SIGTERM.

      Logs JSON lines on stderr: at \`info\` (the default) the address it listens on and that it stopped, at
      \`debug\` also one line per request, at \`error\` only unexpected failures.
    `,
    examples: [
      ['Serve on port 8887 with a model preloaded', '$0 online -s RESTFUL -p 8887 -m login.json "random(edge_coverage(100))"'],
      ['Serve on any free port, waiting for a load', '$0 online -s RESTFUL -p 0'],
      ['Replay a walk', '$0 online -s RESTFUL -p 8887 -m login.json "random(edge_coverage(100))" --seed 42'],
      ['Add a generator from a plugin package', '$0 online -s RESTFUL -p 8887 --plugin ./examples/plugins/round-robin'],
      ['Log every request', '$0 online -s RESTFUL -p 8887 --log-level debug'],
    ],
  });

  service = valueOption('-s,--service <type>', { required: true, description: 'The service type; RESTFUL is the one there is' });
  port = valueOption('-p,--port <port>', {
    required: true,
    validator: t.cascade(t.isNumber(), [t.isInteger(), t.isInInclusiveRange(0, 65535)]),
    description: 'The port to listen on; 0 picks a free one',
  });
  models = modelsOption({ required: false, description: 'A model file and its generator, loaded before the first request; repeat for more files' });
  seed = seedOption('Fixes the random seed of every load, to replay a walk');
  host = valueOption('--host <address>', { description: 'The address to listen on (default 127.0.0.1: this machine only)' }, '127.0.0.1');
  plugins = pluginsOption();
  logLevel = logLevelOption('info');
  maxModelBytes = valueOption('--max-model-bytes <bytes>', { validator: positiveInteger(), description: 'Largest load body (default 32 MiB)' });
  draftTtl = valueOption('--draft-ttl <seconds>', { validator: positiveInteger(), description: 'Seconds an untouched draft lives (default 3600)' });
  maxDrafts = valueOption('--max-drafts <n>', { validator: positiveInteger(), description: 'Live drafts at most (default 1000)' });
  maxDraftElements = valueOption('--max-draft-elements <n>', {
    validator: positiveInteger(),
    description: 'Vertices plus edges per draft at most (default 100000)',
  });

  protected async perform(): Promise<number> {
    if (this.service.toUpperCase() !== 'RESTFUL') throw new UsageError(`-s,--service must be RESTFUL, got '${this.service}'`);
    const plugins = await loadPluginArguments(this.plugins);
    const app = await buildApp({
      plugins,
      seed: this.seed,
      logger: { level: this.logLevel, stream: this.context.stderr },
      maxModelBytes: this.maxModelBytes,
      drafts: { ttlSeconds: this.draftTtl, maxDrafts: this.maxDrafts, maxElements: this.maxDraftElements },
    });
    let seed: number | undefined;
    try {
      // Read with the app's formats, so that a --plugin's format reads -m files too.
      const models = this.models.length > 0 ? await readModelArguments(this.models, app.services.registries.formats) : undefined;
      if (models !== undefined) seed = preload(app.services.session, models);
    } catch (error) {
      await app.close();
      throw error;
    }
    const server = await startServer(app, { port: this.port, host: this.host });
    if (seed !== undefined) this.context.stdout.write(`Seed: ${seed}\n`);
    this.context.stdout.write(`Listening on ${server.url}\n`);
    await server.closed;
    return 0;
  }
}

/** Loads the `-m` models into the session; the generator given with each `-m` replaces its file's. */
function preload(session: ExecutionSession, models: ModelArguments): number {
  return session.open(models.loaded, { generators: models.generators }).seed;
}
