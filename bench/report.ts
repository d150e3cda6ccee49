/** One measured figure of the benchmark table. */
export interface BenchRow {
  /** The part of the system measured, e.g. `engine`, `service`, `drafts`. */
  readonly section: string;
  /** What was run, e.g. `generated 10k/50k, random`, `SmallModel.json`. */
  readonly subject: string;
  /** What was measured, e.g. `steps/s`, `load ms`, `steps / (2 x edges)`. */
  readonly metric: string;
  readonly value: number;
  /** The target, in words (`>= 1,000,000`), when there is one. */
  readonly target?: string;
  /** Whether the value meets the target; undefined when there is no target. */
  readonly met?: boolean;
}

/** A benchmark section: runs its measurements and returns the rows. */
export type BenchSection = () => Promise<BenchRow[]>;

/** Formats a number for the table: integers with thousands separators, others with 3 significant decimals. */
export function formatValue(value: number): string {
  if (Number.isInteger(value)) return value.toLocaleString('en-US');
  return value.toLocaleString('en-US', { maximumFractionDigits: 3 });
}

/** The rows as a Markdown table. */
export function toMarkdown(rows: readonly BenchRow[]): string {
  const lines = ['| section | subject | metric | value | target | met |', '|---|---|---|---:|---|---|'];
  for (const r of rows) {
    const met = r.met === undefined ? '' : r.met ? 'yes' : '**no**';
    lines.push(`| ${r.section} | ${r.subject} | ${r.metric} | ${formatValue(r.value)} | ${r.target ?? ''} | ${met} |`);
  }
  return lines.join('\n');
}
