import { isApiError } from '../api-error.js';
import type { DraftStore } from '../drafts/store.js';
import { Broadcast, WholePublication } from './broadcast.js';
import { Coalescer, pushInterval } from './coalescer.js';
import type { EventStream } from './event-stream.js';
import { eventFrame, jsonOf } from './frame.js';
import type { DraftMessage, GoneMessage } from './messages.js';

/** The watches of each store's drafts, by draft id: one per draft that a stream reads. */
const watches = new WeakMap<DraftStore, Map<string, DraftWatch>>();

/**
 * Watches one draft for the web view while at least one stream reads it: after changes, at most twenty times
 * a second, it validates the draft once and publishes the message to every stream, serialised once. When the
 * last stream leaves, it stops watching and is forgotten.
 */
export class DraftWatch {
  private readonly broadcast = new Broadcast();
  private readonly coalescer: Coalescer;
  private readonly unwatch: () => void;
  private published = 0;

  private constructor(
    private readonly store: DraftStore,
    private readonly id: string,
    /** The draft's message as it stands; throws an API error (server/api-error.ts) once it is gone. */
    private readonly read: () => Promise<DraftMessage>,
    onError: (error: unknown) => void,
  ) {
    this.coalescer = new Coalescer(() => this.push(), onError, () => pushInterval(this.broadcast.size));
    // Throws for a draft that is not there, before anything is kept.
    this.unwatch = store.watch(id, () => this.coalescer.changed());
  }

  /** The watch of a draft: the one already watching it, or a new one. Throws like a read for a draft not there. */
  static of(store: DraftStore, id: string, read: () => Promise<DraftMessage>, onError: (error: unknown) => void): DraftWatch {
    let byId = watches.get(store);
    if (byId === undefined) watches.set(store, (byId = new Map()));
    let watch = byId.get(id);
    if (watch === undefined) byId.set(id, (watch = new DraftWatch(store, id, read, onError)));
    return watch;
  }

  /** Sends the draft to `stream` from now on, beginning with how it stands; returns what stops it. */
  listen(stream: EventStream): () => void {
    if (this.broadcast.size === 0) this.coalescer.changed();
    this.broadcast.add(stream);
    return () => this.leave(stream);
  }

  private leave(stream: EventStream): void {
    this.broadcast.remove(stream);
    if (this.broadcast.size > 0) return;
    this.unwatch();
    this.coalescer.stop();
    const byId = watches.get(this.store);
    if (byId?.get(this.id) === this) byId.delete(this.id);
  }

  private async push(): Promise<void> {
    if (this.broadcast.size === 0) return;
    let message: DraftMessage | GoneMessage;
    try {
      message = await this.read();
    } catch (error) {
      if (!isApiError(error)) throw error;
      message = { kind: 'gone', code: error.code, message: error.message };
    }
    this.broadcast.publish(new WholePublication(++this.published, eventFrame(jsonOf(message)), message.kind === 'gone'));
  }
}
