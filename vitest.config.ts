import { relative } from 'node:path';
import { configDefaults, defineConfig } from 'vitest/config';
import { BaseSequencer, type TestSpecification } from 'vitest/node';

/**
 * The files that take longest, longest first (docs/benchmarks.md, "The test suite"); soak runs for a fixed
 * minute. With two workers, a long file that starts last holds the run open alone at its end.
 */
const SLOW_FILES = [
  'test/server/soak.test.ts',
  'test/cli/check.test.ts',
  'test/server/sandbox-process.test.ts',
  'test/server/first-load-process.test.ts',
  'test/package/pack.test.ts',
  'test/plugins/quickjs/quickjs.test.ts',
  'test/browser/editor.test.ts',
  'test/browser/large.test.ts',
  'test/server/sessions-process.test.ts',
  'test/cli/graphwalker-flags.test.ts',
  'test/cli/online-options.test.ts',
  'test/altwalker/altwalker.test.ts',
  'test/core/machine/walk-properties.test.ts',
  'test/core/dispose.test.ts',
  'test/server/execution.test.ts',
  'test/cli/run.test.ts',
  'test/cli/convert.test.ts',
  'test/browser/online.test.ts',
  'test/server/hosted-session.test.ts',
];

/**
 * Vitest orders files by their last durations when it has them, and otherwise by their size, which on a fresh
 * clone (CI) starts some of the longest files last. Without durations, the files above go first.
 */
class SlowFilesFirst extends BaseSequencer {
  override async sort(files: TestSpecification[]): Promise<TestSpecification[]> {
    const sorted = await super.sort(files);
    // The key of vitest's own cache, as BaseSequencer forms it.
    const key = (file: TestSpecification): string => `${file.project.name}:${relative(this.ctx.config.root, file.moduleId)}`;
    if (files.some((file) => this.ctx.cache.getFileTestResults(key(file)) !== undefined)) return sorted;
    const rank = (file: TestSpecification): number => {
      const index = SLOW_FILES.indexOf(relative(this.ctx.config.root, file.moduleId).replaceAll('\\', '/'));
      return index < 0 ? SLOW_FILES.length : index;
    };
    return sorted.sort((a, b) => rank(a) - rank(b));
  }
}

/**
 * The engine's pieces, tested in the test's own process: they start nothing and change no process-wide state
 * that another file reads, so they may share a worker process one after another, and each worker imports the
 * engine once rather than once per file (docs/benchmarks.md, "The test suite"). The files directly in
 * test/core test a walker as a library user holds it (its disposal measures the process's memory) and keep a
 * process each.
 */
const SHARED = ['test/core/*/**/*.test.ts', 'test/plugins/**/*.test.ts', 'test/support/**/*.test.ts'];

export default defineConfig({
  resolve: {
    // clipanion's package.json has an extensionless `main`; Vite would pick its .mjs build, whose directory
    // import Node refuses. Node itself loads the CommonJS build, so tests load that one too.
    alias: [{ find: /^clipanion$/, replacement: 'clipanion/lib/advanced/index.js' }],
  },
  test: {
    // @fastify/autoload imports the route families (server/discovery.ts); run through Vite like the rest, it
    // imports their TypeScript sources, and the same module instances as the tests do.
    server: { deps: { inline: ['@fastify/autoload'] } },
    // QuickJS instances and child processes are heavy: two workers match the CI machine's two cores.
    maxWorkers: 2,
    // A process per test file, but for the project `shared` below: nothing one file leaves (timers, module state,
    // memory) reaches the next.
    pool: 'forks',
    isolate: true,
    // No test needs more than a few hundred MB of heap; a runaway one then fails in seconds, named by the guard,
    // rather than after minutes at Node's default limit of 4 GB.
    execArgv: ['--max-old-space-size=1536'],
    setupFiles: ['test/support/memory-guard.ts', 'test/support/child-processes.ts'],
    sequence: { sequencer: SlowFilesFirst },
    projects: [
      { extends: true, test: { name: 'shared', include: SHARED, isolate: false } },
      { extends: true, test: { name: 'own', include: ['test/**/*.test.ts'], exclude: [...configDefaults.exclude, ...SHARED] } },
    ],
    // Room for a machine busy with two other suites: a test that needs 2 s alone takes ten times that there.
    testTimeout: 60_000,
    // expect.poll waits 1 s by default: a page or a service answers later than that on a machine busy with a
    // second suite, as the editor's file opening did.
    expect: { poll: { timeout: 10_000 } },
    hookTimeout: 60_000,
  },
});
