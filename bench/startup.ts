import { spawn } from 'node:child_process';
import { readFileSync } from 'node:fs';
import { fileURLToPath } from 'node:url';
import type { BenchRow } from './report.js';

const SECTION = 'startup';
/** Runs of each command; the median is reported, since a busy machine stretches some runs. */
const RUNS = 7;
const BIN = fileURLToPath(new URL('../../bin/walker.js', import.meta.url));
const ROOT = fileURLToPath(new URL('../../', import.meta.url));
/** Clock ticks per second of /proc's CPU times on Linux. */
const TICKS = 100;

/**
 * What starting `walker` costs: CPU seconds of the process (all its threads) until it has done its job, or for
 * `online` until it listens. Every user pays it per command, and the test suite pays it for each of the hundreds
 * of processes it starts, which is most of what the suite costs. CPU rather than wall time, so that a busy
 * machine changes the figures little. Linux only (/proc).
 */
export async function benchStartup(): Promise<BenchRow[]> {
  const login = 'examples/models/login.json';
  const cases: Array<[string, string[], boolean]> = [
    ['walker --version', ['--version'], false],
    ['walker check, login.json', ['check', '-m', login, 'random(edge_coverage(100))'], false],
    ['walker offline, login.json to full edge coverage', ['offline', '-m', login, 'random(edge_coverage(100))'], false],
    ['walker online, until it listens', ['online', '-s', 'RESTFUL', '-p', '0'], true],
  ];
  const rows: BenchRow[] = [];
  for (const [subject, args, serves] of cases) {
    const seconds: number[] = [];
    for (let i = 0; i < RUNS; i++) seconds.push(await cpuSeconds(args, serves));
    seconds.sort((a, b) => a - b);
    rows.push({ section: SECTION, subject, metric: 'CPU s (median of 7)', value: Math.round(seconds[RUNS >> 1] * 100) / 100 });
  }
  return rows;
}

/**
 * CPU seconds of one `walker` process: until it exits, or, for a service, until it says where it listens (read
 * from /proc while it runs, then it is stopped).
 */
function cpuSeconds(args: readonly string[], serves: boolean): Promise<number> {
  return new Promise((resolve, reject) => {
    // A process that ended counts in this one's CPU time of the children it waited for.
    const before = cpuOf('self', true);
    const child = spawn(process.execPath, [BIN, ...args], { cwd: ROOT, stdio: ['ignore', 'pipe', 'pipe'] });
    let measured: number | undefined;
    let output = '';
    const onOutput = (chunk: Buffer): void => {
      output += String(chunk);
      if (serves && measured === undefined && output.includes('Listening on')) {
        measured = cpuOf(String(child.pid), false);
        child.kill('SIGTERM');
      }
    };
    child.stdout.on('data', onOutput);
    child.stderr.on('data', onOutput);
    child.once('error', reject);
    child.once('exit', (code) => {
      if (serves) {
        if (measured === undefined) reject(new Error(`walker ${args.join(' ')} ended before it listened:\n${output}`));
        else resolve(measured);
      } else if (code !== 0) reject(new Error(`walker ${args.join(' ')} exited ${code}:\n${output}`));
      else resolve(cpuOf('self', true) - before);
    });
  });
}

/**
 * User and system CPU seconds of process `pid` so far, all its threads; with `children`, those of the children
 * it has waited for instead.
 */
function cpuOf(pid: string, children: boolean): number {
  const stat = readFileSync(`/proc/${pid}/stat`, 'utf8');
  const fields = stat.slice(stat.lastIndexOf(')') + 2).split(' ');
  const [user, system] = children ? [fields[13], fields[14]] : [fields[11], fields[12]];
  return (Number(user) + Number(system)) / TICKS;
}
