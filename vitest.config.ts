import { defineConfig } from 'vitest/config';

export default defineConfig({
  resolve: {
    // clipanion's package.json has an extensionless `main`; Vite would pick its .mjs build, whose directory
    // import Node refuses. Node itself loads the CommonJS build, so tests load that one too.
    alias: [{ find: /^clipanion$/, replacement: 'clipanion/lib/advanced/index.js' }],
  },
  test: {
    include: ['test/**/*.test.ts'],
    // @fastify/autoload imports the route families (server/discovery.ts); run through Vite like the rest, it
    // imports their TypeScript sources, and the same module instances as the tests do.
    server: { deps: { inline: ['@fastify/autoload'] } },
    // QuickJS instances and child processes are heavy: two workers match the CI machine's two cores.
    maxWorkers: 2,
    // A process per test file: nothing one file leaves (timers, module state, memory) reaches the next.
    pool: 'forks',
    isolate: true,
    // No test needs more than a few hundred MB of heap; a runaway one then fails in seconds, named by the guard,
    // rather than after minutes at Node's default limit of 4 GB.
    execArgv: ['--max-old-space-size=1536'],
    setupFiles: ['test/support/memory-guard.ts'],
    // Room for a machine busy with two other suites: a test that needs 2 s alone takes ten times that there.
    testTimeout: 60_000,
    hookTimeout: 60_000,
  },
});
