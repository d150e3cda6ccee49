import type { AddressInfo } from 'node:net';
import { performance } from 'node:perf_hooks';
import { generateModel } from '../core/model/generate.js';
import type { ModelJson } from '../core/model/types.js';
import { deleteElement } from '../server/drafts/delete-element.js';
import { Draft } from '../server/drafts/draft.js';
import { DraftModel } from '../server/drafts/draft-model.js';
import { addEdge } from '../server/drafts/edges.js';
import { addVertex } from '../server/drafts/vertices.js';
import Fastify from 'fastify';
import { buildApp } from '../server/app.js';
import { BenchClient, type BenchRequest } from './drafts-client.js';
import type { BenchRow, BenchSection } from './report.js';

const SECTION = 'drafts';
const SUBJECT = 'generated 10k vertices / 30k edges, one element per request';
const SIZE = { vertices: 10_000, edges: 30_000, seed: 2026 };
/** Requests timed around each probe point; the median of the window is its cost. */
const WINDOW = 500;
/** Vertex-and-edge pairs added to a throwaway draft first, so that the probes compare warm (JIT-compiled) code. */
const WARMUP = 5_000;
/**
 * How far the cost at element 30,000 may be above that at element 10. Copying the model per change would make
 * it thousands of times; a 3,000-fold larger model still costs somewhat more from cache misses in its Maps.
 */
const MAX_RATIO = 2;

/**
 * Builds a 10,000-vertex, 30,000-edge model one element per HTTP request over one keep-alive connection to a
 * listening server, then exports and validates it. The cost of a mutation must not grow with the model (no
 * copy of the model per change): the section compares the median request time around element 10 with that
 * around element 30,000, and the same in process without HTTP.
 */
export const benchDrafts: BenchSection = async () => {
  const app = await buildApp();
  await app.listen({ host: '127.0.0.1', port: 0 });
  const client = new BenchClient((app.server.address() as AddressInfo).port);
  try {
    await warmUp(client);
    const model = generateModel(SIZE).models[0];
    const created = await client.send('POST', '/walker/drafts', { model_id: model.id, generator: model.generator });
    const base = `/walker/drafts/${created.draft_id}`;
    const built = await client.run(buildRequests(base, model));
    await client.send('PATCH', base, { start_element_id: model.startElementId });
    const exportMs = bestOf(await client.run(repeat(3, ['GET', base])));
    const validation = await client.run(repeat(3, ['GET', `${base}/validation`]));
    if (!validation.last.valid) {
      throw new Error(`the benchmark model does not validate: ${JSON.stringify(validation.last.issues[0])}`);
    }
    const bare = await barePostRate(buildRequests('/bare', model).slice(0, BARE_REQUESTS));
    return [bare, ...httpRows(built.times, built.totalMs, exportMs, bestOf(validation)), ...domainRows()];
  } finally {
    await client.close();
    await app.close();
  }
};

/** Requests sent to the bare route: enough for a steady rate, few enough to keep the section short. */
const BARE_REQUESTS = 20_000;

/**
 * The limit of this transport on this machine for the same kind of request: a bare Fastify route that parses
 * the JSON body and answers a small JSON object with 201, driven by the same client over one connection.
 */
async function barePostRate(requests: readonly BenchRequest[]): Promise<BenchRow> {
  const bare = Fastify();
  let revision = 0;
  bare.post('/bare/:kind', async (_request, reply) => reply.code(201).send({ revision: ++revision }));
  await bare.listen({ host: '127.0.0.1', port: 0 });
  const client = new BenchClient((bare.server.address() as AddressInfo).port);
  try {
    await client.run(requests.slice(0, WARMUP));
    const { times, totalMs } = await client.run(requests);
    const value = Math.round((times.length / totalMs) * 1000);
    return { section: SECTION, subject: 'bare Fastify POST route, same bodies (transport limit)', metric: 'requests/s', value };
  } finally {
    await client.close();
    await bare.close();
  }
}

function buildRequests(base: string, model: ModelJson): BenchRequest[] {
  const requests: BenchRequest[] = [];
  for (const v of model.vertices) {
    requests.push(['POST', `${base}/vertices`, JSON.stringify({ id: v.id, name: v.name })]);
  }
  for (const e of model.edges) {
    const ends = { source_vertex_id: e.sourceVertexId ?? null, target_vertex_id: e.targetVertexId };
    const body = { id: e.id, name: e.name, ...ends };
    requests.push(['POST', `${base}/edges`, JSON.stringify(body)]);
  }
  return requests;
}

async function warmUp(client: BenchClient): Promise<void> {
  const base = `/walker/drafts/${(await client.send('POST', '/walker/drafts')).draft_id}`;
  const requests: BenchRequest[] = [];
  for (let i = 0; i < WARMUP; i++) {
    requests.push(['POST', `${base}/vertices`, JSON.stringify({ id: `v${i}` })]);
    requests.push(['POST', `${base}/edges`, JSON.stringify({ source_vertex_id: `v${i}`, target_vertex_id: 'v0' })]);
  }
  requests.push(['DELETE', base]);
  await client.run(requests);
}

function httpRows(times: Float64Array, totalMs: number, exportMs: number, validateMs: number): BenchRow[] {
  const perSecond = Math.round((times.length / totalMs) * 1000);
  // Element 10 is a vertex and element 30,000 an edge (vertices come first); the in-process rows compare
  // like with like.
  const early = median(times.subarray(9, 9 + WINDOW));
  const late = median(times.subarray(29_999 - WINDOW / 2, 29_999 + WINDOW / 2));
  const ratio = round(late / early, 2);
  const row = (metric: string, value: number, target?: string, met?: boolean): BenchRow =>
    ({ section: SECTION, subject: SUBJECT, metric, value, target, met });
  return [
    row('mutations/s (one keep-alive connection)', perSecond, '>= 5,000', perSecond >= 5_000),
    // The mean above counts every pause of a busy machine; the median request time shows the steady rate.
    row('mutations/s at the median request time', Math.round(1000 / median(times))),
    row(`ms per mutation at element 10 (median of ${WINDOW})`, round(early, 3)),
    row(`ms per mutation at element 30,000 (median of ${WINDOW})`, round(late, 3)),
    row('cost at element 30,000 / cost at element 10', ratio, `~1 (<= ${MAX_RATIO})`, ratio <= MAX_RATIO),
    row('export ms (GET, best of 3)', round(exportMs, 1), '< 200', exportMs < 200),
    row('validation ms (GET, best of 3)', round(validateMs, 1), '< 200', validateMs < 200),
  ];
}

/** The same comparison without HTTP: an edge added and deleted again on drafts of 10 and 30,000 elements. */
function domainRows(): BenchRow[] {
  const drafts = [filledDraft(10), filledDraft(30_000)];
  let small = Infinity;
  let large = Infinity;
  // Alternating runs, best of five each, so that a busy moment of the machine hits neither size alone.
  for (let run = 0; run < 5; run++) {
    small = Math.min(small, addAndDelete(drafts[0]));
    large = Math.min(large, addAndDelete(drafts[1]));
  }
  const ratio = round(large / small, 2);
  const subject = 'in process, add + delete one edge (no HTTP)';
  return [
    { section: SECTION, subject, metric: 'µs at 10 elements', value: round(small, 3) },
    { section: SECTION, subject, metric: 'µs at 30,000 elements', value: round(large, 3) },
    {
      section: SECTION,
      subject,
      metric: 'cost at 30,000 / cost at 10',
      value: ratio,
      target: `~1 (<= ${MAX_RATIO})`,
      met: ratio <= MAX_RATIO,
    },
  ];
}

function filledDraft(size: number): Draft {
  const draft = new Draft('bench', new DraftModel('bench'), 0);
  const vertices = Math.max(2, size >> 2);
  for (let i = 0; i < vertices; i++) draft.mutate(undefined, addVertex({ id: `v${i}` }, Infinity));
  for (let i = vertices; i < size; i++) {
    const edge = { source_vertex_id: `v${i % vertices}`, target_vertex_id: `v${(i * 7 + 1) % vertices}` };
    draft.mutate(undefined, addEdge(edge, Infinity));
  }
  return draft;
}

/**
 * Microseconds per add-and-delete cycle. Every cycle uses a new id, as an editor would: re-adding one id
 * thousands of times measures V8's hash-table tombstones (one bucket's chain grows until the next rehash),
 * not the draft.
 */
function addAndDelete(draft: Draft): number {
  const cycles = 50_000;
  const options = { cascade: false, cleanup_references: false };
  const start = performance.now();
  for (let i = 0; i < cycles; i++) {
    const id = `probe${i}`;
    draft.mutate(undefined, addEdge({ id, source_vertex_id: `v${i & 1}`, target_vertex_id: 'v1' }, Infinity));
    draft.mutate(undefined, deleteElement(id, options));
  }
  return ((performance.now() - start) * 1000) / cycles;
}

function repeat<T>(times: number, item: T): T[] {
  return Array.from({ length: times }, () => item);
}

function bestOf(batch: { times: Float64Array }): number {
  return Math.min(...batch.times);
}

function median(values: Float64Array): number {
  const sorted = Float64Array.from(values).sort();
  return sorted[sorted.length >> 1];
}

function round(value: number, digits: number): number {
  const f = 10 ** digits;
  return Math.round(value * f) / f;
}
