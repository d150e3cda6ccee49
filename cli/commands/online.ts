import { Command, Option, UsageError } from 'clipanion';
import { WalkerCommand } from '../command.js';
import * as t from 'typanion';
import type { ExecutionSession } from '../../core/session.js';
import { buildApp } from '../../server/app.js';
import { startServer } from '../../server/start.js';
import { readModelArguments, type ModelArguments } from '../models.js';
import { loadPluginArguments } from '../services.js';

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
    `,
    examples: [
      ['Serve on port 8887 with a model preloaded', '$0 online -s RESTFUL -p 8887 -m login.json "random(edge_coverage(100))"'],
      ['Serve on any free port, waiting for a load', '$0 online -s RESTFUL -p 0'],
      ['Replay a walk', '$0 online -s RESTFUL -p 8887 -m login.json "random(edge_coverage(100))" --seed 42'],
      ['Add a generator from a plugin package', '$0 online -s RESTFUL -p 8887 --plugin ./examples/plugins/round-robin'],
    ],
  });

  service = Option.String('-s,--service', { required: true, description: 'The service type: RESTFUL' });
  port = Option.String('-p,--port', {
    required: true,
    validator: t.cascade(t.isNumber(), [t.isInteger(), t.isInInclusiveRange(0, 65535)]),
    description: 'The port to listen on; 0 picks a free one',
  });
  models = Option.Array('-m,--model', [], { arity: 2, description: 'A model file and its generator, preloaded' });
  seed = Option.String('--seed', {
    validator: t.cascade(t.isNumber(), [t.isInteger(), t.isAtLeast(0)]),
    description: 'Fixes the random seed of every load',
  });
  host = Option.String('--host', '127.0.0.1', { description: 'The address to listen on' });
  plugins = Option.Array('--plugin', [], { description: 'A plugin package or path to load' });
  maxModelBytes = Option.String('--max-model-bytes', { validator: positiveInteger(), description: 'Largest load body (default 32 MiB)' });
  draftTtl = Option.String('--draft-ttl', { validator: positiveInteger(), description: 'Seconds an untouched draft lives (default 3600)' });
  maxDrafts = Option.String('--max-drafts', { validator: positiveInteger(), description: 'Live drafts at most (default 1000)' });
  maxDraftElements = Option.String('--max-draft-elements', {
    validator: positiveInteger(),
    description: 'Vertices plus edges per draft at most (default 100000)',
  });

  protected async perform(): Promise<number> {
    if (this.service.toUpperCase() !== 'RESTFUL') throw new UsageError('--service expected RESTFUL');
    const plugins = await loadPluginArguments(this.plugins);
    const models = this.models.length > 0 ? await readModelArguments(this.models) : undefined;
    const app = await buildApp({
      plugins,
      seed: this.seed,
      logger: { level: 'error', stream: this.context.stderr },
      maxModelBytes: this.maxModelBytes,
      drafts: { ttlSeconds: this.draftTtl, maxDrafts: this.maxDrafts, maxElements: this.maxDraftElements },
    });
    let seed: number | undefined;
    try {
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
