import { ErrorCodes, WalkerError, type ErrorCode } from '../../core/errors.js';
import type { ThrownData } from './worker-protocol.js';

const KNOWN_CODES = new Set<string>(Object.values(ErrorCodes));

/** A thrown value as plain data, to cross a thread: whatever was thrown (plugins may throw anything). */
export function thrownData(thrown: unknown): ThrownData {
  if (thrown instanceof WalkerError) return { name: thrown.name, message: thrown.message, code: thrown.code };
  if (thrown instanceof Error) return { name: thrown.name, message: thrown.message };
  return { name: 'Error', message: `A value that is not an Error was thrown: ${String(thrown)}` };
}

/** The error a {@link thrownData} stands for, on the other side: a WalkerError when it was one. */
export function rebuiltError(data: ThrownData): Error {
  if (data.code !== undefined && KNOWN_CODES.has(data.code)) return new WalkerError(data.code as ErrorCode, data.message);
  const error = new Error(data.message);
  error.name = data.name;
  return error;
}
