import { spawn, spawnSync, type ChildProcess } from 'node:child_process';
import { existsSync, mkdirSync, readdirSync, rmSync, statSync } from 'node:fs';
import { join } from 'node:path';
import { Writable } from 'node:stream';
import { main } from '../../cli/index.js';
import { tracked } from '../support/child-processes.js';

/** The repository root (tests run from it, and `--plugin ./examples/...` is relative to it). */
export const ROOT = join(import.meta.dirname, '..', '..');

/** Runs the command line in this process with captured output. */
export async function runCli(argv: readonly string[]): Promise<{ code: number; stdout: string; stderr: string }> {
  const out = collector();
  const err = collector();
  const code = await main(argv, { stdout: out.stream, stderr: err.stream });
  return { code, stdout: out.text(), stderr: err.text() };
}

function collector(onWrite?: () => void): { stream: Writable; text(): string } {
  const chunks: string[] = [];
  const stream = new Writable({
    write(chunk, _encoding, done) {
      chunks.push(String(chunk));
      onWrite?.();
      done();
    },
  });
  return { stream, text: () => chunks.join('') };
}

/** A `walker online` run by {@link serveInProcess}: a {@link Service} without a process of its own. */
export type InProcessService = Omit<Service, 'process'>;

/**
 * Runs `walker online ...args` through `main` in this process, with captured output, and waits for its
 * `Listening on` line: the options reach the same app as in the executable, without a second of CPU for a
 * process start. `stop` emits the signal (SIGTERM by default; the service listens for SIGINT and SIGTERM) in this
 * process, as a signal from outside would arrive: every service this process runs stops with it.
 */
export async function serveInProcess(args: readonly string[]): Promise<InProcessService> {
  let listening: (url: string) => void = () => {};
  const url = new Promise<string>((resolve) => (listening = resolve));
  const out = collector(() => {
    const line = /Listening on (http:\/\/\S+)\n/.exec(out.text());
    if (line !== null) listening(line[1]);
  });
  const err = collector();
  const finished = main(['online', ...args], { stdout: out.stream, stderr: err.stream });
  const output = (): { stdout: string; stderr: string } => ({ stdout: out.text(), stderr: err.text() });
  let ended = false;
  const end = (): void => void (ended = true);
  finished.then(end, end);
  const refused = finished.then((code) => {
    throw new Error(`walker online ended with ${code} before listening:\n${out.text()}${err.text()}`);
  });
  const base = await Promise.race([url, refused]);
  const seed = /Seed: (\d+)\n/.exec(out.text());
  return {
    url: base,
    seed: seed === null ? undefined : Number(seed[1]),
    output,
    stop: async (signal = 'SIGTERM') => {
      if (!ended) process.emit(signal, signal);
      return finished;
    },
  };
}

/**
 * Builds dist/ when it is missing or older than the sources (`npm test` has just built it). Test files run in
 * parallel workers, so a lock folder keeps two of them from compiling into dist/ at once.
 */
export function ensureBuilt(): void {
  const built = join(ROOT, 'dist', 'bundle', 'cli', 'main.js');
  const lock = join(ROOT, '.build-lock');
  const fresh = (): boolean => existsSync(built) && newestSource() <= statSync(built).mtimeMs;
  if (fresh()) return;
  const deadline = Date.now() + 120_000;
  while (!tryLock(lock)) {
    if (Date.now() > deadline) throw new Error(`${lock} is held for too long: remove it if no build is running`);
    Atomics.wait(new Int32Array(new SharedArrayBuffer(4)), 0, 0, 200);
  }
  try {
    if (fresh()) return;
    // npm run build's three steps: the TypeScript, the web view's bundle, then the command's bundle.
    const tsc = join(ROOT, 'node_modules', 'typescript', 'bin', 'tsc');
    for (const args of [[tsc, '-p', 'tsconfig.build.json'], [join(ROOT, 'web', 'build.mjs')], [join(ROOT, 'scripts', 'bundle.mjs')]]) {
      const result = spawnSync(process.execPath, args, { cwd: ROOT, encoding: 'utf8' });
      if (result.status !== 0) throw new Error(`npm run build failed:\n${result.stdout}${result.stderr}`);
    }
  } finally {
    rmSync(lock, { recursive: true, force: true });
  }
}

function tryLock(path: string): boolean {
  try {
    mkdirSync(path);
    return true;
  } catch {
    return false;
  }
}

function newestSource(): number {
  let newest = 0;
  const visit = (dir: string): void => {
    for (const entry of readdirSync(dir, { withFileTypes: true })) {
      const path = join(dir, entry.name);
      if (entry.isDirectory()) visit(path);
      else if (/\.(ts|css|html|mjs)$/.test(entry.name)) newest = Math.max(newest, statSync(path).mtimeMs);
    }
  };
  for (const dir of ['core', 'plugins', 'server', 'runner', 'cli', 'web']) visit(join(ROOT, dir));
  return newest;
}

/** What a finished `walker` process printed, and how it ended. */
export interface Finished {
  readonly code: number | null;
  readonly stdout: string;
  readonly stderr: string;
}

/** Runs `node bin/walker.js ...args` (the real executable, built) to its end; `env` adds to the environment. */
export function runWalker(args: readonly string[], env: NodeJS.ProcessEnv = {}): Promise<Finished> {
  const child = tracked(spawn(process.execPath, ['bin/walker.js', ...args], { cwd: ROOT, stdio: ['ignore', 'pipe', 'pipe'], env: { ...process.env, ...env } }));
  let stdout = '';
  let stderr = '';
  child.stdout.on('data', (chunk) => (stdout += String(chunk)));
  child.stderr.on('data', (chunk) => (stderr += String(chunk)));
  return new Promise((resolve, reject) => {
    child.once('error', reject);
    child.once('close', (code) => resolve({ code, stdout, stderr }));
  });
}

/** Clock ticks per second of /proc's CPU times on Linux. */
const TICKS = 100;

/**
 * How much more than a bare Node.js start `walker <args>` takes, in ms: the least of three of each, taken
 * alternately. AltWalker gives `gw --version` one second; what walker adds to Node's own start is what it
 * controls. Counted in CPU time where Linux tells it: a shell runs the process and reads, once it has waited for
 * it, the CPU time of its children from /proc, which counts only that process. Its wall time, which is counted
 * elsewhere, passed 500 ms beside two other suites at load 12, where its CPU time is about 150 ms.
 */
export async function startOverhead(args: readonly string[]): Promise<number> {
  const timed = async (argv: readonly string[]): Promise<number> => {
    const started = performance.now();
    let stat = '';
    await new Promise<void>((resolve, reject) => {
      const script = '"$0" "$@" > /dev/null 2>&1; cat /proc/$$/stat 2> /dev/null';
      const child = tracked(spawn('/bin/sh', ['-c', script, process.execPath, ...argv], { cwd: ROOT, stdio: ['ignore', 'pipe', 'ignore'] }));
      child.stdout.on('data', (chunk) => (stat += String(chunk)));
      child.once('error', reject);
      child.once('close', () => resolve());
    });
    const wall = performance.now() - started;
    // The shell's children's user and system time, fields 16 and 17 of its stat.
    const [user, system] = stat.slice(stat.lastIndexOf(')') + 2).split(' ').slice(13, 15).map(Number);
    return Number.isFinite(user) && Number.isFinite(system) && stat !== '' ? ((user + system) * 1000) / TICKS : wall;
  };
  let [bare, walker] = [Infinity, Infinity];
  for (let round = 0; round < 3; round++) {
    bare = Math.min(bare, await timed(['-e', '']));
    walker = Math.min(walker, await timed(['bin/walker.js', ...args]));
  }
  return walker - bare;
}

/** A `walker online` process started from the built package. */
export interface Service {
  readonly process: ChildProcess;
  /** e.g. `http://127.0.0.1:45123`. */
  readonly url: string;
  /** The seed printed at start, when a model was preloaded. */
  readonly seed: number | undefined;
  /** Everything printed so far. */
  output(): { stdout: string; stderr: string };
  /** Sends the signal and resolves with the exit code. */
  stop(signal?: NodeJS.Signals): Promise<number | null>;
}

/** Starts `node bin/walker.js online ...` and waits for its `Listening on` line; `env` adds to the environment. */
export function startService(args: readonly string[], env: NodeJS.ProcessEnv = {}): Promise<Service> {
  return startWalker(['online', ...args], env);
}

/** Starts `node bin/walker.js ...argv` (global options before `online` allowed) and waits for `Listening on`. */
export function startWalker(argv: readonly string[], env: NodeJS.ProcessEnv = {}): Promise<Service> {
  const child = tracked(
    spawn(process.execPath, ['bin/walker.js', ...argv], {
      cwd: ROOT,
      stdio: ['ignore', 'pipe', 'pipe'],
      env: { ...process.env, ...env },
    }),
  );
  let stdout = '';
  let stderr = '';
  const exited = new Promise<number | null>((resolve) => child.once('exit', (code) => resolve(code)));
  return new Promise((resolve, reject) => {
    // A start takes a second alone; a machine busy with two other suites, five files starting theirs at once,
    // took more than 15 s. One that never listens is ended, not left running behind the failed test.
    const timer = setTimeout(() => {
      child.kill('SIGKILL');
      reject(new Error(`no Listening line within 60 s:\n${stdout}${stderr}`));
    }, 60_000);
    child.stderr.on('data', (chunk) => (stderr += String(chunk)));
    child.stdout.on('data', (chunk) => {
      stdout += String(chunk);
      const listening = /Listening on (http:\/\/\S+)\n/.exec(stdout);
      if (listening === null) return;
      clearTimeout(timer);
      const seed = /Seed: (\d+)\n/.exec(stdout);
      resolve({
        process: child,
        url: listening[1],
        seed: seed === null ? undefined : Number(seed[1]),
        output: () => ({ stdout, stderr }),
        stop: (signal = 'SIGTERM') => {
          child.kill(signal);
          return exited;
        },
      });
    });
    void exited.then((code) => {
      clearTimeout(timer);
      reject(new Error(`walker online exited with ${code} before listening:\n${stdout}${stderr}`));
    });
  });
}

/** A request to a running service; answers the JSON body. */
export async function http(base: string, method: string, path: string, body?: string): Promise<Record<string, unknown>> {
  const res = await fetch(`${base}${path}`, { method, body });
  return (await res.json()) as Record<string, unknown>;
}

/** hasNext/getNext until hasNext is "false"; answers the element ids. */
export async function walkOverHttp(base: string): Promise<string[]> {
  const ids: string[] = [];
  while ((await http(base, 'GET', '/walker/hasNext')).hasNext === 'true') {
    ids.push(String((await http(base, 'GET', '/walker/getNext')).currentElementID));
    if (ids.length > 100_000) throw new Error('the walk does not end');
  }
  return ids;
}
