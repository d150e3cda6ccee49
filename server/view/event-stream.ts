import type { FastifyReply } from 'fastify';

/** A comment line this often keeps proxies from closing a stream that has nothing to say. */
const HEARTBEAT_MS = 15_000;

/**
 * One Server-Sent Events stream (text/event-stream) on a reply Fastify no longer handles: each message is one
 * `data:` line of JSON. A reader that does not keep up is not written to until it has drained, so a slow
 * viewer holds back nothing but its own stream.
 */
export class EventStream {
  private closed = false;
  private readonly heartbeat: NodeJS.Timeout;
  private readonly closeListeners: Array<() => void> = [];

  private constructor(private readonly reply: FastifyReply) {
    const { raw } = reply;
    this.heartbeat = setInterval(() => this.write(': keep-alive\n\n'), HEARTBEAT_MS).unref();
    raw.on('close', () => this.closedByPeer());
    raw.on('error', () => this.closedByPeer());
  }

  /** Takes the reply over from Fastify and answers 200 with the stream's headers (and those set before, CORS's). */
  static open(reply: FastifyReply): EventStream {
    reply.hijack();
    // The stream is quiet between changes: the server's idle timeout is for requests, not for it.
    reply.request.raw.socket?.setTimeout(0);
    reply.raw.writeHead(200, {
      ...(reply.getHeaders() as Record<string, string>),
      'content-type': 'text/event-stream; charset=utf-8',
      'cache-control': 'no-store',
      connection: 'keep-alive',
      // Tells a reverse proxy (nginx) not to hold the events back in a buffer.
      'x-accel-buffering': 'no',
    });
    reply.raw.flushHeaders();
    return new EventStream(reply);
  }

  /** True while the stream is open and its reader has taken what was written. */
  get ready(): boolean {
    return !this.closed && !this.reply.raw.writableNeedDrain;
  }

  get open(): boolean {
    return !this.closed;
  }

  /** Sends one message; false when it was not sent (closed, or the reader has not drained yet). */
  send(message: object): boolean {
    if (!this.ready) return false;
    this.write(`data: ${JSON.stringify(message)}\n\n`);
    return true;
  }

  /** Calls `listener` once the reader has taken everything written. */
  onDrain(listener: () => void): void {
    this.reply.raw.once('drain', listener);
  }

  /** Calls `listener` once the stream closes, by either end. */
  onClose(listener: () => void): void {
    if (this.closed) listener();
    else this.closeListeners.push(listener);
  }

  /** Ends the stream from this side. */
  end(): void {
    if (this.closed) return;
    this.reply.raw.end();
    this.closedByPeer();
  }

  private write(text: string): void {
    if (!this.closed) this.reply.raw.write(text);
  }

  private closedByPeer(): void {
    if (this.closed) return;
    this.closed = true;
    clearInterval(this.heartbeat);
    for (const listener of this.closeListeners.splice(0)) listener();
  }
}
