import type { ScriptLimits } from '../../core/scripting.js';
import { INITIAL_MEMORY_BYTES, MAX_MEMORY_PAGES } from './memory.js';
import { formatBytes } from './messages.js';

/** The most memory QuickJS can address: 2 GiB. */
const MAX_MEMORY_BYTES = MAX_MEMORY_PAGES * 64 * 1024;

/**
 * Checks the limits a sandbox is given (from the machine, or replaced by the plugin's options), so that a
 * wrong value is refused with the name of the field when the walk is opened, not found out by a script.
 */
export function checkLimits(limits: ScriptLimits): ScriptLimits {
  checkPositive('timeoutMs', limits.timeoutMs);
  checkPositive('budgetMs', limits.budgetMs);
  checkPositive('memoryBytes', limits.memoryBytes);
  if (limits.memoryBytes < INITIAL_MEMORY_BYTES) {
    throw new RangeError(
      `Script limit memoryBytes must be at least ${formatBytes(INITIAL_MEMORY_BYTES)}, the memory QuickJS starts with; ` +
        `got ${formatBytes(limits.memoryBytes)}`,
    );
  }
  if (limits.memoryBytes > MAX_MEMORY_BYTES) {
    throw new RangeError(
      `Script limit memoryBytes must be at most ${formatBytes(MAX_MEMORY_BYTES)}, all QuickJS can address; ` +
        `got ${formatBytes(limits.memoryBytes)}`,
    );
  }
  if (typeof limits.realClock !== 'boolean') {
    throw new RangeError(`Script limit realClock must be true or false, got ${String(limits.realClock)}`);
  }
  return limits;
}

/** The fields of `options` that are limits, checked one by one: they replace the machine's limits field by field. */
export function limitOverrides(options: Partial<ScriptLimits>): Partial<ScriptLimits> {
  const overrides: { -readonly [K in keyof ScriptLimits]?: ScriptLimits[K] } = {};
  if (options.timeoutMs !== undefined) overrides.timeoutMs = checkPositive('timeoutMs', options.timeoutMs);
  if (options.budgetMs !== undefined) overrides.budgetMs = checkPositive('budgetMs', options.budgetMs);
  if (options.memoryBytes !== undefined) overrides.memoryBytes = options.memoryBytes;
  if (options.realClock !== undefined) overrides.realClock = options.realClock;
  return overrides;
}

/** `value` when it is a positive number; `kind` says what the named value is, for the message. */
export function checkPositive(name: string, value: number, kind = 'Script limit'): number {
  if (typeof value !== 'number' || !Number.isFinite(value) || value <= 0) {
    throw new RangeError(`${kind} ${name} must be a positive number, got ${String(value)}`);
  }
  return value;
}
