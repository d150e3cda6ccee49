import { spawn, type ChildProcess, type ChildProcessWithoutNullStreams } from 'node:child_process';
import { readFileSync } from 'node:fs';
import { Writable } from 'node:stream';
import { beforeAll, describe, expect, it } from 'vitest';
import { main } from '../../cli/index.js';
import { ensureBuilt, ROOT } from './online-helpers.js';

const ENDLESS = ['offline', '-m', 'examples/models/login.json', 'random(never)', '--seed', '5'];

beforeAll(() => ensureBuilt(), 120_000);

function walker(args: readonly string[]): ChildProcessWithoutNullStreams {
  return spawn(process.execPath, ['bin/walker.js', ...args], { cwd: ROOT, stdio: 'pipe' });
}

function exited(child: ChildProcess): Promise<{ code: number | null; signal: NodeJS.Signals | null }> {
  if (child.exitCode !== null || child.signalCode !== null) return Promise.resolve({ code: child.exitCode, signal: child.signalCode });
  return new Promise((resolve) => child.once('exit', (code, signal) => resolve({ code, signal })));
}

/** The resident memory of a process in MB, from /proc (Linux, where CI runs). */
function rssMb(pid: number): number {
  const status = readFileSync(`/proc/${pid}/status`, 'utf8');
  return Number(/^VmRSS:\s+(\d+) kB$/m.exec(status)?.[1]) / 1024;
}

/** The arguments quoted for sh. */
function quoted(args: readonly string[]): string {
  return args.map((a) => `'${a}'`).join(' ');
}

const sleep = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));

describe('walker offline on a pipe', () => {
  /*
   * The bound: an endless walk steps about a million times a second, and without backpressure every step's
   * line (~80 bytes) stays queued in the process, about 200 MB more each second (measured before the fix:
   * 66 MB at start, 600 MB after 3 s). With backpressure the process holds one chunk (16 KiB) and the stream's
   * buffer (16 KiB) at most, so its memory stays where start-up left it (measured: 80 MB, flat). The reader takes
   * 4 KiB every 100 ms, thousands of times less than the walk could write, for 3 s: each limit below is several
   * times above the flat line and several times below what the old loop reached.
   */
  it('waits for a slow reader: its memory stays flat on an endless walk', async () => {
    const child = walker(ENDLESS);
    child.stdout.pause();
    let stderr = '';
    child.stderr.on('data', (chunk) => (stderr += String(chunk)));
    const read: string[] = [];
    const samples: number[] = [];
    try {
      // The three seconds count from the walk's first output: a busy machine may take longer than that to start.
      await new Promise((resolve) => child.stdout.once('readable', resolve));
      for (let tick = 0; tick < 30; tick++) {
        await sleep(100);
        expect(child.exitCode, stderr).toBeNull();
        const chunk = child.stdout.read(4096) as Buffer | null;
        if (chunk !== null) read.push(chunk.toString());
        samples.push(rssMb(child.pid as number));
      }
    } finally {
      child.kill('SIGKILL');
      await exited(child);
    }
    expect(Math.max(...samples)).toBeLessThan(150);
    // Output held for a reader that does not read would grow by hundreds of MB; a collector that a busy
    // machine lets fall behind leaves some tens (34 MB was seen beside two other suites).
    expect(samples[samples.length - 1] - samples[9]).toBeLessThan(60);
    const lines = read.join('').split('\n').slice(0, 10);
    expect(JSON.parse(lines[0])).toEqual({ currentElementName: 'e_Start', currentElementID: 'e_start', modelId: 'login', modelName: 'Login' });
    for (const line of lines.slice(1, -1)) {
      expect(Object.keys(JSON.parse(line))).toEqual(['currentElementName', 'currentElementID', 'modelId', 'modelName']);
    }
  });

  it('ends quietly with exit 0 when the reader closes the pipe after 3 lines', async () => {
    const child = walker(ENDLESS);
    let stdout = '';
    let stderr = '';
    child.stderr.on('data', (chunk) => (stderr += String(chunk)));
    child.stdout.on('data', (chunk) => {
      stdout += String(chunk);
      if (stdout.split('\n').length > 3) child.stdout.destroy();
    });
    const { code, signal } = await exited(child);
    expect({ code, signal }).toEqual({ code: 0, signal: null });
    expect(stderr).toBe('');
  });

  it.each([
    ['the steps', `(node bin/walker.js ${quoted(ENDLESS)}; echo "walker exit $?" >&2) | head -n 3`, 'walker exit 0\n'],
    // The log goes into the closed pipe as well: a write to a gone stderr must not fail the run.
    ['the steps and stderr', `(node bin/walker.js ${quoted(ENDLESS)} --log-level info 2>&1; echo "walker exit $?" >&3) 3>&2 | head -n 3`, 'walker exit 0\n'],
  ])('ends quietly with exit 0 when %s go into `| head -n 3`', async (_what, script, stderr) => {
    // POSIX sh has no pipefail: walker's own status is echoed to stderr from inside the pipeline.
    const child = spawn('sh', ['-c', script], { cwd: ROOT, stdio: 'pipe' });
    let out = '';
    let err = '';
    child.stdout.on('data', (chunk) => (out += String(chunk)));
    child.stderr.on('data', (chunk) => (err += String(chunk)));
    await exited(child);
    expect(out.trimEnd().split('\n')).toHaveLength(3);
    expect(err).toBe(stderr);
  });
});

describe('walker offline --progress, the real executable', () => {
  it('writes plain progress lines on a stderr that is not a terminal, at most 5 a second', async () => {
    const child = spawn(process.execPath, ['bin/walker.js', 'offline', '-m', 'examples/models/login.json', 'random(time_duration(1))', '--progress'], {
      cwd: ROOT,
      stdio: ['ignore', 'ignore', 'pipe'],
    });
    let stderr = '';
    child.stderr.on('data', (chunk) => (stderr += String(chunk)));
    const started = performance.now();
    expect((await exited(child)).code).toBe(0);
    const seconds = (performance.now() - started) / 1000;
    // No seed: stderr is no terminal, so it carries the progress asked for and nothing else.
    const lines = stderr.trimEnd().split('\n');
    expect(stderr).not.toContain('\r');
    // One line at least every 200 ms of walking, and the final one; the walk takes 1 s of the process's time.
    expect(lines.length).toBeGreaterThanOrEqual(2);
    expect(lines.length).toBeLessThanOrEqual(Math.floor(seconds * 5) + 1);
    for (const line of lines) expect(line).toMatch(/^[\d,]+ steps, [\d,]+ steps\/s, edge coverage \d+%, vertex coverage \d+%, stop condition \d+%$/);
    expect(lines[lines.length - 1]).toMatch(/stop condition 100%$/);
  });
});

/** A captured stream that says whether it is a terminal. */
function terminal(isTTY: boolean): Writable & { text(): string } {
  const chunks: string[] = [];
  const stream = new Writable({
    write(chunk, _encoding, done) {
      chunks.push(String(chunk));
      done();
    },
  });
  return Object.assign(stream, { isTTY, text: () => chunks.join('') });
}

describe('walker offline progress defaults', () => {
  const WALK = ['offline', '-m', 'examples/models/login.json', 'random(length(20))', '--seed', '1'];

  async function stderrOf(args: readonly string[], tty: { stdout: boolean; stderr: boolean }): Promise<string> {
    const stderr = terminal(tty.stderr);
    expect(await main(args, { stdout: terminal(tty.stdout), stderr })).toBe(0);
    return stderr.text();
  }

  it('redraws a progress line when stderr is a terminal and stdout is not', async () => {
    // The final figures on the one line, ended; before them, a redraw for every 200 ms the walk took, which on a
    // busy machine may be one or more even for 20 steps.
    const redraw = String.raw`\r[\d,]+ steps, [\d,]+ steps/s, edge coverage \d+%, vertex coverage \d+%, stop condition \d+%\x1b\[K`;
    const text = await stderrOf(WALK, { stdout: false, stderr: true });
    expect(text).toMatch(new RegExp(String.raw`^Seed: 1\n(${redraw})*\r20 steps, [^\n\r]*stop condition 100%\x1b\[K\n$`));
  });

  it('shows none when stdout is the terminal too, when stderr is not one, or with --no-progress', async () => {
    // The seed goes to a stderr that is a terminal (someone watches it), never to one that is not.
    expect(await stderrOf(WALK, { stdout: true, stderr: true })).toBe('Seed: 1\n');
    expect(await stderrOf(WALK, { stdout: false, stderr: false })).toBe('');
    expect(await stderrOf([...WALK, '--no-progress'], { stdout: false, stderr: true })).toBe('Seed: 1\n');
  });
});
