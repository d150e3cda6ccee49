import type { GraphShape } from '../../core/machine/walk-view.js';
import type { Publication, ReaderState } from './broadcast.js';
import { eventFrame, jsonOf, jsonWith, type Frame, type JsonParts } from './frame.js';
import { serialiseGraph } from './graph-json.js';
import { STREAM_GRAPH_BYTES } from './limits.js';
import { walkState, type WalkSnapshot } from './walk-message.js';

/**
 * The graph of one load of a session, as read from its walk, and its JSON, made the first time a reader
 * needs it and then shared by every message of that load to every reader: a large model's JSON is made once,
 * not once per reader or per page opened.
 */
export class LoadedGraph {
  private json: Promise<JsonParts> | undefined;

  constructor(
    readonly load: number,
    /**
     * Whether the walk that gave the graph ran in a thread of its own: after a move the graph is read once more,
     * from the rebuilt walk. Its load number goes on from the session's, so readers are not sent it again.
     */
    readonly isolated: boolean,
    readonly shape: GraphShape,
  ) {}

  serialised(): Promise<JsonParts> {
    return (this.json ??= serialiseGraph(this.shape));
  }

  /** Lets the JSON go while nobody reads it; it is made again when asked. */
  forgetJson(): void {
    this.json = undefined;
  }
}

/** A snapshot's message whole, as `GET /walker/view/session` answers it: its graph and every visit count. */
export function wholeWalkJson(snapshot: WalkSnapshot, graph: JsonParts | undefined): JsonParts {
  const { session, load } = snapshot;
  const head = { kind: 'walk', session, load };
  const walk = walkState(snapshot);
  if (graph === undefined || snapshot.graph === null) return jsonOf({ ...head, graph: null, walk });
  return jsonWith(head, 'graph', graph, { walk });
}

/**
 * One snapshot of a walk for all its readers, in three forms at most, each made once: with the graph (a
 * reader new to this load; a graph over {@link STREAM_GRAPH_BYTES} is only named, by its size), with the
 * visit counts whole (a reader that missed a publication), with only the counts that changed since the
 * previous publication (a reader that got it).
 */
export class WalkPublication implements Publication {
  readonly last = false;
  private withGraph: Frame | undefined;
  private whole: Frame | undefined;
  private changed: Frame | undefined;

  constructor(
    readonly seq: number,
    private readonly snapshot: WalkSnapshot,
    /** The JSON of the snapshot's graph; undefined before the first load. */
    private readonly graph: JsonParts | undefined,
    /** The visit counts of publication `seq - 1`, when it showed the same load. */
    private readonly before: Uint32Array | undefined,
  ) {}

  get load(): number {
    return this.snapshot.load;
  }

  frameFor(reader: ReaderState): Frame {
    if (reader.load !== this.load) return (this.withGraph ??= this.graphFrame());
    if (reader.seq === this.seq - 1 && this.before !== undefined) return (this.changed ??= this.frame(this.before));
    return (this.whole ??= this.frame(undefined));
  }

  /** The message of a new load: with its graph, or, for a large one, with its size in its place. */
  private graphFrame(): Frame {
    const bytes = this.graph?.reduce((sum, part) => sum + part.length, 0) ?? 0;
    if (bytes <= STREAM_GRAPH_BYTES) return eventFrame(wholeWalkJson(this.snapshot, this.graph));
    return this.frame(undefined, { graphBytes: bytes });
  }

  private frame(before: Uint32Array | undefined, graph: { graphBytes: number } | object = {}): Frame {
    const { session, load } = this.snapshot;
    return eventFrame(jsonOf({ kind: 'walk', session, load, ...graph, walk: walkState(this.snapshot, before) }));
  }
}
