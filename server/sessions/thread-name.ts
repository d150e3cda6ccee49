import { writeFileSync } from 'node:fs';

/** Linux keeps 15 characters of a thread's name. */
const NAME_LENGTH = 15;

/** What every walk thread's name begins with. */
export const WALK_THREAD_PREFIX = 'walk ';

/**
 * The name of the thread that walks session `id`, as `top -H` and `ps -L` show it: which session's scripts
 * keep a core busy. Linux keeps 15 characters, so the name keeps the end of the id: ids begin with the
 * service's node id (server/node-id.ts), the same for every session, and end in their random part.
 */
export function walkThreadName(id: string): string {
  return WALK_THREAD_PREFIX + id.slice(-(NAME_LENGTH - WALK_THREAD_PREFIX.length));
}

/** Names the calling thread (Linux; elsewhere nothing happens). A thread without a name is only harder to find. */
export function nameThisThread(name: string): void {
  try {
    writeFileSync('/proc/thread-self/comm', name.slice(0, NAME_LENGTH));
  } catch {
    // No /proc, or a kernel older than thread-self (3.17).
  }
}
