import type { BaseContext } from 'clipanion';

/** What every walker command runs with: the streams it reads and writes, and the environment. */
export interface WalkerContext extends BaseContext {
  /**
   * The arguments as they were given, global options included: GraphWalker's error line repeats them, and
   * clients such as AltWalker look for that line.
   */
  readonly argv?: readonly string[];
}
