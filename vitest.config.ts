import { defineConfig } from 'vitest/config';

export default defineConfig({
  test: {
    include: ['test/**/*.test.ts'],
    // QuickJS instances and child processes are heavy: two workers match the CI machine's two cores.
    maxWorkers: 2,
    testTimeout: 20_000,
  },
});
