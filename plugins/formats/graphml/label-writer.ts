/**
 * Writes labels in GraphWalker's yEd label grammar, one field per line, and tells for each field what a reader
 * will make of what was written (its "view"). The writer keeps a field's exact value in walker's own data key
 * when the view differs from it; the reader trusts that exact value only while the label still shows the view,
 * so that a label edited in yEd wins over what walker wrote beside it. A field is written only where it reads
 * back as that field alone: text that the grammar would read as another part (a guard, actions, SHARED:,
 * INIT:, BLOCKED, a weight) never reaches the label, and a name shows a safe form (label-names.ts).
 */
import { LabelSyntaxError } from './label-lexer.js';
import { graphwalkerLexes, labelNameOf } from './label-names.js';
import { parseEdgeLabel, parseVertexLabel, type EdgeLabel, type VertexLabel } from './label-parser.js';
import { isXmlText } from './xml-text.js';

export type EdgeField = keyof EdgeLabel;
export type VertexField = Exclude<keyof VertexLabel, 'start'>;

/** The order fields are written in: a requirement tag runs to the end of the label, so REQTAG comes last. */
export const EDGE_FIELDS: readonly EdgeField[] = ['name', 'guard', 'actions', 'weight', 'dependency', 'blocked', 'requirements'];
export const VERTEX_FIELDS: readonly VertexField[] = ['name', 'sharedState', 'init', 'blocked', 'requirements'];

type Part<V> = (value: V) => string;

const EDGE_PARTS: { readonly [F in EdgeField]-?: Part<NonNullable<EdgeLabel[F]>> } = {
  name: labelNameOf,
  guard: (guard) => `[${guard}]`,
  actions: (actions) => `/${actions.join('')}`,
  weight: (weight) => `weight=${decimal(weight)}`,
  dependency: (dependency) => `dependency=${dependency}`,
  blocked: () => 'BLOCKED',
  requirements: (tags) => `REQTAG: ${tags.join(', ')}`,
};

const VERTEX_PARTS: { readonly [F in VertexField]-?: Part<NonNullable<VertexLabel[F]>> } = {
  name: labelNameOf,
  sharedState: (state) => `SHARED: ${state}`,
  init: (actions) => `INIT: ${actions.join('')}`,
  blocked: () => 'BLOCKED',
  requirements: (tags) => `REQTAG: ${tags.join(', ')}`,
};

/** What a reader makes of an edge field written alone, or undefined when the value cannot be written in a label. */
export function edgeView<F extends EdgeField>(field: F, value: EdgeLabel[F]): EdgeLabel[F] | undefined {
  if (value === undefined) return undefined;
  const part = (EDGE_PARTS[field] as Part<unknown>)(value);
  return fieldAlone(attempt(() => parseEdgeLabel(part), part), field);
}

/** What a reader makes of a vertex field written alone, or undefined when the value cannot be written in a label. */
export function vertexView<F extends VertexField>(field: F, value: VertexLabel[F]): VertexLabel[F] | undefined {
  if (value === undefined) return undefined;
  // A shared state is an identifier, and GraphWalker's lexer reads those in fewer characters than walker's.
  if (field === 'sharedState' && !graphwalkerLexes(value as string)) return undefined;
  const part = (VERTEX_PARTS[field] as Part<unknown>)(value);
  return fieldAlone(attempt(() => parseVertexLabel(part), part), field);
}

/** The field of a parsed part, unless the part also read as another field: `e [false]` is no name alone. */
function fieldAlone<L extends object, F extends keyof L>(parsed: L | undefined, field: F): L[F] | undefined {
  if (parsed === undefined) return undefined;
  for (const key in parsed) if ((key as PropertyKey) !== field) return undefined;
  return parsed[field];
}

/** A label of the writable fields, one a line, and the fields it shows (their views). */
export interface WrittenLabel<L> {
  readonly text: string;
  readonly shown: L;
}

/** The edge label for these fields: each field whose view exists, checked once more as part of the whole label. */
export function writeEdgeLabel(fields: EdgeLabel): WrittenLabel<EdgeLabel> {
  return compose(fields, EDGE_FIELDS, (f, v) => edgeView(f, v as never), (f, v) => (EDGE_PARTS[f] as Part<unknown>)(v), parseEdgeLabel);
}

export function writeVertexLabel(fields: VertexLabel): WrittenLabel<VertexLabel> {
  return compose(fields, VERTEX_FIELDS, (f, v) => vertexView(f, v as never), (f, v) => (VERTEX_PARTS[f] as Part<unknown>)(v), parseVertexLabel);
}

/**
 * The fields of an element as read back: each exact value walker kept beside the label (`exact`, from its data
 * key) while the label shows what walker writes for it, else the label's own. Judged by writing the fields again
 * as a whole, not each alone: a field that reads alone may clash beside the others and be left off the label,
 * and its absence then says nothing of an edit in yEd. `besides` are the other fields the writer wrote with
 * them, kept elsewhere when the label could not show them (a model's actions, BLOCKED): without them, the
 * fields would be written again otherwise than they were.
 */
export function settleEdgeLabel(label: EdgeLabel, exact: Partial<EdgeLabel>, besides: Partial<EdgeLabel> = {}): EdgeLabel {
  return settle(label, exact, besides, writeEdgeLabel);
}

export function settleVertexLabel(label: VertexLabel, exact: Partial<VertexLabel>, besides: Partial<VertexLabel> = {}): VertexLabel {
  return settle(label, exact, besides, writeVertexLabel);
}

function settle<L extends object>(label: L, exact: Partial<L>, besides: Partial<L>, write: (fields: L) => WrittenLabel<L>): L {
  const { shown } = write({ ...besides, ...label, ...exact });
  const settled = { ...label };
  for (const key of Object.keys(exact) as (keyof L)[]) {
    if (sameValue(shown[key], label[key])) settled[key] = exact[key] as L[keyof L];
  }
  return settled;
}

function compose<L extends object, F extends keyof L>(
  fields: L,
  order: readonly F[],
  view: (field: F, value: unknown) => unknown,
  part: (field: F, value: unknown) => string,
  parse: (label: string) => L,
): WrittenLabel<L> {
  const views: Partial<Record<F, unknown>> = {};
  const written: F[] = [];
  for (const f of order) {
    const shown = view(f, fields[f]);
    if (shown === undefined) continue;
    views[f] = shown;
    written.push(f);
  }
  // Fields are written so as not to run into each other. Should one still read otherwise as part of the whole,
  // it is left to the data key; should the whole read as a field that none of them is, the last one is.
  for (;;) {
    const text = written.map((f) => part(f, fields[f])).join('\n');
    const parsed = attempt(() => parse(text), text);
    const clash = parsed === undefined ? written[0] : (written.find((f) => !sameValue(parsed[f], views[f])) ?? strayField(parsed, written));
    if (clash === undefined) {
      const shown = {} as L;
      for (const f of written) shown[f] = parsed?.[f] as L[F];
      return { text, shown };
    }
    written.splice(written.indexOf(clash), 1);
  }
}

/** The last written field when the label reads as a field that was not written, else undefined. */
function strayField<L extends object, F extends keyof L>(parsed: L, written: readonly F[]): F | undefined {
  for (const key in parsed) if (!written.includes(key as unknown as F)) return written[written.length - 1];
  return undefined;
}

/** The result of reading a part, or undefined when it does not parse or cannot stand in an XML document. */
function attempt<T>(read: () => T, text: string): T | undefined {
  if (!isXmlText(text)) return undefined;
  try {
    return read();
  } catch (error) {
    if (error instanceof LabelSyntaxError) return undefined;
    throw error;
  }
}

/** A number in the label grammar's spelling: digits and a point, never an exponent. */
function decimal(value: number): string {
  const plain = String(value);
  if (!/e/i.test(plain)) return plain;
  return value.toFixed(20).replace(/\.?0+$/, '');
}

/** Equality of JSON values (strings, numbers, booleans, arrays and plain objects). */
export function sameValue(a: unknown, b: unknown): boolean {
  if (a === b) return true;
  if (typeof a !== 'object' || typeof b !== 'object' || a === null || b === null) return false;
  if (Array.isArray(a) !== Array.isArray(b)) return false;
  const ka = Object.keys(a);
  const kb = Object.keys(b);
  if (ka.length !== kb.length) return false;
  return ka.every((k) => Object.hasOwn(b, k) && sameValue((a as Record<string, unknown>)[k], (b as Record<string, unknown>)[k]));
}
