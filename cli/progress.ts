import type { Writable } from 'node:stream';
import type { WalkStatistics } from '../core/machine/statistics.js';

/** At most five updates a second: enough to watch, little enough to cost nothing and to stay readable. */
const MIN_INTERVAL_MS = 200;

/** What the progress line reads from a walk (a `Machine`). */
export interface ProgressSource {
  readonly steps: number;
  statistics(): WalkStatistics;
  /** Progress of the current model's stop condition, 0..1. */
  fulfilment(): number;
}

/** How the line is drawn. */
export interface ProgressOptions {
  /** Redraw one line in place (a terminal) rather than write a line per update (a file or pipe). */
  readonly redraw: boolean;
  readonly clock?: () => number;
}

/**
 * The progress line of a long walk on stderr: steps, steps per second since the last update, edge and vertex
 * coverage and how far the current stop condition is. {@link update} may be called as often as the caller
 * likes; it draws at most every {@link MIN_INTERVAL_MS}.
 */
export class Progress {
  private readonly clock: () => number;
  private last: { time: number; steps: number };

  constructor(
    private readonly stream: Writable,
    private readonly source: ProgressSource,
    private readonly options: ProgressOptions,
  ) {
    this.clock = options.clock ?? (() => performance.now());
    this.last = { time: this.clock(), steps: source.steps };
  }

  /** Draws the line if the last one is old enough. */
  update(): void {
    if (this.clock() - this.last.time >= MIN_INTERVAL_MS) this.draw();
  }

  /** Draws the final figures and ends the line. */
  finish(): void {
    this.draw();
    if (this.options.redraw) this.stream.write('\n');
  }

  private draw(): void {
    const now = this.clock();
    const seconds = Math.max(now - this.last.time, 1) / 1000;
    const rate = Math.round((this.source.steps - this.last.steps) / seconds);
    this.last = { time: now, steps: this.source.steps };
    const { edgeCoverage, vertexCoverage } = this.source.statistics();
    // Some conditions count on past their goal (GraphWalker's ratios are uncapped); the line stops at 100 %.
    const fulfilment = Math.min(100, Math.floor(100 * this.source.fulfilment()));
    const line =
      `${count(this.source.steps)} steps, ${count(rate)} steps/s, edge coverage ${edgeCoverage}%, ` +
      `vertex coverage ${vertexCoverage}%, stop condition ${fulfilment}%`;
    // In a terminal: back to the start of the line, write, and erase what a longer earlier line left.
    this.stream.write(this.options.redraw ? `\r${line}\x1b[K` : `${line}\n`);
  }
}

function count(n: number): string {
  return n.toLocaleString('en-US');
}
