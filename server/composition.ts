import { container, PLUGINS, REGISTRIES, type DependencyContainer } from '../core/di.js';
import { createRegistries, installPlugins, type WalkerPlugin } from '../core/plugin.js';
import { ExecutionSession } from '../core/session.js';
import { Walker } from '../core/walker.js';
import { builtinPlugins } from '../plugins/index.js';
import { APP_OPTIONS, type AppOptions } from './options.js';
import { EXECUTION_SESSION } from './tokens.js';

/**
 * The composition root of an app: every registration of one `buildApp` call is here, in a child container of
 * its own, so two apps in one process (tests, or a future multi-session server) share nothing but code.
 * The built-in plugins come first, then `plugins` in the order given; a name clash names both plugins.
 */
export async function composeApp(options: AppOptions, plugins: readonly WalkerPlugin[]): Promise<DependencyContainer> {
  const scope = container.createChildContainer();
  scope.register(APP_OPTIONS, { useValue: options });
  for (const plugin of [...builtinPlugins({ scriptLimits: options.scriptLimits }), ...plugins]) {
    scope.register(PLUGINS, { useValue: plugin });
  }
  const registries = createRegistries();
  await installPlugins(registries, scope.resolveAll<WalkerPlugin>(PLUGINS));
  scope.register(REGISTRIES, { useValue: registries });
  scope.register(Walker, { useClass: Walker });
  const session = new ExecutionSession(scope.resolve(Walker), { seed: options.seed, scriptLimits: options.scriptLimits });
  scope.register(EXECUTION_SESSION, { useValue: session });
  return scope;
}
