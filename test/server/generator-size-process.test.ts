import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { ModelFileJson } from '../../core/model/types.js';
import { ensureBuilt, startService, type Service } from '../cli/online-helpers.js';
import { expectOthersServed } from './other-clients.js';

/**
 * Issue 21, finding 3, on the real process: a model whose generator string is a long `and` or a long sequence,
 * sent to `POST /walker/sessions`, held the event loop for seconds (300,000 operands: half a minute). It is
 * now refused at once, at the column where it passes the language's limits (docs/generators.md, "Limits"), and
 * the most those limits allow loads quickly; meanwhile another session's steps answer within 250 ms. The
 * strings are 50,000 long (about a megabyte), so that what is timed is the generator string's handling rather
 * than the reading of a body of many megabytes.
 */

/** How long another client may wait for a step while the request runs: the target. */
const STEP_MS = 250;

let service: Service;
/** The session another client steps while a request runs. */
let probe: string;

beforeAll(async () => {
  ensureBuilt();
  service = await startService(['-s', 'RESTFUL', '-p', '0']);
  const walking = await json('POST', '/walker/sessions', JSON.stringify(ring('random(never)')));
  expect(walking.status).toBe(201);
  probe = String(walking.body.id);
}, 120_000);

afterAll(async () => {
  await service?.stop();
});

/** A ring of n vertices v_0 → … → v_0 whose model runs `generator`. */
function ring(generator: string, n = 3): ModelFileJson {
  const vertices = Array.from({ length: n }, (_, i) => ({ id: `v${i}`, name: `v_${i}` }));
  const edges = Array.from({ length: n }, (_, i) => ({ id: `e${i}`, name: `e_${i}`, sourceVertexId: `v${i}`, targetVertexId: `v${(i + 1) % n}` }));
  return { models: [{ id: 'ring', name: 'Ring', generator, startElementId: 'v0', vertices, edges }] };
}

interface Answer {
  readonly status: number;
  readonly body: Record<string, unknown>;
}

async function json(method: string, path: string, body?: string): Promise<Answer> {
  const response = await fetch(`${service.url}${path}`, { method, body });
  return { status: response.status, body: (await response.json()) as Record<string, unknown> };
}

/**
 * Runs `request` while another session steps, and expects no step to have waited more than {@link STEP_MS}
 * beyond what the machine alone makes it wait (expectOthersServed); answers the request's answer, and deletes a
 * session it made.
 */
async function served(request: () => Promise<Answer>): Promise<Answer> {
  const answer = await expectOthersServed(service, probe, request, STEP_MS);
  if (answer.status === 201) await fetch(`${service.url}/walker/sessions/${String(answer.body.id)}`, { method: 'DELETE' });
  return answer;
}

describe('a long generator string on POST /walker/sessions', () => {
  it('refuses 50,000 operands of an `and` at the one too many, and no step waits meanwhile', async () => {
    const text = `random(${Array.from({ length: 50_000 }, () => 'edge_coverage(100)').join(' and ')})`;
    const answer = await served(() => json('POST', '/walker/sessions', JSON.stringify(ring(text))));
    expect(answer.status).toBe(422);
    expect(answer.body.code).toBe('invalid_model');
    const column = 8 + 1000 * 'edge_coverage(100) and '.length;
    expect(answer.body.message).toMatch(/^Model 'Ring': Generator '…/);
    expect(answer.body.message).toContain(`', column ${column}: expected no more than 1000 stop conditions in one generator`);
    expect(String(answer.body.message).length).toBeLessThan(400);
  });

  it('refuses a sequence of 50,000 generators at the one too many, and no step waits meanwhile', async () => {
    const text = Array.from({ length: 50_000 }, () => 'random(length(1))').join(' ');
    const answer = await served(() => json('POST', '/walker/sessions', JSON.stringify(ring(text))));
    expect(answer.status).toBe(422);
    expect(answer.body.message).toMatch(/^Model 'Ring': Generator '…[^']*', column 18001: expected no more than 1000 generators in a sequence/);
  });

  it('loads the most the limits allow, ten generators of a thousand targets on a model of 1,000 vertices, and no step waits meanwhile', async () => {
    const generator = (g: number) =>
      `a_star(${Array.from({ length: 1000 }, (_, i) => `reached_vertex(v_${(g * 100 + i) % 1000})`).join(' and ')})`;
    const body = JSON.stringify(ring(Array.from({ length: 10 }, (_, g) => generator(g)).join(' '), 1000));
    // Once first, so that what is timed is the load and not the process compiling the code it runs for the first time.
    const first = await json('POST', '/walker/sessions', body);
    await fetch(`${service.url}/walker/sessions/${String(first.body.id)}`, { method: 'DELETE' });
    const answer = await served(() => json('POST', '/walker/sessions', body));
    expect(answer.status).toBe(201);
  });
});
