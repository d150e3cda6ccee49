import type { EventStream } from './event-stream.js';
import type { Frame } from './frame.js';

/** What a reader was last sent: the publication, and the load whose graph it has (-1: none yet). */
export interface ReaderState {
  readonly seq: number;
  readonly load: number;
}

/**
 * One state of a session's walk or of a draft, serialised once for all its readers, in whichever forms they
 * need: a reader that took the previous publication may get only what changed since, one that missed some
 * gets the state whole. Forms are made when the first reader needs them.
 */
export interface Publication {
  /** Counts the publications of a source; each reader knows the last one it got. */
  readonly seq: number;
  /** The load the publication shows (0 for a draft). */
  readonly load: number;
  /** The stream ends after this one. */
  readonly last: boolean;
  /** The event for a reader in `reader`'s state. */
  frameFor(reader: ReaderState): Frame;
}

/** A publication that reads the same to every reader: a draft, or the message that the source is gone. */
export class WholePublication implements Publication {
  readonly load = 0;

  constructor(
    readonly seq: number,
    private readonly frame: Frame,
    readonly last = false,
  ) {}

  frameFor(): Frame {
    return this.frame;
  }
}

/** Readers written to in one turn of the event loop. */
const READERS_PER_TURN = 64;

interface Reader {
  readonly stream: EventStream;
  seq: number;
  load: number;
  /** Waiting for the stream to be ready, to send it the latest publication then. */
  waiting: boolean;
}

/**
 * The readers of one source and what each was sent. Every publication goes to every reader that is ready;
 * one that is still taking an earlier message is skipped, and gets the latest publication once it has taken
 * it: a slow reader holds back nothing but itself, and costs one message at most.
 */
export class Broadcast {
  private readonly readers = new Map<EventStream, Reader>();
  private latest: Publication | undefined;
  /** A round of {@link deliverAll} is under way; `again` when another publication came meanwhile. */
  private delivering = false;
  private again = false;

  get size(): number {
    return this.readers.size;
  }

  /** A new reader: it gets the latest publication at once, if there is one. */
  add(stream: EventStream): void {
    const reader: Reader = { stream, seq: -1, load: -1, waiting: false };
    this.readers.set(stream, reader);
    this.deliver(reader);
  }

  remove(stream: EventStream): void {
    this.readers.delete(stream);
  }

  publish(publication: Publication): void {
    if (this.readers.size === 0) return;
    this.latest = publication;
    if (this.delivering) this.again = true;
    else this.deliverAll();
  }

  /** Nothing published holds any more (nobody watched meanwhile): the next reader waits for a publication. */
  reset(): void {
    this.latest = undefined;
  }

  /**
   * Gives the latest publication to every reader, {@link READERS_PER_TURN} of them a turn of the event loop: a
   * write to a thousand sockets at once would hold every other client that long. A publication that comes
   * meanwhile is given in a round of its own, once this one is done.
   */
  private deliverAll(): void {
    const readers = [...this.readers.values()];
    let next = 0;
    const turn = (): void => {
      for (const end = Math.min(readers.length, next + READERS_PER_TURN); next < end; next++) {
        if (this.readers.get(readers[next].stream) === readers[next]) this.deliver(readers[next]);
      }
      if (next < readers.length) {
        setImmediate(turn);
        return;
      }
      this.delivering = false;
      if (!this.again) return;
      this.again = false;
      this.deliverAll();
    };
    this.delivering = true;
    turn();
  }

  private deliver(reader: Reader): void {
    const publication = this.latest;
    if (publication === undefined || reader.seq === publication.seq || reader.waiting) return;
    const { stream } = reader;
    if (!stream.ready) {
      if (!stream.open) return;
      reader.waiting = true;
      stream.onReady(() => {
        reader.waiting = false;
        this.deliver(reader);
      });
      return;
    }
    stream.send(publication.frameFor(reader));
    reader.seq = publication.seq;
    reader.load = publication.load;
    if (publication.last) stream.end();
  }
}
