import { connect, type Socket } from 'node:net';

/** A TCP connection to a listening service that sends bytes as given, for clients no HTTP library imitates. */
export interface RawClient {
  readonly socket: Socket;
  /** Everything received so far, as text. */
  received(): string;
  /** Settles when the service has closed the connection (or it was reset), with the milliseconds since connecting. */
  readonly closed: Promise<number>;
  /** Resolves once `text` has arrived, rejects when the connection closes first. */
  waitFor(text: string): Promise<void>;
}

/** Connects to `port` on 127.0.0.1 and sends `data` (possibly half a request). */
export async function rawClient(port: number, data = ''): Promise<RawClient> {
  const socket = connect({ port, host: '127.0.0.1' });
  await new Promise<void>((resolve, reject) => socket.once('connect', resolve).once('error', reject));
  const started = Date.now();
  let text = '';
  const waiters: Array<() => void> = [];
  socket.on('data', (chunk) => {
    text += chunk.toString('latin1');
    for (const wake of waiters.splice(0)) wake();
  });
  socket.on('error', () => {});
  const closed = new Promise<number>((resolve) => socket.once('close', () => resolve(Date.now() - started)));
  if (data !== '') socket.write(data);
  const waitFor = async (wanted: string): Promise<void> => {
    while (!text.includes(wanted)) {
      const woke = new Promise<boolean>((resolve) => waiters.push(() => resolve(true)));
      if (!(await Promise.race([woke, closed.then(() => false)])) && !text.includes(wanted)) {
        throw new Error(`the connection closed before '${wanted}' arrived; received:\n${text.slice(0, 500)}`);
      }
    }
  };
  return { socket, received: () => text, closed, waitFor };
}

/** The JSON body of the one response in `text`. */
export function bodyOf(text: string): unknown {
  return JSON.parse(text.slice(text.indexOf('\r\n\r\n') + 4));
}
