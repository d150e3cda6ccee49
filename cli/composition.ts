import { container, PLUGINS, REGISTRIES, type DependencyContainer } from '../core/di.js';
import { createRegistries, installPlugins, type WalkerPlugin } from '../core/plugin.js';
import { Walker } from '../core/walker.js';
import { builtinPlugins } from '../plugins/index.js';

/**
 * The composition root of the command line: every registration of the `walker` executable is here. Each
 * invocation gets its own child container, so two runs in one process (tests) share nothing.
 */
export async function compose(extraPlugins: readonly WalkerPlugin[] = []): Promise<DependencyContainer> {
  const scope = container.createChildContainer();
  const plugins = [...builtinPlugins(), ...extraPlugins];
  for (const plugin of plugins) scope.register(PLUGINS, { useValue: plugin });
  const registries = createRegistries();
  await installPlugins(registries, scope.resolveAll<WalkerPlugin>(PLUGINS));
  scope.register(REGISTRIES, { useValue: registries });
  scope.register(Walker, { useClass: Walker });
  return scope;
}
