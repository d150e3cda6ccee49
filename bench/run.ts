import os from 'node:os';
import { toMarkdown, type BenchRow, type BenchSection } from './report.js';
import { sections } from './sections.js';

/**
 * `npm run bench`: runs every section and prints one Markdown table, headed by the machine it ran on,
 * ready to paste into docs/benchmarks.md. `npm run bench -- <section>...` runs only those sections. A section
 * that fails is named under the table with its reason, and the others are measured all the same; the exit
 * code then says so.
 */
async function main(): Promise<void> {
  const only = process.argv.slice(2);
  const rows: BenchRow[] = [];
  const failed: string[] = [];
  for (const [name, section] of Object.entries(sections) as [string, BenchSection][]) {
    if (only.length > 0 && !only.includes(name)) continue;
    process.stderr.write(`running ${name}...\n`);
    try {
      rows.push(...(await section()));
    } catch (error) {
      failed.push(`${name}: ${error instanceof Error ? error.message : String(error)}`);
    }
  }
  const cpu = os.cpus()[0]?.model ?? 'unknown CPU';
  process.stdout.write(`Machine: ${cpu}, ${os.cpus().length} cores, ${Math.round(os.totalmem() / 2 ** 30)} GiB, Node ${process.version}\n\n`);
  process.stdout.write(`${toMarkdown(rows)}\n`);
  if (failed.length > 0) {
    process.stdout.write(`\nNot measured, the section failed:\n${failed.map((line) => `- ${line}`).join('\n')}\n`);
    process.exitCode = 1;
  }
}

await main();
