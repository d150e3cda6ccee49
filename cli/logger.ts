import type { Writable } from 'node:stream';
import { pino, type Logger } from 'pino';

/** The levels `--log-level` takes, from quietest to most verbose (pino's, plus `silent`). */
export const LOG_LEVELS = ['silent', 'fatal', 'error', 'warn', 'info', 'debug', 'trace'] as const;

/** One of {@link LOG_LEVELS}. */
export type LogLevel = (typeof LOG_LEVELS)[number];

/**
 * The logger of a command that runs no server (`offline`, `check`): pino's JSON lines on the command's stderr,
 * so that stdout keeps only the command's output. `walker online` hands its level to Fastify's logger instead.
 */
export function commandLogger(level: LogLevel, stderr: Writable): Logger {
  return pino({ level }, stderr);
}
