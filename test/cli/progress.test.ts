import { Writable } from 'node:stream';
import { describe, expect, it } from 'vitest';
import type { WalkStatistics } from '../../core/machine/statistics.js';
import { Progress, type ProgressSource } from '../../cli/progress.js';

function collector(): { stream: Writable; text(): string } {
  const chunks: string[] = [];
  const stream = new Writable({
    write(chunk, _encoding, done) {
      chunks.push(String(chunk));
      done();
    },
  });
  return { stream, text: () => chunks.join('') };
}

/** A walk that has taken `steps` steps, at 40 % edge and 75 % vertex coverage, half-way to its stop condition. */
function walk(): ProgressSource & { steps: number } {
  return {
    steps: 0,
    statistics: () => ({ edgeCoverage: 40, vertexCoverage: 75 }) as WalkStatistics,
    fulfilment: () => 0.5,
  };
}

describe('Progress', () => {
  it('draws at most every 200 ms, however often it is asked', () => {
    const out = collector();
    const source = walk();
    let now = 0;
    const progress = new Progress(out.stream, source, { redraw: false, clock: () => now });
    for (now = 0; now <= 1000; now += 10) {
      source.steps += 100;
      progress.update();
    }
    const lines = out.text().trimEnd().split('\n');
    expect(lines).toHaveLength(5);
    // At 200 ms: 21 updates of 100 steps, 2,100 steps in 0.2 s.
    expect(lines[0]).toBe('2,100 steps, 10,500 steps/s, edge coverage 40%, vertex coverage 75%, stop condition 50%');
  });

  it('writes plain lines when it cannot redraw, and ends with the final figures', () => {
    const out = collector();
    const source = walk();
    let now = 0;
    const progress = new Progress(out.stream, source, { redraw: false, clock: () => now });
    source.steps = 1234;
    now = 1000;
    progress.finish();
    expect(out.text()).toBe('1,234 steps, 1,234 steps/s, edge coverage 40%, vertex coverage 75%, stop condition 50%\n');
  });

  it('redraws one line in a terminal and ends it on finish', () => {
    const out = collector();
    const source = walk();
    let now = 0;
    const progress = new Progress(out.stream, source, { redraw: true, clock: () => now });
    now = 200;
    progress.update();
    now = 300;
    progress.finish();
    expect(out.text()).toMatch(/^\r0 steps, .*stop condition 50%\x1b\[K\r0 steps, .*stop condition 50%\x1b\[K\n$/);
  });
});
