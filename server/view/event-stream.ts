import type { Socket } from 'node:net';
import type { FastifyReply } from 'fastify';
import type { Frame } from './frame.js';

/** A comment line at least this often keeps proxies from closing a stream that has nothing to say. */
const HEARTBEAT_MS = 15_000;
const HEARTBEAT = Buffer.from(': keep-alive\n\n');

/**
 * A message is handed to the socket this much at a time, the next part once the reader has taken the last:
 * so the socket's own buffer never holds more than this of it, and a reader's progress through a long
 * message (a large graph on a slow link) shows, as a reader that takes nothing does.
 */
const SLICE_BYTES = 64 * 1024;

/**
 * One Server-Sent Events stream (text/event-stream) on a reply Fastify no longer handles: each message is one
 * `data:` line of JSON. It writes one message at a time and takes the next only once the reader has taken
 * that one ({@link ready}), so what waits for a reader is never more than one message, whose large parts are
 * shared with the other readers ({@link Frame}). A reader that takes nothing of what waits for `timeoutMs` is
 * dropped; a stream with nothing waiting sends a comment now and then, which keeps it open.
 */
export class EventStream {
  private closed = false;
  /** End once what is queued is written. */
  private ending = false;
  /** The parts of the message being written, and how far into the first one. */
  private queue: Buffer[] = [];
  private offset = 0;
  /** When the reader last took something, or had nothing waiting. */
  private takenAt: number;
  private readonly timer: NodeJS.Timeout;
  private readonly readyListeners: Array<() => void> = [];
  private readonly closeListeners: Array<() => void> = [];
  private readonly taken = (): void => void (this.takenAt = performance.now());

  private constructor(
    private readonly socket: Socket,
    private readonly timeoutMs: number,
  ) {
    this.takenAt = performance.now();
    this.timer = setInterval(() => this.tick(), Math.min(HEARTBEAT_MS, timeoutMs / 2)).unref();
    socket.on('drain', () => {
      this.taken();
      this.pump();
    });
    socket.on('close', () => this.closedByPeer());
    socket.on('error', () => this.closedByPeer());
  }

  /**
   * Takes the reply over from Fastify and answers 200 with the stream's headers (and those set before, CORS's).
   * The body is written straight to the socket and ends with the connection (`Connection: close`, no chunked
   * framing): a message to many readers then costs one socket write each, not four.
   */
  static open(reply: FastifyReply, timeoutMs: number): EventStream {
    reply.hijack();
    const { raw } = reply;
    const socket = raw.socket as Socket;
    // The stream is quiet between changes: the server's idle timeout is for requests; the stream has its own.
    socket.setTimeout(0);
    raw.useChunkedEncodingByDefault = false;
    raw.writeHead(200, {
      ...(reply.getHeaders() as Record<string, string>),
      'content-type': 'text/event-stream; charset=utf-8',
      'cache-control': 'no-store',
      connection: 'close',
      // Tells a reverse proxy (nginx) not to hold the events back in a buffer.
      'x-accel-buffering': 'no',
    });
    raw.flushHeaders();
    return new EventStream(socket, timeoutMs);
  }

  /** True while the stream is open and its reader has taken every message written. */
  get ready(): boolean {
    return !this.closed && !this.ending && this.queue.length === 0 && !this.socket.writableNeedDrain;
  }

  get open(): boolean {
    return !this.closed;
  }

  /** Starts writing one message; false when it was not taken (closed, or the reader has not taken the last). */
  send(frame: Frame): boolean {
    if (!this.ready) return false;
    this.queue = [...frame];
    this.offset = 0;
    this.pump();
    return true;
  }

  /** Calls `listener` once, when the stream is {@link ready} again (not if it closes first). */
  onReady(listener: () => void): void {
    if (this.ready) listener();
    else if (!this.closed) this.readyListeners.push(listener);
  }

  /** Calls `listener` once the stream closes, by either end. */
  onClose(listener: () => void): void {
    if (this.closed) listener();
    else this.closeListeners.push(listener);
  }

  /** Ends the stream from this side, once the message under way is written. */
  end(): void {
    if (this.closed || this.ending) return;
    this.ending = true;
    this.pump();
  }

  /**
   * Closes the stream now: what has not been written is not sent. A plain destroy, not a reset: a service
   * stopped right after resetting a stream's socket was seen to spin in Node's exit (Node 20), waiting on it.
   */
  drop(): void {
    if (this.closed) return;
    this.socket.destroy();
    this.closedByPeer();
  }

  private pump(): void {
    while (this.queue.length > 0 && !this.closed) {
      const part = this.queue[0];
      const end = Math.min(part.length, this.offset + SLICE_BYTES);
      const slice = this.offset === 0 && end === part.length ? part : part.subarray(this.offset, end);
      if (end === part.length) {
        this.queue.shift();
        this.offset = 0;
      } else {
        this.offset = end;
      }
      // Without room, the rest waits for 'drain': the reader has taken what the socket held.
      if (!this.socket.write(slice, this.taken)) return;
    }
    if (this.closed || this.queue.length > 0) return;
    if (this.ending) {
      this.socket.end();
      this.closedByPeer();
    } else if (!this.socket.writableNeedDrain) {
      for (const listener of this.readyListeners.splice(0)) listener();
    }
  }

  /** A comment when nothing waits; the reader dropped when what waits has not moved for the timeout. */
  private tick(): void {
    const now = performance.now();
    if (this.queue.length === 0 && this.socket.writableLength === 0) {
      this.takenAt = now;
      if (!this.ending) this.socket.write(HEARTBEAT);
    } else if (now - this.takenAt >= this.timeoutMs) {
      this.drop();
    }
  }

  private closedByPeer(): void {
    if (this.closed) return;
    this.closed = true;
    this.queue = [];
    clearInterval(this.timer);
    this.readyListeners.length = 0;
    for (const listener of this.closeListeners.splice(0)) listener();
  }
}
