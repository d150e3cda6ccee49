import { ErrorCodes, WalkerError } from '../core/errors.js';
import type { Registries, WalkerPlugin } from '../core/plugin.js';

/**
 * The plugin with a `setup` that fails with WALKER_PLUGIN, naming the plugin, when the original has not
 * settled within `timeoutMs`. A setup that waits for something that never comes would otherwise leave
 * startup pending forever, and Node ends a process whose top-level await never settles with code 13 and no
 * word. The timer is cleared as soon as the setup settles, so it never keeps a process alive; a setup that
 * finishes late registers into registries nobody reads any more.
 */
export function withSetupDeadline(plugin: WalkerPlugin, timeoutMs: number): WalkerPlugin {
  return {
    meta: plugin.meta,
    setup: (registries: Registries) => settleWithin(plugin, registries, timeoutMs),
  };
}

function settleWithin(plugin: WalkerPlugin, registries: Registries, timeoutMs: number): Promise<void> {
  return new Promise<void>((resolve, reject) => {
    const timer = setTimeout(() => reject(lateSetup(plugin.meta.name, timeoutMs)), timeoutMs);
    const settle = <T>(finish: (value: T) => void) => (value: T) => {
      clearTimeout(timer);
      finish(value);
    };
    // Called inside a promise so that a setup that throws at once is a rejection like any other.
    Promise.resolve()
      .then(() => plugin.setup(registries))
      .then(settle(resolve), settle(reject));
  });
}

function lateSetup(name: string, timeoutMs: number): WalkerError {
  return new WalkerError(
    ErrorCodes.PLUGIN,
    `The setup of plugin '${name}' did not finish within ${timeoutMs} ms: its setup must return (or its promise ` +
      'settle) once the plugin has registered what it provides. Is it waiting for something that never comes?',
  );
}
