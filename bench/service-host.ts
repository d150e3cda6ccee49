import { parentPort, workerData } from 'node:worker_threads';
import Fastify, { type FastifyInstance } from 'fastify';
import { buildApp } from '../server/app.js';
import { graphwalkerGetNextResponse, hasNextResponse, walkerGetNextResponse } from '../server/routes/execution/schemas.js';

/**
 * The server side of the service benchmark, in a worker thread so that server and client each have a core,
 * as they would in two processes. `workerData.kind` says what to serve: walker's app (started with
 * `--verbose`, or with `--real-clock`, or neither), or a bare Fastify app whose hasNext/getNext answer constants in both dialects —
 * the most this transport can do on the machine.
 */
export type HostKind = 'walker' | 'walker-verbose' | 'walker-real-clock' | 'bare';

const STEP = Object.freeze({ result: 'ok', currentElementName: 'v_Constant', currentElementID: 'v0', modelId: 'bench' });
const HAS_NEXT = Object.freeze({ result: 'ok', hasNext: 'true' });
/** A verbose GraphWalker step of Login.json's size: what `/graphwalker/getNext --verbose` answers there. */
const VERBOSE_STEP = Object.freeze({
  result: 'ok',
  currentElementName: 'e_InvalidCredentials',
  modelName: 'Login',
  currentElementID: 'e_invalid',
  data: [{ signedIn: 'false' }, { remember: 'false' }, { attempts: '1' }],
  properties: [],
  actions: [{ Action: 'attempts++;' }],
});

/** The same paths and response schemas as the execution routes, with constant answers. */
async function bareApp(): Promise<FastifyInstance> {
  const app = Fastify({ logger: false });
  app.get('/walker/hasNext', { schema: { response: hasNextResponse } }, async () => HAS_NEXT);
  app.get('/walker/getNext', { schema: { response: walkerGetNextResponse } }, async () => STEP);
  app.get('/graphwalker/hasNext', { schema: { response: hasNextResponse } }, async () => HAS_NEXT);
  app.get('/graphwalker/getNext', { schema: { response: graphwalkerGetNextResponse } }, async () => VERBOSE_STEP);
  return app;
}

async function host(kind: HostKind): Promise<void> {
  const app =
    kind === 'bare'
      ? await bareApp()
      : await buildApp({ stepReport: { verbose: kind === 'walker-verbose' }, scriptLimits: { realClock: kind === 'walker-real-clock' } });
  await app.listen({ port: 0, host: '127.0.0.1' });
  const address = app.server.address();
  const port = typeof address === 'object' && address !== null ? address.port : 0;
  parentPort?.once('message', () => {
    void app.close().then(() => process.exit(0));
  });
  parentPort?.postMessage({ port });
}

await host((workerData as { kind: HostKind }).kind);
