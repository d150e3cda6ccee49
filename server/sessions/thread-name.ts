import { writeFileSync } from 'node:fs';

/** Linux keeps 15 characters of a thread's name. */
const NAME_LENGTH = 15;

/**
 * The name of the thread that walks session `id`, as `top -H` and `ps -L` show it: which session's scripts
 * keep a core busy. The start of a session id tells sessions apart; Linux keeps no more.
 */
export function walkThreadName(id: string): string {
  return `walk ${id}`.slice(0, NAME_LENGTH);
}

/** Names the calling thread (Linux; elsewhere nothing happens). A thread without a name is only harder to find. */
export function nameThisThread(name: string): void {
  try {
    writeFileSync('/proc/thread-self/comm', name.slice(0, NAME_LENGTH));
  } catch {
    // No /proc, or a kernel older than thread-self (3.17).
  }
}
