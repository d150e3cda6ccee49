import type { BaseContext } from 'clipanion';
import type { DependencyContainer } from '../core/di.js';
import type { WalkerPlugin } from '../core/plugin.js';

/** What every walker command gets beside the streams: a way to build its services with extra plugins. */
export interface WalkerContext extends BaseContext {
  compose(plugins?: readonly WalkerPlugin[]): Promise<DependencyContainer>;
}
