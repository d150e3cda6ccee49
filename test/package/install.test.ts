import { execFile, spawn } from 'node:child_process';
import { mkdirSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { promisify } from 'node:util';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { ensureBuilt, ROOT } from '../cli/online-helpers.js';

const run = promisify(execFile);

/** The model the package ships, as an installed project names it. */
const LOGIN = 'node_modules/walker-mbt/examples/models/login.json';
const GENERATOR = 'random(edge_coverage(100))';

/** Runs a command to the end; answers its exit code and output (a failing command does not throw). */
async function exec(file: string, args: readonly string[], cwd: string): Promise<{ code: number; stdout: string; stderr: string }> {
  try {
    const { stdout, stderr } = await run(file, args, { cwd, encoding: 'utf8', maxBuffer: 64 * 2 ** 20 });
    return { code: 0, stdout, stderr };
  } catch (error) {
    const failed = error as { code?: unknown; stdout?: string; stderr?: string };
    if (typeof failed.code !== 'number') throw error;
    return { code: failed.code, stdout: failed.stdout ?? '', stderr: failed.stderr ?? '' };
  }
}

/** Runs a command that must succeed; answers its stdout. */
async function must(file: string, args: readonly string[], cwd: string): Promise<string> {
  const result = await exec(file, args, cwd);
  if (result.code !== 0) throw new Error(`${file} ${args.join(' ')} exited with ${result.code}:\n${result.stdout}${result.stderr}`);
  return result.stdout;
}

/**
 * The tarball of this checkout, installed from scratch into an empty project as a user installs it from the
 * registry: its dependencies come from the registry (or npm's cache), nothing from this checkout's
 * node_modules. Packing skips the scripts, so it takes the dist/ that ensureBuilt keeps fresh instead of
 * emptying and rebuilding it under the other test files' feet.
 */
describe('the packed package, installed into an empty project', () => {
  let temp: string;
  let project: string;
  let walker: string;
  let installed: { code: number; stdout: string; stderr: string };

  beforeAll(async () => {
    ensureBuilt();
    temp = mkdtempSync(join(tmpdir(), 'walker-install-'));
    const packs = join(temp, 'packs');
    project = join(temp, 'project');
    mkdirSync(packs);
    mkdirSync(project);
    const packed = JSON.parse(await must('npm', ['pack', '--json', '--ignore-scripts', '--pack-destination', packs], ROOT)) as [{ filename: string }];
    await must('npm', ['init', '-y'], project);
    installed = await exec('npm', ['install', join(packs, packed[0].filename), '--no-audit', '--no-fund', '--prefer-offline'], project);
    if (installed.code !== 0) throw new Error(`npm install exited with ${installed.code}:\n${installed.stdout}${installed.stderr}`);
    walker = join(project, 'node_modules', '.bin', 'walker');
  }, 240_000);

  afterAll(() => {
    if (temp !== undefined) rmSync(temp, { recursive: true, force: true });
  });

  it('installs on this Node without an engine warning: no dependency wants a newer Node', () => {
    expect(installed.stderr).not.toContain('EBADENGINE');
  });

  it('installs the walker command, whose help lists its commands', async () => {
    const help = await exec(walker, ['--help'], project);
    expect(help).toMatchObject({ code: 0, stderr: '' });
    for (const command of ['offline', 'online', 'check']) expect(help.stdout).toContain(`walker ${command} `);
  });

  it('walks the bundled model offline and prints one JSON object per step', async () => {
    const result = await exec(walker, ['offline', '-m', LOGIN, GENERATOR, '--seed', '1'], project);
    expect(result.code).toBe(0);
    const lines = result.stdout.trimEnd().split('\n');
    expect(lines.length).toBeGreaterThan(10);
    const steps = lines.map((line) => JSON.parse(line) as Record<string, unknown>);
    expect(steps[0]).toMatchObject({ currentElementName: 'e_Start', modelId: 'login' });
    expect((await exec(walker, ['offline', '-m', LOGIN, GENERATOR, '--seed', '1'], project)).stdout).toBe(result.stdout);
  });

  it('serves the bundled model online until SIGTERM', async () => {
    const child = spawn(walker, ['online', '-s', 'RESTFUL', '-p', '0', '-m', LOGIN, GENERATOR], { cwd: project, stdio: ['ignore', 'pipe', 'pipe'] });
    const exited = new Promise<number | null>((resolve) => child.once('exit', (code) => resolve(code)));
    let output = '';
    child.stderr.on('data', (chunk) => (output += String(chunk)));
    try {
      const url = await new Promise<string>((resolve, reject) => {
        let stdout = '';
        // As long as startService (test/cli/online-helpers.ts) waits: a start beside two other suites takes seconds.
        const timer = setTimeout(() => reject(new Error(`no Listening line within 60 s:\n${stdout}${output}`)), 60_000);
        child.stdout.on('data', (chunk) => {
          stdout += String(chunk);
          const listening = /Listening on (http:\/\/\S+)\n/.exec(stdout);
          if (listening === null) return;
          clearTimeout(timer);
          resolve(listening[1]);
        });
        void exited.then((code) => {
          clearTimeout(timer);
          reject(new Error(`walker online exited with ${code} before listening:\n${stdout}${output}`));
        });
      });
      const response = await fetch(`${url}/walker/hasNext`);
      expect(await response.json()).toEqual({ result: 'ok', hasNext: 'true' });
    } finally {
      child.kill('SIGTERM');
    }
    expect(await exited).toBe(0);
  });

  it('imports the library and its plugins and server entry points by the package name', async () => {
    const script = `
      import { Walker } from 'walker-mbt';
      import { builtinPlugins } from 'walker-mbt/plugins';
      import { buildApp } from 'walker-mbt/server';
      import manifest from 'walker-mbt/package.json' with { type: 'json' };
      const walk = await (await Walker.create(builtinPlugins())).open({ file: '${LOGIN}', generator: '${GENERATOR}', seed: 1 });
      const steps = [...walk].length;
      const coverage = walk.statistics().edgeCoverage;
      walk.dispose();
      console.log(JSON.stringify({ name: manifest.name, steps, coverage, buildApp: typeof buildApp }));
    `;
    const printed = JSON.parse(await must(process.execPath, ['--input-type=module', '-e', script], project)) as Record<string, unknown>;
    expect(printed).toMatchObject({ name: 'walker-mbt', coverage: 100, buildApp: 'function' });
    expect(printed.steps).toBeGreaterThan(10);
  });

  it('keeps its internals private: only the exported entry points resolve', async () => {
    const result = await exec(process.execPath, ['--input-type=module', '-e', "await import('walker-mbt/dist/core/index.js')"], project);
    expect(result.code).not.toBe(0);
    expect(result.stderr).toContain('ERR_PACKAGE_PATH_NOT_EXPORTED');
  });

  it('gives TypeScript users the declarations of every entry point', async () => {
    writeFileSync(
      join(project, 'tsconfig.json'),
      JSON.stringify({ compilerOptions: { module: 'NodeNext', moduleResolution: 'NodeNext', target: 'ES2022', strict: true, noEmit: true, skipLibCheck: true, types: [] } }),
    );
    writeFileSync(
      join(project, 'check.mts'),
      [
        "import { Walker, type PathGeneratorName } from 'walker-mbt';",
        "import { builtinPlugins } from 'walker-mbt/plugins';",
        "import { buildApp } from 'walker-mbt/server';",
        "const name: PathGeneratorName = 'random';",
        'const walker: Walker = await Walker.create(builtinPlugins());',
        'export { name, walker, buildApp };',
        '',
      ].join('\n'),
    );
    const tsc = await exec(process.execPath, [join(ROOT, 'node_modules', 'typescript', 'bin', 'tsc'), '-p', '.'], project);
    expect(tsc.stdout + tsc.stderr).toBe('');
    expect(tsc.code).toBe(0);
  });
});
