import { createRegistries, installPlugins, type Registries, type WalkerPlugin } from '../core/plugin.js';
import type { SessionDefaults } from '../core/session.js';
import { Walker } from '../core/walker.js';
import { builtinPlugins } from '../plugins/index.js';
import {
  APP_OPTIONS,
  container,
  CONVERSIONS,
  DRAFT_STORE,
  EXECUTION_SESSION,
  instanceCachingFactory,
  SESSION_STORE,
  PLUGINS,
  REGISTRIES,
  WALKER,
  type DependencyContainer,
} from './di.js';
import { Conversions } from './conversion/conversions.js';
import { DraftStore } from './drafts/store.js';
import type { AppOptions } from './options.js';
import type { ApiError } from './api-error.js';
import { serviceClosingError } from './closing.js';
import { withSetupDeadline } from './plugin-deadline.js';
import { idMaker } from './node-id.js';
import { HostedSession, type IsolationPolicy } from './sessions/hosted-session.js';
import { LoopOverruns } from './sessions/loop-overruns.js';
import { SessionActivity } from './sessions/walk-pace.js';
import { LoopTurns } from './sessions/loop-turns.js';
import { SessionStore } from './sessions/store.js';
import type { PluginSource } from './sessions/worker-protocol.js';

/** Where what the services have to say goes: the app's logger, once there is one. */
export type ServiceNotes = (level: 'info' | 'warn', message: string) => void;

/**
 * What an app (or a command of the `walker` executable) works with, as the composition root built it. Route
 * families and commands get this typed view, never the container: what is made, and from what, is decided in
 * {@link compose} only.
 */
export interface Services {
  readonly options: AppOptions;
  readonly registries: Registries;
  readonly walker: Walker;
  /** The default session, of `/walker` and `/graphwalker`; made on first use, so an offline walk never makes one. */
  readonly session: HostedSession;
  /** The sessions of `/walker/sessions`; made on first use. */
  readonly sessions: SessionStore;
  /** Made on first use, like {@link session}. */
  readonly drafts: DraftStore;
  /** The conversions of model files for requests without a session; made on first use, like {@link session}. */
  readonly conversions: Conversions;
  /** Sends what the services have to say (a session moving to a thread, say) to `notes` from now on. */
  tellNotesTo(notes: ServiceNotes): void;
  /** True once {@link beginClosing} was called. */
  readonly closing: boolean;
  /**
   * Takes no more work, at once: every session answers the requests waiting in its queue, and any asked of it
   * later, with {@link serviceClosingError}'s 503 without running them, and a walk in a worker thread stops (its
   * request under way answers the same). A request already running in this thread finishes.
   */
  beginClosing(): void;
  /**
   * Frees every session's walk, every draft, and what the script engines hold for walks to come, and stops the
   * conversion thread (a conversion it holds answers 503).
   */
  dispose(): Promise<void>;
}

/**
 * The composition root: every registration of walker is here. Each call makes a child container of its own,
 * so two apps (or two CLI runs) in one process share nothing but code. The built-in plugins come first, then
 * `extraPlugins` in the order given; a name clash names both plugins, and a setup that does not settle within
 * `options.pluginSetupTimeoutMs` fails naming its plugin. `pluginSources` says where each of `extraPlugins`
 * came from, so that a worker thread can load them too; without it for every one, walks never leave the
 * event loop.
 */
export async function compose(
  options: AppOptions,
  extraPlugins: readonly WalkerPlugin[] = [],
  pluginSources: readonly PluginSource[] = [],
): Promise<Services> {
  const scope = container.createChildContainer();
  scope.register(APP_OPTIONS, { useValue: options });
  for (const plugin of [...builtinPlugins(), ...extraPlugins]) {
    scope.register(PLUGINS, { useValue: plugin });
  }
  const registries = createRegistries();
  const plugins = scope.resolveAll<WalkerPlugin>(PLUGINS);
  await installPlugins(registries, plugins.map((p) => withSetupDeadline(p, options.pluginSetupTimeoutMs)));
  scope.register(REGISTRIES, { useValue: registries });
  scope.register(WALKER, { useFactory: instanceCachingFactory((c) => new Walker(c.resolve(REGISTRIES))) });
  const notes = { to: (() => undefined) as ServiceNotes };
  const defaults: SessionDefaults = { ...options.walk, stepReport: options.stepReport };
  const isolation: IsolationPolicy | undefined =
    options.sessions.slowRequestMs > 0 && pluginSources.length === extraPlugins.length
      ? {
          slowRequestMs: options.sessions.slowRequestMs,
          slowRequests: 2,
          plugins: pluginSources,
          note: (level, message) => notes.to(level, message),
          overruns: new LoopOverruns((message) => notes.to('warn', message)),
          activity: new SessionActivity(),
        }
      : undefined;
  const now = options.now ?? Date.now;
  const newId = idMaker(options.nodeId);
  // Every session of the app runs its walk's work on the one event loop, so they share what paces it.
  const turns = new LoopTurns();
  scope.register(EXECUTION_SESSION, {
    useFactory: instanceCachingFactory((c) => new HostedSession('default', c.resolve(WALKER), defaults, isolation, now(), turns)),
  });
  scope.register(SESSION_STORE, {
    useFactory: instanceCachingFactory(
      (c) => new SessionStore({ walker: c.resolve(WALKER), defaults, limits: options.sessions, isolation, turns, newId, now }),
    ),
  });
  scope.register(DRAFT_STORE, {
    useFactory: instanceCachingFactory(() => new DraftStore({ limits: options.drafts, now: options.now, newDraftId: newId })),
  });
  // The conversion thread loads the user's plugins as a session's thread does, and is left out as it is.
  const conversionThread = pluginSources.length === extraPlugins.length ? { plugins: pluginSources } : undefined;
  scope.register(CONVERSIONS, {
    useFactory: instanceCachingFactory(() => new Conversions({ registries, thread: conversionThread, limits: options.conversions, note: (level, message) => notes.to(level, message) })),
  });
  return new ContainerServices(scope, options, registries, notes);
}

/** {@link Services} read from the container {@link compose} filled. */
class ContainerServices implements Services {
  /** What every session answers once the app began to close; undefined until then. */
  private refusal: ApiError<'service_unavailable'> | undefined;

  constructor(
    private readonly scope: DependencyContainer,
    readonly options: AppOptions,
    readonly registries: Registries,
    private readonly notes: { to: ServiceNotes },
  ) {}

  get walker(): Walker {
    return this.scope.resolve<Walker>(WALKER);
  }

  get session(): HostedSession {
    return this.scope.resolve<HostedSession>(EXECUTION_SESSION);
  }

  get sessions(): SessionStore {
    return this.scope.resolve<SessionStore>(SESSION_STORE);
  }

  tellNotesTo(notes: ServiceNotes): void {
    this.notes.to = notes;
  }

  get closing(): boolean {
    return this.refusal !== undefined;
  }

  beginClosing(): void {
    if (this.refusal !== undefined) return;
    this.refusal = serviceClosingError();
    this.session.refuse(this.refusal);
    this.sessions.refuse(this.refusal);
  }

  get drafts(): DraftStore {
    return this.scope.resolve<DraftStore>(DRAFT_STORE);
  }

  get conversions(): Conversions {
    return this.scope.resolve<Conversions>(CONVERSIONS);
  }

  async dispose(): Promise<void> {
    this.session.release();
    this.sessions.close();
    this.drafts.close();
    this.walker.dispose();
    await this.conversions.close(this.refusal ?? serviceClosingError());
  }
}
