import { describe, expect, it, vi } from 'vitest';
import { ErrorCodes, WalkerError } from '../../core/errors.js';
import type { WalkerPlugin } from '../../core/plugin.js';
import { buildApp } from '../../server/app.js';
import { compose } from '../../server/composition.js';
import { resolveAppOptions } from '../../server/resolve-options.js';
import { testApp } from './helpers.js';

const realSetTimeout = globalThis.setTimeout;
const realClearTimeout = globalThis.clearTimeout;

function plugin(name: string, setup: WalkerPlugin['setup']): WalkerPlugin {
  return { meta: { name, version: '1.0.0' }, setup };
}

describe('plugin setup', () => {
  it('that never settles fails startup within the timeout, naming the plugin', async () => {
    const stuck = plugin('waits-forever', () => new Promise<void>(() => {}));
    // The deadline holds the built-in plugins too, whose setup (QuickJS's WebAssembly) a busy machine slows
    // past a tenth of a second: long enough for them, short enough to see the stuck one fail well within the test.
    const started = Date.now();
    const failure = await buildApp({ plugins: [stuck], pluginSetupTimeoutMs: 3000 }).catch((e: unknown) => e);
    expect(Date.now() - started).toBeLessThan(30_000);
    expect(failure).toBeInstanceOf(WalkerError);
    expect(failure).toMatchObject({
      code: ErrorCodes.PLUGIN,
      message:
        "The setup of plugin 'waits-forever' did not finish within 3000 ms: its setup must return (or its promise settle) " +
        'once the plugin has registered what it provides. Is it waiting for something that never comes?',
    });
  });

  it('that takes a while but finishes in time installs as before', async () => {
    const slow = plugin('slow', async (registries) => {
      await new Promise((resolve) => setTimeout(resolve, 30));
      registries.generators.register({ name: 'slowpoke' as 'random', create: () => ({ nextEdge: (walk, v) => walk.openEdges(v)[0] }) });
    });
    const app = await testApp({ plugins: [slow], pluginSetupTimeoutMs: 1000 });
    expect(app.services.registries.generators.names()).toContain('slowpoke');
  });

  it('that throws at once, or rejects with something not an Error, is still named', async () => {
    const cases: Array<[WalkerPlugin['setup'], string]> = [
      [() => { throw new TypeError('bad config'); }, "The setup of plugin 'p' failed: bad config"],
      [() => Promise.reject('no network'), "The setup of plugin 'p' failed: no network"],
    ];
    for (const [setup, message] of cases) {
      const failure = await compose(resolveAppOptions({}), [plugin('p', setup)]).catch((e: unknown) => e);
      expect(failure).toMatchObject({ code: ErrorCodes.PLUGIN, message });
    }
  });

  it('leaves no timer behind once it has settled', async () => {
    // Only the timers this compose made count: other work in the same worker makes and ends timers of its own.
    const made: unknown[] = [];
    const cleared = new Set<unknown>();
    const setTimer = vi.spyOn(globalThis, 'setTimeout').mockImplementation(((...args: Parameters<typeof setTimeout>) => {
      const timer = realSetTimeout(...args);
      made.push(timer);
      return timer;
    }) as typeof setTimeout);
    const clearTimer = vi.spyOn(globalThis, 'clearTimeout').mockImplementation((timer) => {
      cleared.add(timer);
      realClearTimeout(timer);
    });
    try {
      await compose(resolveAppOptions({ pluginSetupTimeoutMs: 60_000 }), [plugin('quick', () => {})]);
    } finally {
      setTimer.mockRestore();
      clearTimer.mockRestore();
    }
    expect(made.length).toBeGreaterThan(0);
    expect(made.filter((timer) => !cleared.has(timer))).toEqual([]);
  });
});
