import WebSocket from 'ws';

/**
 * A client of GraphWalker's WebSocket service, as GraphWalker's own clients use it: it sends a command and
 * collects what comes back until the answer to it (pushed messages and issues included), in order.
 */
export class GraphWalkerSocket {
  private readonly received: Record<string, any>[] = [];
  private readonly waiters: Array<() => void> = [];
  /** The close code and reason, once the service closed the connection. */
  closed: Promise<{ code: number; reason: string }>;

  private constructor(readonly socket: WebSocket) {
    socket.on('message', (data) => {
      this.received.push(JSON.parse(String(data)) as Record<string, any>);
      for (const wake of this.waiters.splice(0)) wake();
    });
    this.closed = new Promise((resolve) =>
      socket.once('close', (code, reason) => {
        resolve({ code, reason: String(reason) });
        for (const wake of this.waiters.splice(0)) wake();
      }),
    );
  }

  /** Connects, or rejects with the HTTP status the upgrade was refused with (`Unexpected server response: 403`). */
  static open(url: string, headers: Record<string, string> = {}): Promise<GraphWalkerSocket> {
    const socket = new WebSocket(url, { headers });
    return new Promise((resolve, reject) => {
      socket.once('open', () => resolve(new GraphWalkerSocket(socket)));
      socket.once('error', reject);
    });
  }

  /**
   * Sends a message (an object as JSON, a string as it is) and answers every message received until one that
   * answers it: one naming `answersAs`, or, for a message that is no command, one without `command`.
   */
  async ask(message: object | string, answersAs?: string): Promise<Record<string, any>[]> {
    const start = this.received.length;
    this.socket.send(typeof message === 'string' ? message : JSON.stringify(message));
    const expected = answersAs ?? (typeof message === 'string' ? undefined : String((message as { command?: unknown }).command));
    const answered = (): number => this.received.findIndex((m, i) => i >= start && (expected === undefined ? m.command === undefined : m.command === expected));
    while (answered() < 0) {
      if (this.socket.readyState === WebSocket.CLOSED) throw new Error(`The connection closed before an answer to ${JSON.stringify(message).slice(0, 80)}`);
      await new Promise<void>((resolve) => this.waiters.push(resolve));
    }
    return this.received.slice(start, answered() + 1);
  }

  /** The answer alone, the last message {@link ask} collects. */
  async answer(message: object | string, answersAs?: string): Promise<Record<string, any>> {
    const messages = await this.ask(message, answersAs);
    return messages[messages.length - 1];
  }

  close(): Promise<{ code: number; reason: string }> {
    this.socket.close();
    return this.closed;
  }
}
