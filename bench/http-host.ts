import http from 'node:http';
import { performance } from 'node:perf_hooks';
import { Worker } from 'node:worker_threads';
import type { HostKind } from './service-host.js';

/** A server in a worker thread, and a client with one keep-alive connection to it. */
export class Host {
  private constructor(
    private readonly worker: Worker,
    readonly client: Client,
  ) {}

  /** A new client with a keep-alive connection of its own to the same server. */
  newClient(): Client {
    return new Client(this.client.port);
  }

  static async start(kind: HostKind): Promise<Host> {
    const worker = new Worker(new URL('./service-host.js', import.meta.url), { workerData: { kind } });
    const port = await new Promise<number>((resolve, reject) => {
      worker.once('message', (m: { port: number }) => resolve(m.port));
      worker.once('error', reject);
    });
    return new Host(worker, new Client(port));
  }

  async close(): Promise<void> {
    this.client.close();
    this.worker.postMessage('close');
    await new Promise((resolve) => this.worker.once('exit', resolve));
  }
}

/** One keep-alive connection, one request at a time. */
export class Client {
  private readonly agent = new http.Agent({ keepAlive: true, maxSockets: 1 });

  constructor(readonly port: number) {}

  /** Steps per second of hasNext/getNext under `prefix` for `ms`; restarts the walk if it ever stops. */
  async loop(ms: number, prefix: string): Promise<number> {
    let steps = 0;
    const start = performance.now();
    while (performance.now() - start < ms) {
      const has = await this.send('GET', `${prefix}/hasNext`);
      const next = has.includes('"true"') ? await this.send('GET', `${prefix}/getNext`) : '';
      if (next.includes('"result":"ok"')) steps++;
      else await this.send('PUT', `${prefix}/restart`);
    }
    return Math.round((steps * 1000) / (performance.now() - start));
  }

  send(method: string, path: string, body?: string): Promise<string> {
    return new Promise((resolve, reject) => {
      const headers = body === undefined ? undefined : { 'content-length': Buffer.byteLength(body) };
      const request = http.request({ agent: this.agent, host: '127.0.0.1', port: this.port, method, path, headers }, (response) => {
        let text = '';
        response.setEncoding('utf8');
        response.on('data', (chunk: string) => (text += chunk));
        response.on('end', () => resolve(text));
      });
      request.on('error', reject);
      request.end(body);
    });
  }

  close(): void {
    this.agent.destroy();
  }
}
