import { loadPlugin } from '../core/plugin-loader.js';
import { createRegistries, installPlugins, type Registries } from '../core/plugin.js';
import { builtinPlugins } from '../plugins/index.js';
import { serverFile } from './server-folder.js';
import type { PluginSource } from './sessions/worker-protocol.js';

/**
 * What a worker thread of the service needs to do what the event loop does: the same plugins, loaded again
 * from the same modules, and its own entry module.
 */

/** The registries of a thread: the built-in plugins, then the user's, in the order the service loaded them. */
export async function threadRegistries(plugins: readonly PluginSource[]): Promise<Registries> {
  const registries = createRegistries();
  const users = [];
  for (const source of plugins) users.push(await loadPlugin(source.specifier, source.fromDirectory));
  await installPlugins(registries, [...builtinPlugins(), ...users]);
  return registries;
}

/**
 * The built entry of a worker, `server/<path>`. Node runs JavaScript only in a worker thread, so when the service
 * runs from the TypeScript sources (the test runner), the one under `dist/` is taken: `npm test` builds first.
 */
export function workerEntryOf(path: string): URL {
  return serverFile(path, `../dist/server/${path}`);
}
