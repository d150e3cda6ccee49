/**
 * The one place that loads reflect-metadata (before tsyringe, as tsyringe requires) and names the injection
 * tokens. Constructors take their dependencies with `@inject(TOKEN)`, never by type, so that injection works
 * under `import type` and esbuild-based runners alike.
 */
import 'reflect-metadata';

export { container, inject, injectable, injectAll, type DependencyContainer } from 'tsyringe';

/** The plugins of this process, registered one by one (`@injectAll(PLUGINS)`). */
export const PLUGINS = Symbol('walker.plugins');
/** The filled {@link Registries} of this process. */
export const REGISTRIES = Symbol('walker.registries');
