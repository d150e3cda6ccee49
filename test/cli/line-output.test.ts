import { Writable } from 'node:stream';
import { describe, expect, it } from 'vitest';
import { LineOutput, OutputError } from '../../cli/line-output.js';

/** A stream that takes a chunk only when the test says so, like a pipe whose reader is slow. */
class HeldSink extends Writable {
  readonly chunks: string[] = [];
  private readonly held: Array<() => void> = [];

  constructor() {
    super({ highWaterMark: 1024, decodeStrings: false });
  }

  override _write(chunk: string, _encoding: BufferEncoding, done: (error?: Error | null) => void): void {
    this.chunks.push(String(chunk));
    this.held.push(() => done());
  }

  release(): void {
    for (const done of this.held.splice(0)) done();
  }
}

/** A stream whose every write fails with this error code. */
function failingSink(code: string): Writable {
  return new Writable({
    write(_chunk, _encoding, done) {
      done(Object.assign(new Error(`write ${code}`), { code }));
    },
  });
}

const LINE = `${'x'.repeat(99)}\n`;

/** Adds lines until the output asks for a flush; answers how many it took. */
function fillChunk(output: LineOutput): number {
  let lines = 1;
  while (!output.add(LINE)) lines++;
  return lines;
}

describe('LineOutput', () => {
  it('gathers lines into chunks instead of writing each one', async () => {
    const sink = new HeldSink();
    const output = new LineOutput(sink, () => 0);
    const lines = fillChunk(output);
    expect(lines).toBeGreaterThan(100);
    expect(sink.chunks).toEqual([]);
    sink.release();
    const flushed = output.flush();
    sink.release();
    await flushed;
    expect(sink.chunks).toEqual([LINE.repeat(lines)]);
  });

  it('waits for the stream to drain before the walk goes on', async () => {
    const sink = new HeldSink();
    const output = new LineOutput(sink, () => 0);
    fillChunk(output);
    let resolved = false;
    const flushed = output.flush().then(() => (resolved = true));
    await new Promise((resolve) => setTimeout(resolve, 20));
    expect(resolved).toBe(false);
    sink.release();
    await flushed;
    expect(resolved).toBe(true);
  });

  it('flushes a slow walk after 50 ms even when the chunk is not full', () => {
    let now = 0;
    const output = new LineOutput(new HeldSink(), () => now);
    expect(output.add(LINE)).toBe(false);
    now = 49;
    expect(output.add(LINE)).toBe(false);
    now = 50;
    expect(output.add(LINE)).toBe(true);
  });

  it('closes quietly when the reader has gone (EPIPE)', async () => {
    const output = new LineOutput(failingSink('EPIPE'), () => 0);
    fillChunk(output);
    await output.flush();
    expect(output.open).toBe(false);
    output.add(LINE);
    await expect(output.finish()).resolves.toBeUndefined();
  });

  it('reports any other write failure as an OutputError', async () => {
    const output = new LineOutput(failingSink('EIO'), () => 0);
    fillChunk(output);
    await output.flush();
    expect(output.open).toBe(false);
    const error = await output.finish().then(() => undefined, (e: unknown) => e);
    expect(error).toBeInstanceOf(OutputError);
    expect((error as Error).message).toBe('Could not write the output: write EIO');
  });

  it('writes the last lines on finish and waits until they are taken', async () => {
    const sink = new HeldSink();
    const output = new LineOutput(sink, () => 0);
    output.add('a\n');
    output.add('b\n');
    const finished = output.finish();
    await new Promise((resolve) => setImmediate(resolve));
    expect(sink.chunks).toEqual(['a\nb\n']);
    sink.release();
    await finished;
  });
});
