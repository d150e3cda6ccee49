import { Worker } from 'node:worker_threads';

/** One request: method, path and the JSON body text (or none). */
export type BenchRequest = readonly [method: string, path: string, body?: string];

/** What a batch of requests gave: the time of each, in ms, and the parsed body of the last. */
export interface BatchResult {
  readonly times: Float64Array;
  readonly totalMs: number;
  readonly last: any;
}

/**
 * An HTTP client on its own thread, sending one request at a time over one keep-alive connection
 * (`http.Agent({keepAlive: true, maxSockets: 1})`). A client on the server's own thread would spend the
 * server's time on building and parsing its requests; a real client is another process. The worker is
 * plain JavaScript given as text, so that it runs the same from the TypeScript sources and from dist/.
 */
export class BenchClient {
  private readonly worker: Worker;
  private next = 0;

  constructor(port: number) {
    this.worker = new Worker(WORKER_SOURCE, { eval: true, workerData: { port } });
    this.worker.unref();
  }

  /** Sends the requests in order; rejects on the first answer that is not 2xx. */
  run(requests: readonly BenchRequest[]): Promise<BatchResult> {
    const id = this.next++;
    return new Promise((resolve, reject) => {
      const onMessage = (message: { id: number; error?: string } & BatchResult) => {
        if (message.id !== id) return;
        this.worker.off('message', onMessage);
        if (message.error) reject(new Error(message.error));
        else resolve(message);
      };
      this.worker.on('message', onMessage);
      this.worker.postMessage({ id, requests });
    });
  }

  /** One request; its parsed answer. */
  async send(method: string, path: string, body?: object): Promise<any> {
    return (await this.run([[method, path, body === undefined ? undefined : JSON.stringify(body)]])).last;
  }

  close(): Promise<number> {
    return this.worker.terminate();
  }
}

const WORKER_SOURCE = `
const { parentPort, workerData } = require('node:worker_threads');
const http = require('node:http');
const { performance } = require('node:perf_hooks');
const agent = new http.Agent({ keepAlive: true, maxSockets: 1 });

function send(method, path, body) {
  const headers = body === undefined
    ? {}
    : { 'content-type': 'application/json', 'content-length': Buffer.byteLength(body) };
  return new Promise((resolve, reject) => {
    const req = http.request({ host: '127.0.0.1', port: workerData.port, method, path, agent, headers }, (res) => {
      const chunks = [];
      res.on('data', (c) => chunks.push(c));
      res.on('end', () => {
        const text = Buffer.concat(chunks).toString('utf8');
        if (res.statusCode >= 300) reject(new Error(method + ' ' + path + ': ' + res.statusCode + ' ' + text));
        else resolve(text);
      });
    });
    req.on('error', reject);
    req.end(body);
  });
}

parentPort.on('message', async ({ id, requests }) => {
  const times = new Float64Array(requests.length);
  let text = '';
  const start = performance.now();
  try {
    for (let i = 0; i < requests.length; i++) {
      const t = performance.now();
      text = await send(requests[i][0], requests[i][1], requests[i][2]);
      times[i] = performance.now() - t;
    }
    const totalMs = performance.now() - start;
    parentPort.postMessage({ id, times, totalMs, last: text === '' ? undefined : JSON.parse(text) });
  } catch (error) {
    parentPort.postMessage({ id, error: String(error && error.message || error) });
  }
});
`;
