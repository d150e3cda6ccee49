import type { BaseContext } from 'clipanion';

/** What every walker command runs with: the streams it reads and writes, and the environment. */
export type WalkerContext = BaseContext;
