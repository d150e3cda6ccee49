import { readFileSync } from 'node:fs';
import { connect, type Socket } from 'node:net';
import { Worker } from 'node:worker_threads';

/**
 * Clients of the view's event streams as a hostile or a slow user plays them, for `npm run bench -- streams`
 * and the tests that run the real process: raw sockets that read everything or nothing, the service's memory,
 * and another client's latency while they do it.
 */

/** One event stream opened on a raw socket: the status line, and what arrived (counted, not kept, when reading). */
export interface RawStream {
  readonly socket: Socket;
  /** The answer's first line and headers, once they came. */
  readonly head: Promise<string>;
  /** Bytes received so far. */
  received(): number;
  /** Settles once the service has closed the connection. */
  readonly closed: Promise<void>;
}

/**
 * Opens `path` as an event stream on a socket of its own. A reader that does not read (`reads: false`) takes
 * the status line and nothing more: it leaves the rest where the kernel puts it, as a client that never reads.
 */
export function openStream(port: number, path: string, reads: boolean): RawStream {
  const socket = connect({ port, host: '127.0.0.1' });
  socket.on('error', () => {});
  socket.write(`GET ${path} HTTP/1.1\r\nHost: 127.0.0.1:${port}\r\nAccept: text/event-stream\r\n\r\n`);
  let bytes = 0;
  let text = '';
  const closed = new Promise<void>((resolve) => socket.once('close', () => resolve()));
  const head = new Promise<string>((resolve, reject) => {
    const onData = (chunk: Buffer): void => {
      bytes += chunk.length;
      if (text.length < 4096) text += chunk.toString('latin1');
      const end = text.indexOf('\r\n\r\n');
      if (end < 0) return;
      resolve(text.slice(0, end));
      if (!reads) {
        socket.off('data', onData);
        socket.pause();
      }
    };
    socket.on('data', onData);
    if (reads) socket.on('data', () => {});
    void closed.then(() => reject(new Error(`${path}: closed before an answer; received ${JSON.stringify(text.slice(0, 300))}`)));
  });
  head.catch(() => {});
  return { socket, head, received: () => bytes, closed };
}

/** The status code of an answer's head. */
export function statusOf(head: string): number {
  return Number(/^HTTP\/1\.1 (\d{3})/.exec(head)?.[1]);
}

/** The resident memory of a process, in MiB (Linux: /proc/<pid>/status). */
export function rssMiB(pid: number): number {
  const match = /VmRSS:\s+(\d+) kB/.exec(readFileSync(`/proc/${pid}/status`, 'utf8'));
  if (match === null) throw new Error(`no VmRSS in /proc/${pid}/status`);
  return Number(match[1]) / 1024;
}

/**
 * Another client stepping a session of its own, one getNext after another, noting how long each took. It
 * runs in a thread of its own, so that what the test's own thread does with its sockets (a thousand of them)
 * does not count as the service's slowness.
 */
export class Stepper {
  private constructor(
    private readonly worker: Worker,
    private readonly done: Promise<number[]>,
  ) {}

  /** Starts stepping, once a first getNext (which pays for the thread's start) has answered. */
  static async start(base: string, session: string): Promise<Stepper> {
    const worker = new Worker(STEPPER, { eval: true, workerData: { url: `${base}/walker/sessions/${session}/getNext` } });
    await new Promise((resolve, reject) => worker.once('message', resolve).once('error', reject));
    const done = new Promise<number[]>((resolve, reject) => worker.once('message', resolve).once('error', reject));
    return new Stepper(worker, done);
  }

  /** Stops stepping; answers the latency of each getNext, in ms. */
  async stop(): Promise<number[]> {
    this.worker.postMessage('stop');
    return this.done;
  }

  /** Steps for `ms`, then stops: what stepping costs alone, on this machine now. */
  async stopAfter(ms: number): Promise<number[]> {
    await new Promise((resolve) => setTimeout(resolve, ms));
    return this.stop();
  }
}

const STEPPER = `
const { parentPort, workerData } = require('node:worker_threads');
let running = true;
parentPort.once('message', () => (running = false));
const step = async () => {
  const answer = await (await fetch(workerData.url)).json();
  if (answer.result !== 'ok') throw new Error('getNext answered ' + JSON.stringify(answer));
};
(async () => {
  await step();
  parentPort.postMessage('ready');
  const latencies = [];
  while (running) {
    const started = performance.now();
    await step();
    latencies.push(performance.now() - started);
    await new Promise((resolve) => setTimeout(resolve, 10));
  }
  parentPort.postMessage(latencies);
})();
`;

/** A model of `vertices` vertices in a ring and as many edges (one of them the start edge), names `nameLength` long. */
export function ringModel(vertices: number, nameLength: number): string {
  const name = (prefix: string, i: number): string => `${prefix}_${i}_`.padEnd(nameLength, 'x');
  const vs = Array.from({ length: vertices }, (_, i) => ({ id: `v${i}`, name: name('v', i) }));
  const es: Array<{ id: string; name: string; sourceVertexId?: string; targetVertexId: string }> = [{ id: 'e0', name: name('e', 0), targetVertexId: 'v0' }];
  for (let i = 1; i < vertices; i++) es.push({ id: `e${i}`, name: name('e', i), sourceVertexId: `v${i - 1}`, targetVertexId: `v${i}` });
  es.push({ id: `e${vertices}`, name: name('e', vertices), sourceVertexId: `v${vertices - 1}`, targetVertexId: 'v0' });
  const model = { id: 'ring', name: 'Ring', generator: 'random(never)', startElementId: 'e0', vertices: vs, edges: es };
  return JSON.stringify({ models: [model] });
}
