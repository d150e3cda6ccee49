import type { DraftModelFields } from './draft-model.js';
import { apiError } from '../api-error.js';
import type { DraftEdge, DraftVertex } from './types.js';

/**
 * What a draft is counted for against `--max-draft-memory`: an estimate, kept as a running total that every
 * change adjusts by the size of what it adds and removes, so that it costs the same however large the draft is.
 * An element counts its JSON in UTF-8 (the change serialises it anyway, to check it) plus a fixed cost for what
 * holds it: the object and its arrays, its entries in the draft's Maps and in the edge index. UTF-8 is never
 * less than what V8 keeps for the same strings (one byte per Latin-1 character, two per other UTF-16 unit). The
 * fixed costs were measured with V8's heap statistics after a forced collection (docs/benchmarks.md,
 * "Measurements behind the code"): the estimate comes out above the heap really taken, never below it, so the
 * limit errs on the side of the server.
 */

/** Heap per vertex or edge beyond its JSON. */
export const ELEMENT_OVERHEAD_BYTES = 300;
/** Heap of an empty draft beyond its fields' JSON: the Draft, its model, Maps and index. */
export const DRAFT_OVERHEAD_BYTES = 2048;

/** The estimated bytes of one vertex or edge; serialising it is also what proves that it serialises. */
export function elementBytes(element: DraftVertex | DraftEdge): number {
  return ELEMENT_OVERHEAD_BYTES + Buffer.byteLength(JSON.stringify(element));
}

/** The estimated bytes of the model-level fields. */
export function fieldsBytes(fields: DraftModelFields): number {
  return Buffer.byteLength(JSON.stringify(fields));
}

/**
 * The memory budget of one draft store: the bytes its drafts are counted for, and the limit. A draft asks it
 * before a change that grows it ({@link check}) and records the change once applied ({@link record}), so a
 * change it refuses has changed nothing.
 */
export class MemoryLedger {
  private used = 0;

  constructor(readonly limitBytes: number) {}

  /** Bytes the drafts are counted for now. */
  get usedBytes(): number {
    return this.used;
  }

  /** Throws 429 `memory_limit_reached` when growing by `growth` bytes would pass the limit. */
  check(growth: number): void {
    if (growth <= 0 || this.used + growth <= this.limitBytes) return;
    throw apiError(
      'memory_limit_reached',
      `The drafts on this server would hold about ${size(this.used + growth)}, more than the ` +
        `${size(this.limitBytes)} they may hold together (--max-draft-memory): delete drafts or elements ` +
        'you no longer need (DELETE /walker/drafts/{draft_id}), or wait until unused drafts expire.',
    );
  }

  /** Records an applied change (negative: memory freed). */
  record(growth: number): void {
    this.used += growth;
  }
}

/** `512 MiB`, `254.3 KiB`: one decimal at most, in the largest unit that keeps the number at 1 or more. */
function size(bytes: number): string {
  const [value, unit] = bytes >= 1024 * 1024 ? [bytes / (1024 * 1024), 'MiB'] : [bytes / 1024, 'KiB'];
  return `${Number(value.toFixed(1))} ${unit}`;
}
