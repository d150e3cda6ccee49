import { ScriptError } from './errors.js';
import type { JournalOp, SessionLoadOptions } from './session.js';

/** The byte of a journaled operation (`WALK_OPERATIONS` in core/session.ts says which are journaled, and how). */
export type JournalCode = (typeof JournalOp)[keyof typeof JournalOp];

/** The load a journal starts from: the model as it came (text in any format, or a model file value) and the seed it got. */
export interface JournalStart {
  readonly source: { readonly text: string } | { readonly value: unknown };
  readonly options: SessionLoadOptions;
  readonly seed: number;
}

/** A journal as it crosses to another thread: plain data only. */
export interface JournalRecord {
  readonly start: JournalStart;
  readonly ops: Uint8Array;
  /** The script of each SetData and the reason of each Fail, in order. */
  readonly texts: readonly string[];
  readonly fingerprint: number;
}

/**
 * Bytes a journal holds at most (an operation is one, a script or reason two per character): beyond them the
 * walk can no longer be rebuilt and the journal stops, so a walk that runs for days costs at most this much.
 */
export const MAX_JOURNAL_BYTES = 64 * 1024 * 1024;

/** Where a journal stands after an operation that a limit cut short ({@link Journal.cutShort}). */
type Cut =
  | 'no'
  /** The walk has effects the journal lacks; the journal still holds the walk as it was before them. */
  | 'restorable'
  /** An operation ran on such a walk: the journal can no longer rebuild it. */
  | 'lost';

/** Outcome of an operation that threw: distinct from any element index or boolean. */
export const THREW = 0x7fff_fff0;

/**
 * What was asked of one walk since its load, so that another copy of the engine can rebuild the very same
 * walk by asking it again: walks are deterministic from their seed and the requests made, scripts included
 * (their `Math.random` and clock derive from the run). A fingerprint of every outcome (the element of each
 * step, each hasNext answer, each failure) lets the copy prove it arrived at the same place.
 *
 * One byte per operation plus the text of scripts and reasons: a million steps cost about 2 MB.
 */
export class Journal {
  private startedWith: JournalStart | undefined;
  private ops = new Uint8Array(256);
  private length = 0;
  private texts: string[] = [];
  private textBytes = 0;
  private hash = 0;
  private cut: Cut = 'no';

  /** True once a load has been recorded. */
  get started(): boolean {
    return this.startedWith !== undefined;
  }

  /** True when {@link snapshot} holds the walk as it is: a load was recorded, and nothing was cut short since. */
  get holdsWalk(): boolean {
    return this.startedWith !== undefined && this.cut === 'no';
  }

  /**
   * True from an operation that a time limit, the request budget or its host's yield stopped until the walk is put back as it
   * was before it ({@link resume}), or until the next load or restart. How far such a script got (how high `n++`
   * counted, how many draws of the walk's random source it took) depends on the machine's pace, so it is not
   * recorded: a replay could not repeat it, and would run the script for its whole limit again. Meanwhile
   * {@link snapshot} answers the walk as it was before that operation, which is how a host undoes it; an
   * operation asked of the walk before that is recorded nowhere, and the journal then rebuilds no walk.
   */
  get cutShort(): boolean {
    return this.cut !== 'no';
  }

  /** Bytes the journal holds, roughly. */
  get bytes(): number {
    return this.ops.byteLength + this.textBytes;
  }

  /** A successful load: everything before it no longer matters. */
  begin(start: JournalStart): void {
    this.clear();
    this.startedWith = start;
  }

  /**
   * The walk restarted: a restart repeats the walk from its load with the same seed (docs/behaviour.md), so
   * what came before it no longer matters.
   */
  rewind(): void {
    if (this.startedWith !== undefined) this.begin(this.startedWith);
  }

  /** A walk opened from nothing it could replay: nothing is recorded until the next {@link begin}. */
  stop(): void {
    this.clear();
    this.startedWith = undefined;
  }

  /**
   * An operation (its byte, `JournalOp.<name>`) ran and gave `outcome`, what its row's `outcome` makes of its
   * answer (`WALK_OPERATIONS` in core/session.ts: a step's element, 1/0 for a boolean, 0 for nothing); `text` is its script
   * or reason, for those that take one. The byte rather than the name: a lookup by name per step showed.
   */
  record(code: JournalCode, outcome: number, text?: string): void {
    if (this.startedWith === undefined || this.cut === 'lost') return;
    if (this.cut === 'restorable') {
      this.cut = 'lost';
      return;
    }
    if (this.length + this.textBytes + 2 * (text?.length ?? 0) >= MAX_JOURNAL_BYTES) return this.stop();
    if (this.length === this.ops.length) {
      const grown = new Uint8Array(this.ops.length * 2);
      grown.set(this.ops);
      this.ops = grown;
    }
    this.ops[this.length++] = code;
    if (text !== undefined) {
      this.texts.push(text);
      this.textBytes += 2 * text.length;
    }
    this.hash = fold(this.hash, code, outcome);
  }

  /** An operation threw `error`; replaying it must throw too, unless a limit that counts time stopped it ({@link cutShort}). */
  recordThrow(code: JournalCode, error: unknown, text?: string): void {
    if (!(error instanceof ScriptError && (error.limit === 'time' || error.limit === 'budget' || error.limit === 'yield'))) this.record(code, THREW, text);
    else this.cut = this.cut === 'no' ? 'restorable' : 'lost';
  }

  /** The walk was put back as {@link snapshot} holds it: recording goes on from there. */
  resume(): void {
    if (this.cut === 'restorable') this.cut = 'no';
  }

  private clear(): void {
    this.cut = 'no';
    this.length = 0;
    this.texts = [];
    this.textBytes = 0;
    this.hash = 0;
    if (this.ops.length > 256) this.ops = new Uint8Array(256);
  }

  /**
   * The journal as plain data, or undefined before the first load and once it can no longer rebuild the walk.
   * While {@link cutShort}, the walk before the operation that was cut short.
   */
  snapshot(): JournalRecord | undefined {
    if (this.startedWith === undefined || this.cut === 'lost') return undefined;
    return { start: this.startedWith, ops: this.ops.slice(0, this.length), texts: [...this.texts], fingerprint: this.hash };
  }
}

/** Folds one outcome into a fingerprint (FNV-style): cheap, and order-sensitive. */
export function fold(hash: number, op: number, outcome: number): number {
  return Math.imul(Math.imul(hash ^ op, 0x01000193) ^ outcome, 0x01000193) | 0;
}
