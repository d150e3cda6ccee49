/**
 * The checks the page makes before it sends a field, mirroring the draft API's (docs/api-drafts.md), so that
 * bad input is shown at its field and never sent: the service would refuse it and the draft stays as it was
 * either way, but the reader learns what to fix without a round trip, and a 10 MB paste never travels.
 */

/** The draft API's limits on `properties`: 32 levels, 64 KiB as JSON. */
const MAX_PROPERTIES_BYTES = 64 * 1024;
const MAX_DEPTH = 32;
/** Ids: 1 to 100 characters, not `.` or `..` (docs/api-drafts.md, Ids). */
const MAX_ID = 100;

export type Checked<T> = { ok: true; value: T } | { ok: false; error: string };

export function checkWeight(text: string): Checked<number | null> {
  if (text.trim() === '') return { ok: true, value: null };
  const value = Number(text);
  if (!Number.isFinite(value) || value < 0 || value > 1) return { ok: false, error: `weight must be a number from 0 to 1 (a probability), not '${text.slice(0, 40)}'.` };
  return { ok: true, value };
}

export function checkDependency(text: string): Checked<number | null> {
  if (text.trim() === '') return { ok: true, value: null };
  const value = Number(text);
  if (!Number.isInteger(value) || value < 0 || value > 100) return { ok: false, error: `dependency must be a whole number from 0 to 100, not '${text.slice(0, 40)}'.` };
  return { ok: true, value };
}

export function checkProperties(text: string): Checked<Record<string, unknown>> {
  // Measured before parsing: a paste of megabytes is refused without building it.
  const bytes = new TextEncoder().encode(text).length;
  if (bytes > MAX_PROPERTIES_BYTES) return { ok: false, error: `properties may be at most 64 KiB as JSON; this is ${(bytes / 1024).toFixed(0)} KiB.` };
  if (text.trim() === '') return { ok: true, value: {} };
  let value: unknown;
  try {
    value = JSON.parse(text);
  } catch (error) {
    return { ok: false, error: `properties must be a JSON object: ${(error as Error).message}` };
  }
  if (typeof value !== 'object' || value === null || Array.isArray(value)) return { ok: false, error: 'properties must be a JSON object, {"key": value, ...}.' };
  if (depth(value) > MAX_DEPTH) return { ok: false, error: `properties may nest at most ${MAX_DEPTH} levels.` };
  return { ok: true, value: value as Record<string, unknown> };
}

function depth(value: unknown): number {
  if (typeof value !== 'object' || value === null) return 0;
  let most = 0;
  for (const inner of Object.values(value)) most = Math.max(most, depth(inner));
  return most + 1;
}

/** A new element's id: empty lets the service choose one; else the id rule, and no other element of the draft has it. */
export function checkNewId(text: string, taken: (id: string) => string | undefined): Checked<string | undefined> {
  if (text === '') return { ok: true, value: undefined };
  if (text.length > MAX_ID || text === '.' || text === '..') return { ok: false, error: 'an id is 1 to 100 characters, and not . or ..' };
  const owner = taken(text);
  if (owner !== undefined) return { ok: false, error: `'${text}' is already the id of ${owner} of this draft: choose another, or leave it empty.` };
  return { ok: true, value: text };
}

/** Lines of a text area, one string each; blank lines dropped. */
export function linesOf(text: string): string[] {
  return text.split('\n').map((line) => line.trimEnd()).filter((line) => line.trim() !== '');
}
