import { Command, UsageError } from 'clipanion';
import * as t from 'typanion';
import type { HostedSession } from '../../server/sessions/hosted-session.js';
import type { BuildAppOptions } from '../../server/app.js';
import { parseOrigin } from '../../server/origins.js';
import { WalkerCommand } from '../command.js';
import type { LogLevel } from '../logger.js';
import { readModelArguments, type ModelArguments } from '../models.js';
import { listOption, valueOption } from '../option.js';
import { loadPluginArguments } from '../services.js';
import { isSize } from '../sizes.js';
import { realClockOption, scriptBudgetOption, scriptMemoryOption, scriptTimeoutOption } from '../script-options.js';
import { walkSettingsOf } from '../walk-settings-options.js';
import {
  blockedOption,
  planStatesOption,
  planTimeOption,
  logLevelOption,
  modelsOption,
  pluginsOption,
  seedOption,
  startElementOption,
  unvisitedOption,
  verboseOption,
} from '../common-options.js';

const positiveInteger = () => t.cascade(t.isNumber(), [t.isInteger(), t.isAtLeast(1)]);

/** The services `-s` names, as GraphWalker does; walker serves both on the one port whichever is named. */
const SERVICES = ['RESTFUL', 'WEBSOCKET'];

/**
 * `walker online`: serves the REST execution and draft-authoring APIs, and GraphWalker's WebSocket service,
 * until SIGINT or SIGTERM.
 */
export class OnlineCommand extends WalkerCommand {
  static override paths = [['online']];

  static override usage = Command.Usage({
    description: "Serve the REST API and GraphWalker's WebSocket service: load models, step through them, author drafts",
    details: `
      Listens on 127.0.0.1 (\`--host\` to change) and prints \`Listening on http://<host>:<port>\`, then
      \`[HttpServer] Started\` (the line GraphWalker clients such as AltWalker wait for) once it accepts
      requests; with \`-m\` it first prints \`Seed: <n>\`. Give that seed, or the one a load answers, back with
      \`--seed\` to replay the identical path. Without \`-m\` the service waits for a load and serves draft
      authoring. GraphWalker's REST dialect is served under \`/graphwalker\`, walker's own under \`/walker\`,
      and GraphWalker's WebSocket service at \`ws://<host>:<port>/\`, all on the one port: \`-s RESTFUL\`,
      \`-s WEBSOCKET\` and no \`-s\` serve the same.
      Stops cleanly on SIGINT (Control+C) or SIGTERM.

      Logs JSON lines on stderr: at \`info\` (the default) the address it listens on and that it stopped, at
      \`debug\` also one line per request, at \`error\` only unexpected failures. A failure to start is
      preceded by GraphWalker's line \`An error occurred when running command: '<arguments>'.\`
    `,
    examples: [
      ['Serve on port 8887 with a model preloaded', '$0 online -s RESTFUL -p 8887 -m login.json "random(edge_coverage(100))"'],
      ['As AltWalker starts it', '$0 online --model login.json "random(edge_coverage(100))" --port 8887 --service RESTFUL --verbose --blocked False'],
      ['Serve on any free port, waiting for a load', '$0 online -s RESTFUL -p 0'],
      ["As GraphWalker's WebSocket clients expect it", '$0 online -s WEBSOCKET -p 8887'],
      ['Replay a walk', '$0 online -s RESTFUL -p 8887 -m login.json "random(edge_coverage(100))" --seed 42'],
      ['Add a generator from a plugin package', '$0 online -s RESTFUL -p 8887 --plugin ./examples/plugins/round-robin'],
      ['Log every request', '$0 online -s RESTFUL -p 8887 --log-level debug'],
    ],
  });

  service = valueOption('-s,--service <type>', {
    description: 'RESTFUL or WEBSOCKET, as GraphWalker takes it; both are served on the one port either way (default: both)',
  });
  port = valueOption('-p,--port <port>', {
    required: true,
    validator: t.cascade(t.isNumber(), [t.isInteger(), t.isInInclusiveRange(0, 65535)]),
    description: 'The port to listen on; 0 picks a free one',
  });
  models = modelsOption({
    required: false,
    description: 'A model file and the generator of its first model, loaded before the first request; repeat for more files',
  });
  startElement = startElementOption();
  verbose = verboseOption('every getNext answer');
  unvisited = unvisitedOption('every getNext answer');
  blocked = blockedOption();
  planStates = planStatesOption();
  planTime = planTimeOption();
  seed = seedOption('Fixes the random seed of every load, to replay a walk');
  host = valueOption('--host <address>', { description: 'The address to listen on (default 127.0.0.1: this machine only)' }, '127.0.0.1');
  plugins = pluginsOption();
  logLevel = logLevelOption('info');
  allowOrigins = listOption('--allow-origin <origin>', {
    description: 'Serve the web pages of this origin (e.g. http://localhost:3000), with CORS headers; repeat for more',
  });
  allowHosts = listOption('--allow-host <host>', {
    description: 'Accept requests that name this host (with :port unless 80) in Host, e.g. a load balancer in front; repeat for more',
  });
  token = valueOption('--token <secret>', {
    description: 'Require Authorization: Bearer <secret> on every request (default: the WALKER_TOKEN environment variable, else none)',
  });
  scriptTimeout = scriptTimeoutOption();
  scriptBudget = scriptBudgetOption();
  scriptMemory = scriptMemoryOption();
  realClock = realClockOption();
  maxModelBytes = valueOption('--max-model-bytes <bytes>', { validator: positiveInteger(), description: 'Largest load body (default 32 MiB)' });
  draftTtl = valueOption('--draft-ttl <seconds>', { validator: positiveInteger(), description: 'Seconds an untouched draft lives (default 3600)' });
  maxDrafts = valueOption('--max-drafts <n>', { validator: positiveInteger(), description: 'Live drafts at most (default 1000)' });
  maxDraftElements = valueOption('--max-draft-elements <n>', {
    validator: positiveInteger(),
    description: 'Vertices plus edges per draft at most (default 100000)',
  });
  maxDraftMemory = valueOption('--max-draft-memory <size>', {
    validator: isSize(),
    description: 'Memory all drafts together may hold, in bytes or with KiB, MiB or GiB (default 512MiB)',
  });
  sessionTtl = valueOption('--session-ttl <seconds>', { validator: positiveInteger(), description: 'Seconds a session lives without a request (default 1800)' });
  maxSessions = valueOption('--max-sessions <n>', { validator: positiveInteger(), description: 'Live sessions at most (default 64)' });
  slowRequest = valueOption('--slow-request <ms>', {
    validator: t.cascade(t.isNumber(), [t.isInteger(), t.isAtLeast(0)]),
    description:
      'A session two of whose last eight requests each held the event loop this long by their own work moves to a thread of its own, ' +
      'and one whose scripts run five times this long (100 ms at least) in one request moves at once; 0: never (default 20)',
  });
  maxViewStreams = valueOption('--max-view-streams <n>', {
    validator: positiveInteger(),
    description: 'Event streams of the web view open at once, in all; more are refused with 503 (default 256)',
  });
  maxViewStreamsPerSession = valueOption('--max-view-streams-per-session <n>', {
    validator: positiveInteger(),
    description: 'Event streams of the web view open at once on one session or draft (default 32)',
  });
  viewStreamTimeout = valueOption('--view-stream-timeout <ms>', {
    validator: positiveInteger(),
    description: 'An event stream whose reader takes nothing of what was sent for this long is closed (default 30000)',
  });
  conversionTimeout = valueOption('--conversion-timeout <ms>', {
    validator: positiveInteger(),
    description: 'A large model conversion still running in the conversion thread after this long is stopped (default 60000)',
  });
  conversionMemory = valueOption('--conversion-memory <MiB>', {
    validator: positiveInteger(),
    description: "The conversion thread's JavaScript heap; a conversion that needs more is stopped (default 1024)",
  });
  nodeId = valueOption('--node-id <name>', { description: "This process's name behind a load balancer: session and draft ids start with it (default none)" });

  /** The console's stderr is the service's log: `--debug` sets its level as it is. */
  static override logLevelForDebug(level: LogLevel): LogLevel {
    return level;
  }

  protected async perform(): Promise<number> {
    const options = this.appOptions();
    // The server and its plugins are imported only now: `walker --version` and `--help` must stay quick.
    const [{ buildApp, resolveAppOptions }, { startServer }] = await Promise.all([import('../../server/app.js'), import('../../server/start.js')]);
    // The app's own checks (a token with a space, ...) run before any model is read: a usage mistake, at once.
    try {
      resolveAppOptions(options);
    } catch (error) {
      if (error instanceof RangeError) throw new UsageError(error.message);
      throw error;
    }
    const plugins = await loadPluginArguments(this.plugins);
    // Where each plugin came from, so that a slow session's worker thread loads the same ones.
    const pluginSources = this.plugins.map((specifier) => ({ specifier, fromDirectory: process.cwd() }));
    const app = await buildApp({ ...options, plugins, pluginSources });
    let seed: number | undefined;
    try {
      // Read with the app's formats, so that a --plugin's format reads -m files too.
      const { formats } = app.services.registries;
      const models =
        this.models.length > 0
          ? await readModelArguments(this.models, { formats, blocked: app.services.options.walk.blocked, startElement: this.startElement })
          : undefined;
      if (models !== undefined) seed = await preload(app.services.session, models);
    } catch (error) {
      await app.close();
      throw error;
    }
    // Whatever the log level: a service open beyond this machine without a token is worth a line on stderr.
    const warn = (message: string): void => void this.context.stderr.write(`${message}\n`);
    const server = await startServer(app, { port: this.port, host: this.host, warn });
    if (seed !== undefined) this.context.stdout.write(`Seed: ${seed}\n`);
    this.context.stdout.write(`Listening on ${server.url}\n[HttpServer] Started\n`);
    await server.closed;
    return 0;
  }

  /** GraphWalker's line before the reason a start failed: AltWalker shows the line after it. */
  protected override describeFailure(message: string): string {
    const argv = this.context.argv;
    const line = argv === undefined ? '' : `An error occurred when running command: '${argv.join(' ')}'.\n`;
    return `${line}${message}\n`;
  }

  /** What the options ask of the app; option mistakes found only here are usage mistakes too. */
  private appOptions(): BuildAppOptions {
    if (this.service !== undefined && !SERVICES.includes(this.service.toUpperCase())) {
      throw new UsageError(`-s,--service must be RESTFUL or WEBSOCKET, got '${this.service}'`);
    }
    if (this.startElement !== undefined && this.models.length === 0) {
      throw new UsageError('-e,--start-element names an element of the first -m model file: give -m <file> <generator> too');
    }
    return {
      ...walkSettingsOf(this),
      logger: { level: this.logLevel, stream: this.context.stderr },
      maxModelBytes: this.maxModelBytes,
      drafts: { ttlSeconds: this.draftTtl, maxDrafts: this.maxDrafts, maxElements: this.maxDraftElements, maxMemoryBytes: this.maxDraftMemory },
      sessions: { ttlSeconds: this.sessionTtl, maxSessions: this.maxSessions, slowRequestMs: this.slowRequest },
      view: { maxStreams: this.maxViewStreams, maxStreamsPerSource: this.maxViewStreamsPerSession, streamTimeoutMs: this.viewStreamTimeout },
      conversions: { timeLimitMs: this.conversionTimeout, memoryMiB: this.conversionMemory },
      nodeId: this.nodeId,
      allowOrigins: this.allowOrigins.map((origin) => checkedOrigin(origin)),
      allowHosts: this.allowHosts,
      token: this.tokenOption(),
      stepReport: { verbose: this.verbose, unvisited: this.unvisited },
    };
  }

  /** `--token`, else `WALKER_TOKEN`; an empty variable is a mistake, not "no token". */
  private tokenOption(): string | undefined {
    if (this.token !== undefined) return this.token;
    const fromEnv = this.context.env.WALKER_TOKEN;
    if (fromEnv === '') throw new UsageError('WALKER_TOKEN is set but empty: set it to the token clients must send, or unset it');
    return fromEnv;
  }
}

/** An `--allow-origin` value, checked as the server reads it, the mistake named by the option. */
function checkedOrigin(origin: string): string {
  try {
    return parseOrigin(origin);
  } catch (error) {
    if (error instanceof RangeError) throw new UsageError(`--allow-origin ${error.message.replace(/^allowOrigins: /, '')}`);
    throw error;
  }
}

/** Loads the `-m` models into the session; the generator given with each `-m` replaces that of its file's first model. */
async function preload(session: HostedSession, models: ModelArguments): Promise<number> {
  return (await session.preload(models.loaded, { generators: models.generators })).seed;
}
