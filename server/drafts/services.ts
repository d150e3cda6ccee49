import type { DependencyContainer } from '../../core/di.js';
import { APP_OPTIONS, DEFAULT_DRAFT_LIMITS, type AppOptions, type DraftLimits } from '../options.js';
import { DRAFT_STORE, DraftStore } from './store.js';

/** The draft limits of the app, each defaulted (decisions.md C.8). */
export function draftLimitsOf(services: DependencyContainer): DraftLimits {
  const options = appOptionsOf(services);
  return { ...DEFAULT_DRAFT_LIMITS, ...options?.drafts };
}

/**
 * The app's draft store: the one registered under {@link DRAFT_STORE}, or a new one made from the app options
 * and registered there, so that everything that asks the same container shares it and nothing is global.
 */
export function draftStoreOf(services: DependencyContainer): DraftStore {
  if (services.isRegistered(DRAFT_STORE, true)) return services.resolve<DraftStore>(DRAFT_STORE);
  const store = new DraftStore({ limits: draftLimitsOf(services), now: appOptionsOf(services)?.now });
  services.register(DRAFT_STORE, { useValue: store });
  return store;
}

/** The app options, when the container has them (a bare test container may not). */
export function appOptionsOf(services: DependencyContainer): Partial<AppOptions> | undefined {
  return services.isRegistered(APP_OPTIONS, true) ? services.resolve<AppOptions>(APP_OPTIONS) : undefined;
}
