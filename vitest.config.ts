import { defineConfig } from 'vitest/config';

export default defineConfig({
  resolve: {
    // clipanion's package.json has an extensionless `main`; Vite would pick its .mjs build, whose directory
    // import Node refuses. Node itself loads the CommonJS build, so tests load that one too.
    alias: [{ find: /^clipanion$/, replacement: 'clipanion/lib/advanced/index.js' }],
  },
  test: {
    include: ['test/**/*.test.ts'],
    // QuickJS instances and child processes are heavy: two workers match the CI machine's two cores.
    maxWorkers: 2,
    testTimeout: 20_000,
  },
});
