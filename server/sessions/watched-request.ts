import { isPromiseLike, type Awaitable } from '../../core/awaitable.js';
import type { SessionWalk } from '../../core/session.js';
import type { SessionWatcher } from './session-hosting.js';

/**
 * Runs one request of a watched session: `run` gets the watcher's view of `walk`, and the watcher hears that
 * the request is done once it has settled, failed ones included (a failed step changes the walk too: a dead
 * end fails its model). An unwatched session never comes here, so it pays for no watcher.
 */
export function watchedRequest<T>(watcher: SessionWatcher, walk: SessionWalk, run: (walk: SessionWalk) => Awaitable<T>): Awaitable<T> {
  let result: Awaitable<T>;
  try {
    result = run(watcher.around(walk));
  } catch (error) {
    watcher.changed();
    throw error;
  }
  if (!isPromiseLike(result)) {
    watcher.changed();
    return result;
  }
  return Promise.resolve(result).finally(() => watcher.changed());
}
