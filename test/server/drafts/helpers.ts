import type { FastifyInstance, InjectOptions } from 'fastify';
import type { Registries } from '../../../core/plugin.js';
import { buildApp, type BuildAppOptions } from '../../../server/app.js';
import type { DraftStore } from '../../../server/drafts/store.js';

/** A clock the test moves by hand. */
export interface FakeClock {
  ms: number;
}

/** The app and the handles tests reach into. */
export interface DraftTestApp {
  readonly app: FastifyInstance;
  readonly clock: FakeClock;
  readonly store: DraftStore;
  readonly registries: Registries;
}

/** The whole service as `walker online` builds it, on a fake clock; close it after the test. */
export async function draftApp(options: Omit<BuildAppOptions, 'now'> = {}): Promise<DraftTestApp> {
  const clock: FakeClock = { ms: 1_000_000 };
  const app = await buildApp({ ...options, now: () => clock.ms });
  return {
    app,
    clock,
    store: app.services.drafts,
    registries: app.services.registries,
  };
}

/** A response as tests look at it. */
export interface Answer {
  status: number;
  body: any;
  headers: Record<string, unknown>;
}

/** Sends a request; an object body goes as JSON. */
export async function call(app: FastifyInstance, method: InjectOptions['method'], url: string, body?: unknown, headers: Record<string, string> = {}): Promise<Answer> {
  const options: InjectOptions = { method, url, headers: { ...headers } };
  if (body !== undefined) {
    options.payload = typeof body === 'string' || Buffer.isBuffer(body) ? body : JSON.stringify(body);
    options.headers = { 'content-type': 'application/json', ...headers };
  }
  const res = await app.inject(options);
  const text = res.body;
  return { status: res.statusCode, body: text === '' ? undefined : JSON.parse(text), headers: res.headers };
}

/** Creates a draft and returns its id. */
export async function newDraft(app: FastifyInstance, body?: object): Promise<string> {
  const res = await call(app, 'POST', '/walker/drafts', body);
  if (res.status !== 201) throw new Error(`create failed: ${JSON.stringify(res.body)}`);
  return res.body.draft_id as string;
}

/**
 * A draft holding a small valid model: start edge `e0` into `v1`, `v1 ⇄ v2` by `e1`/`e2`, generator
 * `random(edge_coverage(100))`, start element `e0`. Revision 6 afterwards.
 */
export async function smallDraft(app: FastifyInstance): Promise<string> {
  const id = await newDraft(app, { model_id: 'small', name: 'Small', generator: 'random(edge_coverage(100))' });
  const base = `/walker/drafts/${id}`;
  await call(app, 'POST', `${base}/vertices`, { id: 'v1', name: 'v_One' });
  await call(app, 'POST', `${base}/vertices`, { id: 'v2', name: 'v_Two' });
  await call(app, 'POST', `${base}/edges`, { id: 'e0', name: 'e_Start', target_vertex_id: 'v1' });
  await call(app, 'POST', `${base}/edges`, { id: 'e1', name: 'e_Go', source_vertex_id: 'v1', target_vertex_id: 'v2' });
  await call(app, 'POST', `${base}/edges`, { id: 'e2', name: 'e_Back', source_vertex_id: 'v2', target_vertex_id: 'v1' });
  const res = await call(app, 'PATCH', base, { start_element_id: 'e0' });
  if (res.status !== 200) throw new Error(`setup failed: ${JSON.stringify(res.body)}`);
  return id;
}

/** The export and revision of a draft, to compare before and after a request that must change nothing. */
export async function snapshot(app: FastifyInstance, id: string): Promise<unknown> {
  return (await call(app, 'GET', `/walker/drafts/${id}`)).body;
}
