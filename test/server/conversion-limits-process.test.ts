import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { LARGE_TEXT_CHARS } from '../../server/conversion/conversion-placement.js';
import { ensureBuilt, startService, type Service } from '../cli/online-helpers.js';
import { pingPong } from './models.js';
import { expectOthersServed, json, sendJson } from './other-clients.js';

/**
 * What one large conversion may take of the conversion thread (`--conversion-timeout`, `--conversion-memory`), on
 * the real process: a user's format (test/fixtures/plugins/thread-format.mjs) that never ends reading, or that
 * takes memory until there is none, is stopped with its thread and answered 422, while another session walks
 * on; the next conversion runs in a new thread, and the service lives on.
 */

const PLUGIN = './test/fixtures/plugins/thread-format.mjs';

/** The services of the file, each with a session `probe` that another client walks. */
const services: Array<{ service: Service; probe: string }> = [];

beforeAll(() => ensureBuilt(), 120_000);

afterAll(async () => {
  for (const { service } of services.splice(0)) expect(await service.stop()).toBe(0);
});

/** A service with the user's format and `limits`. */
async function serve(limits: readonly string[]): Promise<{ service: Service; probe: string }> {
  const service = await startService(['-s', 'RESTFUL', '-p', '0', '--plugin', PLUGIN, ...limits]);
  const created = await json(service.url, 'POST', '/walker/sessions', JSON.stringify(pingPong('probe')));
  services.push({ service, probe: String(created.body.id) });
  expect(created.status).toBe(201);
  return services[services.length - 1];
}

/** A `.threads` text large enough for the conversion thread, whose first line is `first`. */
function threadsText(first: string): string {
  return [first, ...Array.from({ length: LARGE_TEXT_CHARS / 40 + 1 }, (_, i) => `v_${i}`.padEnd(40, 'x'))].join('\n');
}

function convert(service: Service, text: string): Promise<{ status: number; body: Record<string, unknown> }> {
  return sendJson(service.url, 'POST', '/walker/drafts/convert', { text, file_name: 'model.threads' });
}

/** The thread that read a converted `.threads` text (0: the event loop). */
function readIn(answer: { body: Record<string, unknown> }): number {
  return (answer.body.model as { models: Array<{ properties: { readInThread: number } }> }).models[0].properties.readInThread;
}

describe('a large conversion past the limits of the conversion thread', () => {
  it('that never ends is stopped at --conversion-timeout and answered 422, and the next runs in a new thread', async () => {
    const { service, probe } = await serve(['--conversion-timeout', '1500']);
    const before = await convert(service, threadsText('v_First'));
    expect(before.status).toBe(200);
    const started = performance.now();
    const endless = await expectOthersServed(service, probe, () => convert(service, threadsText('loop')));
    expect(performance.now() - started).toBeGreaterThanOrEqual(1500);
    expect(endless).toEqual({
      status: 422,
      body: {
        code: 'conversion_limit_reached',
        message: 'The model conversion ran past its time limit of 1500 ms (--conversion-timeout), and was stopped; a smaller model, or the limit raised, converts.',
      },
    });
    const after = await convert(service, threadsText('v_First'));
    expect(after.status).toBe(200);
    expect(readIn(after)).not.toBe(0);
    expect(readIn(after)).not.toBe(readIn(before));
  }, 60_000);

  it('that takes memory without end is stopped at --conversion-memory and answered 422, and the service lives on', async () => {
    // The default time limit: on a busy machine the thread may take seconds to fill its memory.
    const { service, probe } = await serve(['--conversion-memory', '128']);
    const growing = await expectOthersServed(service, probe, () => convert(service, threadsText('grow')));
    expect(growing).toEqual({
      status: 422,
      body: {
        code: 'conversion_limit_reached',
        message:
          "The model conversion needed more than the conversion thread's 128 MiB of memory (--conversion-memory), and was stopped; a smaller model, or the limit raised, converts.",
      },
    });
    const next = await convert(service, threadsText('v_First'));
    expect(next.status).toBe(200);
    expect(readIn(next)).not.toBe(0);
    expect((await json(service.url, 'GET', `/walker/sessions/${probe}/getNext`)).body.result).toBe('ok');
  }, 120_000);
});
