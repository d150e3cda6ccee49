import { apiError } from '../api-error.js';
import type { ViewLimits } from '../options.js';

/**
 * Counts the open event streams of the view, in all and per session or draft, and refuses one beyond
 * `--max-view-streams` or `--max-view-streams-per-session`: each stream costs the service a socket and a write
 * per message, so their number is what bounds what pages watching it can take from it.
 */
export class StreamCaps {
  private total = 0;
  private readonly bySource = new Map<string, number>();

  constructor(private readonly limits: Pick<ViewLimits, 'maxStreams' | 'maxStreamsPerSource'>) {}

  /** Streams open now. */
  get open(): number {
    return this.total;
  }

  /**
   * Counts one more stream of `source` (`session 'x'`, `draft 'y'`, as the message names it), or throws a
   * `too_many_streams` error saying which limit holds. Returns what counts it out again; calling that twice
   * counts it out once.
   */
  admit(source: string): () => void {
    const { maxStreams, maxStreamsPerSource } = this.limits;
    const ofSource = this.bySource.get(source) ?? 0;
    if (this.total >= maxStreams) {
      throw apiError(
        'too_many_streams',
        `The service has ${this.total} event streams open, the most --max-view-streams allows: close a page that watches it, ` +
          'or start the service with a higher --max-view-streams.',
      );
    }
    if (ofSource >= maxStreamsPerSource) {
      throw apiError(
        'too_many_streams',
        `The ${source} has ${ofSource} event streams open, the most --max-view-streams-per-session allows: close a page ` +
          'that watches it, or start the service with a higher --max-view-streams-per-session.',
      );
    }
    this.total++;
    this.bySource.set(source, ofSource + 1);
    let counted = true;
    return () => {
      if (!counted) return;
      counted = false;
      this.total--;
      const left = (this.bySource.get(source) ?? 1) - 1;
      if (left === 0) this.bySource.delete(source);
      else this.bySource.set(source, left);
    };
  }
}
