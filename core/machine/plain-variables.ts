import { SHARED_VARIABLE_PREFIX, SNAPSHOT_SEPARATOR } from '../scripting.js';

/**
 * The variables of one model's scope, then the shared scope's as `global.<name>`, as plain values read from a
 * sandbox snapshot (core/scripting.ts: per scope a JSON array of names and values alternating, the shared
 * scope last). A test runner hands these to test code, which needs numbers as numbers and lists as lists.
 */
export function variablesOfSnapshot(snapshot: string, scope: number): Record<string, unknown> {
  const parts = snapshot.split(SNAPSHOT_SEPARATOR);
  const data: Record<string, unknown> = {};
  addPairs(data, parts[scope], '');
  addPairs(data, parts[parts.length - 1], SHARED_VARIABLE_PREFIX);
  return data;
}

function addPairs(data: Record<string, unknown>, part: string | undefined, prefix: string): void {
  if (part === undefined || part === '') return;
  const pairs = JSON.parse(part) as unknown[];
  for (let i = 0; i + 1 < pairs.length; i += 2) {
    Object.defineProperty(data, `${prefix}${String(pairs[i])}`, { value: pairs[i + 1], enumerable: true, writable: true, configurable: true });
  }
}
