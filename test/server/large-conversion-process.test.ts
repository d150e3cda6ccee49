import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { generateModel } from '../../core/model/generate.js';
import { withInferredStarts } from '../../core/model/start-element.js';
import type { ModelFileJson } from '../../core/model/types.js';
import { graphmlFormat } from '../../plugins/formats/graphml/index.js';
import { ensureBuilt, startService, type Service } from '../cli/online-helpers.js';
import { pingPong } from './models.js';
import { expectOthersServed, json, sendJson, TARGET_MS } from './other-clients.js';
import { GraphWalkerSocket } from './websocket-client.js';

/**
 * A large model conversion runs in the service's conversion thread (server/conversion/conversions.ts), on the
 * real process over loopback: while `POST /walker/drafts/convert` or the WebSocket's `convertGraphml` reads
 * and writes a GraphML document that holds the event loop for seconds, another session's getNext is served,
 * the answer is the one the event loop would give (the same model, its start settled as a load settles it, the
 * same text, the same refusal), and the service is alive afterwards.
 */

let service: Service;
let probe: string;

beforeAll(async () => {
  ensureBuilt();
  service = await startService(['-s', 'RESTFUL', '-p', '0', '--log-level', 'info']);
  const created = await json(service.url, 'POST', '/walker/sessions', JSON.stringify(pingPong('probe')));
  expect(created.status).toBe(201);
  probe = String(created.body.id);
}, 120_000);

afterAll(async () => {
  await service?.stop();
});

/** A yEd document of `vertices` vertices and one edge more, with a guard on every edge and an action on every element. */
function graphml(vertices: number, seed: number): string {
  return (graphmlFormat.write as NonNullable<typeof graphmlFormat.write>)(generateModel({ vertices, edges: vertices + 1, seed, guards: true, actions: true }));
}

/** What the drafts' convert answers, read as JSON. */
function convert(body: object): Promise<{ status: number; body: Record<string, unknown> }> {
  return sendJson(service.url, 'POST', '/walker/drafts/convert', body);
}

/**
 * The document with its last edge pointing at no node: the reader finds it only once it has read everything
 * before it, so refusing it costs as much as reading the whole.
 */
function withUnknownTarget(text: string): string {
  const at = text.indexOf(' target="', text.lastIndexOf('<edge ')) + ' target="'.length;
  return `${text.slice(0, at)}nosuch${text.slice(at)}`;
}

/** Why the reader refuses a text, as it says it on the event loop. */
function readerRefusal(text: string, source: { path?: string }): string {
  try {
    graphmlFormat.read?.(text, source);
  } catch (error) {
    return (error as Error).message;
  }
  throw new Error('the text reads');
}

/** What the drafts' convert answers on the event loop for a text that does not read. */
function refusalOf(text: string, path: string): string {
  return `The model file does not read: ${readerRefusal(text, { path })}`;
}

describe('POST /walker/drafts/convert of a large GraphML document', () => {
  it('serves another session while one converts, and answers as the event loop would, as JSON and as GraphML', async () => {
    // 1,800 vertices: under the drafts' 1 MiB body once quoted as JSON; reading and writing it holds a core for
    // most of a second to seconds, by how busy the machine is.
    const text = graphml(1800, 1);
    expect(JSON.stringify({ text, file_name: 'big.graphml', format: 'graphml' }).length).toBeLessThan(1024 * 1024);
    const read = withInferredStarts(graphmlFormat.read?.(text, { path: 'big.graphml' })) as ModelFileJson;
    // The route's first request compiles its validator and serialiser on the loop (server/lazy-compilers.ts): a
    // small one pays for that first, so that what is measured is the large conversion.
    expect((await convert({ text: graphml(5, 1), file_name: 'small.graphml', format: 'graphml' })).status).toBe(200);
    const asGraphml = await expectOthersServed(service, probe, () => convert({ text, file_name: 'big.graphml', format: 'graphml' }));
    // Written back as it was read: the same text the writer makes of the same model on the loop.
    expect(asGraphml).toEqual({ status: 200, body: { text: graphmlFormat.write?.(read) } });
    expect(service.output().stderr).toContain('The conversion thread started: large model conversions run there, off the event loop.');
    // And as JSON, the model the reader makes on the loop.
    expect(await convert({ text, file_name: 'big.graphml' })).toEqual({ status: 200, body: { model: JSON.parse(JSON.stringify(read)) } });
  }, 300_000);

  it('answers a document that does not read with the code and message the event loop answers, then serves on', async () => {
    const whole = graphml(1800, 4);
    const broken = withUnknownTarget(whole);
    const refused = await expectOthersServed(service, probe, () => convert({ text: broken, file_name: 'broken.graphml' }));
    expect(refused).toEqual({ status: 422, body: { code: 'invalid_model', message: refusalOf(broken, 'broken.graphml') } });
    expect(refused.body.message).toContain("field 'target': the edge's target 'nosuchv0' is no node of the document");
    // A small one, which the loop reads, is refused in the same words.
    const small = graphml(5, 4);
    const smallBroken = withUnknownTarget(small);
    expect(await convert({ text: smallBroken, file_name: 'broken.graphml' })).toEqual({
      status: 422,
      body: { code: 'invalid_model', message: refusalOf(smallBroken, 'broken.graphml') },
    });
    // A format that writes nothing is refused before any conversion, as ever.
    expect((await convert({ text: whole, format: 'svg' })).body.code).toBe('invalid_model');
    // The service is alive: the probe walks on, and a small conversion answers at once.
    expect((await json(service.url, 'GET', `/walker/sessions/${probe}/getNext`)).body.result).toBe('ok');
    expect((await convert({ text: small, file_name: 'small.graphml' })).body.model).toEqual(JSON.parse(JSON.stringify(withInferredStarts(graphmlFormat.read?.(small, { path: 'small.graphml' })))));
  }, 300_000);
});

describe("the WebSocket's convertGraphml of a large document", () => {
  /**
   * The messages of one command on a connection of its own, opened just before and closed after: each
   * measured command then starts from a connection as a client opens it.
   */
  async function askOnce(message: object): Promise<Record<string, unknown>[]> {
    const socket = await GraphWalkerSocket.open(`${service.url.replace(/^http/, 'ws')}/`);
    try {
      return await socket.ask(message);
    } finally {
      await socket.close();
    }
  }

  it('serves another session while it reads, and answers as the event loop would, failures too', async () => {
    // 5,000 vertices: about 2.4 MB, about a second of a core.
    const text = graphml(5000, 5);
    const models = JSON.stringify(withInferredStarts(graphmlFormat.read?.(text, {})));
    const broken = withUnknownTarget(text);
    const message = readerRefusal(broken, {});
    // What the event loop does itself however the reading is placed: it reads the 2.4 MB message and writes the
    // answer, whose models are a JSON text inside JSON. That work, timed here at the machine's present pace,
    // may hold the other client too; three times it is room for the framing around it on a busy machine.
    const started = performance.now();
    JSON.parse(JSON.stringify({ command: 'convertGraphml', graphml: text }));
    JSON.stringify({ command: 'convertGraphml', success: true, models });
    const loopWork = performance.now() - started;
    const answer = await expectOthersServed(service, probe, () => askOnce({ command: 'convertGraphml', graphml: text }), Math.max(TARGET_MS, 3 * loopWork));
    expect(answer).toEqual([{ command: 'convertGraphml', success: true, models }]);
    expect(await askOnce({ command: 'convertGraphml', graphml: broken })).toEqual([
      { command: 'issues', issues: [message] },
      { command: 'convertGraphml', success: false, message },
    ]);
    expect(await askOnce({ command: 'mode' })).toEqual([expect.objectContaining({ command: 'mode', success: true })]);
    expect((await json(service.url, 'GET', `/walker/sessions/${probe}/getNext`)).body.result).toBe('ok');
  }, 300_000);
});
