import { createRegistries, installPlugins, type Registries, type WalkerPlugin } from '../core/plugin.js';
import { ExecutionSession } from '../core/session.js';
import { Walker } from '../core/walker.js';
import { builtinPlugins } from '../plugins/index.js';
import {
  APP_OPTIONS,
  container,
  DRAFT_STORE,
  EXECUTION_SESSION,
  instanceCachingFactory,
  PLUGINS,
  REGISTRIES,
  WALKER,
  type DependencyContainer,
} from './di.js';
import { DraftStore } from './drafts/store.js';
import type { AppOptions } from './options.js';
import { withSetupDeadline } from './plugin-deadline.js';

/**
 * What an app (or a command of the `walker` executable) works with, as the composition root built it. Route
 * families and commands get this typed view, never the container: what is made, and from what, is decided in
 * {@link compose} only.
 */
export interface Services {
  readonly options: AppOptions;
  readonly registries: Registries;
  readonly walker: Walker;
  /** Made on first use, so a command that walks offline never makes one. */
  readonly session: ExecutionSession;
  /** Made on first use, like {@link session}. */
  readonly drafts: DraftStore;
  /** Frees the session's machine and every draft. */
  dispose(): void;
}

/**
 * The composition root: every registration of walker is here. Each call makes a child container of its own,
 * so two apps (or two CLI runs) in one process share nothing but code. The built-in plugins come first, then
 * `extraPlugins` in the order given; a name clash names both plugins, and a setup that does not settle within
 * `options.pluginSetupTimeoutMs` fails naming its plugin.
 */
export async function compose(options: AppOptions, extraPlugins: readonly WalkerPlugin[] = []): Promise<Services> {
  const scope = container.createChildContainer();
  scope.register(APP_OPTIONS, { useValue: options });
  for (const plugin of [...builtinPlugins({ scriptLimits: options.scriptLimits }), ...extraPlugins]) {
    scope.register(PLUGINS, { useValue: plugin });
  }
  const registries = createRegistries();
  const plugins = scope.resolveAll<WalkerPlugin>(PLUGINS);
  await installPlugins(registries, plugins.map((p) => withSetupDeadline(p, options.pluginSetupTimeoutMs)));
  scope.register(REGISTRIES, { useValue: registries });
  scope.register(WALKER, { useFactory: instanceCachingFactory((c) => new Walker(c.resolve(REGISTRIES))) });
  scope.register(EXECUTION_SESSION, {
    useFactory: instanceCachingFactory(
      (c) =>
        new ExecutionSession(c.resolve(WALKER), { seed: options.seed, scriptLimits: options.scriptLimits, blocked: options.blocked, stepReport: options.stepReport }),
    ),
  });
  scope.register(DRAFT_STORE, {
    useFactory: instanceCachingFactory(() => new DraftStore({ limits: options.drafts, now: options.now })),
  });
  return new ContainerServices(scope, options, registries);
}

/** {@link Services} read from the container {@link compose} filled. */
class ContainerServices implements Services {
  constructor(
    private readonly scope: DependencyContainer,
    readonly options: AppOptions,
    readonly registries: Registries,
  ) {}

  get walker(): Walker {
    return this.scope.resolve<Walker>(WALKER);
  }

  get session(): ExecutionSession {
    return this.scope.resolve<ExecutionSession>(EXECUTION_SESSION);
  }

  get drafts(): DraftStore {
    return this.scope.resolve<DraftStore>(DRAFT_STORE);
  }

  dispose(): void {
    this.session.dispose();
    this.drafts.close();
  }
}
