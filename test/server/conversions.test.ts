import { join } from 'node:path';
import { afterEach, beforeAll, describe, expect, it } from 'vitest';
import { loadPlugin } from '../../core/plugin-loader.js';
import { createRegistries, installPlugins, type Registries } from '../../core/plugin.js';
import { builtinPlugins } from '../../plugins/index.js';
import { isApiError } from '../../server/api-error.js';
import { serviceClosingError } from '../../server/closing.js';
import {
  isLargeConversion,
  isLargeWrite,
  LARGE_JSON_CHARS,
  LARGE_TEXT_CHARS,
  LARGE_WRITE_CHARS,
  LARGE_WRITE_ELEMENTS,
} from '../../server/conversion/conversion-placement.js';
import { Conversions, type ConversionsOptions } from '../../server/conversion/conversions.js';
import type { FileConversionOutcome } from '../../server/conversion/model-conversion.js';
import { ensureBuilt, ROOT } from '../cli/online-helpers.js';

/**
 * Where a conversion runs (server/conversion/): a user's format (test/fixtures/plugins/thread-format.mjs) says
 * which thread read or wrote its text, so these tests see a small conversion stay on the event loop, a large one
 * go to the conversion thread with the user's plugin loaded there, the same refusal in both places, the bound
 * on what the thread holds, and the close.
 */

const PLUGIN = { specifier: './test/fixtures/plugins/thread-format.mjs', fromDirectory: ROOT };

let registries: Registries;
const opened: Conversions[] = [];
const notes: string[] = [];

beforeAll(async () => {
  ensureBuilt();
  registries = createRegistries();
  await installPlugins(registries, [...builtinPlugins(), await loadPlugin(PLUGIN.specifier, PLUGIN.fromDirectory)]);
}, 120_000);

afterEach(async () => {
  await Promise.all(opened.splice(0).map((conversions) => conversions.close(serviceClosingError())));
  notes.length = 0;
});

function conversions(options: Partial<ConversionsOptions> = {}): Conversions {
  const made = new Conversions({ registries, thread: { plugins: [PLUGIN] }, note: (_level, message) => notes.push(message), ...options });
  opened.push(made);
  return made;
}

/** A `.threads` text of `chars` characters or more: vertex names, one a line. */
function threadsText(chars: number, first = 'v_First'): string {
  const lines = [first];
  for (let i = 0; lines.join('\n').length < chars; i++) lines.push(`v_${i}`.padEnd(40, 'x'));
  return lines.join('\n');
}

/** The model file of a conversion to JSON. */
function modelOf(outcome: FileConversionOutcome): { models: Array<{ properties: { readInThread: number }; vertices: unknown[] }> } {
  expect(outcome).toHaveProperty('json');
  return JSON.parse((outcome as { json: string }).json);
}

/** The thread that read a converted `.threads` text: 0 for the event loop. */
function readIn(outcome: FileConversionOutcome): number {
  return modelOf(outcome).models[0].properties.readInThread;
}

describe('the placement of a conversion', () => {
  it('sends GraphML and plugin formats to the thread from 64 KiB, JSON from 1 MiB, and writes from 128 KiB or 1,000 elements', () => {
    expect(isLargeConversion('x'.repeat(LARGE_TEXT_CHARS - 1), 'graphml')).toBe(false);
    expect(isLargeConversion('x'.repeat(LARGE_TEXT_CHARS), 'graphml')).toBe(true);
    expect(isLargeConversion('x'.repeat(LARGE_TEXT_CHARS), 'threads')).toBe(true);
    expect(isLargeConversion('x'.repeat(LARGE_JSON_CHARS - 1), 'json')).toBe(false);
    expect(isLargeConversion('x'.repeat(LARGE_JSON_CHARS), 'json')).toBe(true);
    expect(isLargeConversion('x'.repeat(LARGE_WRITE_CHARS), 'json', 'json')).toBe(false);
    expect(isLargeConversion('x'.repeat(LARGE_WRITE_CHARS), 'json', 'graphml')).toBe(true);
    expect(isLargeConversion('x'.repeat(LARGE_WRITE_CHARS - 1), 'json', 'dot')).toBe(false);
    expect(isLargeWrite('graphml', LARGE_WRITE_ELEMENTS)).toBe(true);
    expect(isLargeWrite('graphml', LARGE_WRITE_ELEMENTS - 1)).toBe(false);
    expect(isLargeWrite('json', 100 * LARGE_WRITE_ELEMENTS)).toBe(false);
  });
});

describe('Conversions', () => {
  it("converts a small text on the event loop and a large one in the thread, with the user's plugin loaded there", async () => {
    const service = conversions();
    expect(readIn(await service.convertFile({ text: 'v_A\nv_B', fileName: 'small.threads' }))).toBe(0);
    const large = threadsText(LARGE_TEXT_CHARS);
    const inThread = await service.convertFile({ text: large, fileName: 'large.threads' });
    expect(readIn(inThread)).not.toBe(0);
    // The thread is kept: the next large conversion runs in the same one.
    expect(readIn(await service.convertFile({ text: large, fileName: 'large.threads' }))).toBe(readIn(inThread));
    // Written in the thread too, and read back as the loop reads it: the same vertices.
    const written = await service.convertFile({ text: large, fileName: 'large.threads', format: 'threads' });
    expect(written).toEqual({ text: `written in thread ${String(readIn(inThread))}: ${large.split('\n').length}` });
    expect(modelOf(inThread).models[0].vertices).toEqual(large.split('\n').map((name, i) => ({ id: `v${i}`, name })));
    expect(notes).toEqual(['The conversion thread started: large model conversions run there, off the event loop.']);
  }, 60_000);

  it('refuses a text in the thread with the words the event loop refuses it with, whatever the format throws', async () => {
    const service = conversions();
    for (const start of ['fail', 'throw']) {
      const small = `${start}\n`;
      const large = threadsText(LARGE_TEXT_CHARS, start);
      const onLoop = await service.convertFile({ text: small, fileName: 'x.threads' });
      const inThread = await service.convertFile({ text: large, fileName: 'x.threads' });
      // The format throws a plain Error, or a string: either is the format's refusal of the file, named so.
      const refusal = (text: string): string =>
        start === 'fail'
          ? `The model file does not read: x.threads: the threads format could not read it: a .threads text cannot start with "fail" (${text.length} characters)`
          : `The model file does not read: x.threads: the threads format could not read it: no Error, only a string (${text.length} characters)`;
      expect(onLoop).toEqual({ refused: refusal(small) });
      expect(inThread).toEqual({ refused: refusal(large) });
    }
    // A model file without models, and GraphML that is not well-formed, are refused in the thread as on the loop.
    const notGraphml = `<graphml>${' '.repeat(LARGE_TEXT_CHARS)}<graph>`;
    const failure = (text: string) => service.graphmlAsJson(text).then(() => undefined, (error: unknown) => error as Error & { code?: string });
    const [loopError, threadError] = await Promise.all([failure('<graphml><graph>'), failure(notGraphml)]);
    expect(loopError?.code).toBe('WALKER_MODEL_SYNTAX');
    expect(threadError).toMatchObject({ name: 'WalkerError', code: loopError?.code });
    expect(threadError?.message.replace(/column \d+/, 'column N')).toBe(loopError?.message.replace(/column \d+/, 'column N'));
  }, 60_000);

  it('answers 503 conversions_busy beyond what the thread may hold, and takes more once it has answered', async () => {
    const service = conversions({ maxThreadConversions: 1 });
    const large = threadsText(LARGE_TEXT_CHARS);
    const first = service.convertFile({ text: large, fileName: 'large.threads' });
    const second = service.convertFile({ text: large, fileName: 'large.threads' }).catch((error: unknown) => error);
    const refused = await second;
    expect(isApiError(refused) && refused.code === 'conversions_busy' && refused.statusCode === 503).toBe(true);
    expect((refused as Error).message).toBe('1 large model conversions are waiting or under way, as many as the service takes at once; ask again once one has been answered.');
    // A small one is not held back.
    expect(readIn(await service.convertFile({ text: 'v_A', fileName: 'small.threads' }))).toBe(0);
    expect(readIn(await first)).not.toBe(0);
    expect(readIn(await service.convertFile({ text: large, fileName: 'large.threads' }))).not.toBe(0);
  }, 60_000);

  it('fails what the thread holds when it closes, and every large conversion after, while small ones go on', async () => {
    const service = conversions();
    const large = threadsText(LARGE_TEXT_CHARS);
    const held = service.convertFile({ text: large, fileName: 'large.threads' }).catch((error: unknown) => error);
    const closing = serviceClosingError();
    await service.close(closing);
    expect(await held).toBe(closing);
    await expect(service.convertFile({ text: large, fileName: 'large.threads' })).rejects.toBe(closing);
    expect(readIn(await service.convertFile({ text: 'v_A', fileName: 'small.threads' }))).toBe(0);
  }, 60_000);

  it('stops a conversion past its time limit with its thread, answers 422, and converts the ones queued behind it in a new thread', async () => {
    const service = conversions({ limits: { timeLimitMs: 1000, memoryMiB: 1024 } });
    const large = threadsText(LARGE_TEXT_CHARS);
    const first = await service.convertFile({ text: large, fileName: 'large.threads' });
    const started = performance.now();
    const endless = service.convertFile({ text: threadsText(LARGE_TEXT_CHARS, 'loop'), fileName: 'endless.threads' }).catch((error: unknown) => error);
    const behind = service.convertFile({ text: large, fileName: 'large.threads' });
    const refused = await endless;
    expect(performance.now() - started).toBeGreaterThanOrEqual(1000);
    expect(isApiError(refused) && refused.code === 'conversion_limit_reached' && refused.statusCode === 422).toBe(true);
    expect((refused as Error).message).toBe(
      'The model conversion ran past its time limit of 1000 ms (--conversion-timeout), and was stopped; a smaller model, or the limit raised, converts.',
    );
    // Queued behind it in the thread that was stopped, it ran in the next one.
    const after = readIn(await behind);
    expect(after).not.toBe(0);
    expect(after).not.toBe(readIn(first));
    expect(readIn(await service.convertFile({ text: large, fileName: 'large.threads' }))).toBe(after);
  }, 60_000);

  it('converts on the event loop when a plugin has no source to load it from, or the thread cannot start', async () => {
    const large = threadsText(LARGE_TEXT_CHARS);
    expect(readIn(await conversions({ thread: undefined }).convertFile({ text: large, fileName: 'large.threads' }))).toBe(0);
    const missing = { specifier: join(ROOT, 'test', 'fixtures', 'plugins', 'no-such-plugin.mjs'), fromDirectory: ROOT };
    const broken = conversions({ thread: { plugins: [missing] } });
    expect(readIn(await broken.convertFile({ text: large, fileName: 'large.threads' }))).toBe(0);
    expect(notes).toEqual([expect.stringMatching(/^The conversion thread could not load the service's plugins: .*no-such-plugin.*; model conversions run on the event loop from now on\.$/)]);
    // It is not tried again.
    expect(readIn(await broken.convertFile({ text: large, fileName: 'large.threads' }))).toBe(0);
    expect(notes).toHaveLength(1);
  }, 60_000);
});
