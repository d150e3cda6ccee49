/**
 * Writes labels in GraphWalker's yEd label grammar, one field per line, and tells for each field what a reader
 * will make of what was written (its "view"). The writer keeps a field's exact value in walker's own data key
 * when the view differs from it; the reader trusts that exact value only while the label still shows the view,
 * so that a label edited in yEd wins over what walker wrote beside it.
 */
import { LabelSyntaxError } from './label-lexer.js';
import { parseEdgeLabel, parseVertexLabel, type EdgeLabel, type VertexLabel } from './label-parser.js';
import { isXmlText } from './xml-text.js';

export type EdgeField = keyof EdgeLabel;
export type VertexField = Exclude<keyof VertexLabel, 'start'>;

/** The order fields are written in: a requirement tag runs to the end of the label, so REQTAG comes last. */
export const EDGE_FIELDS: readonly EdgeField[] = ['name', 'guard', 'actions', 'weight', 'dependency', 'blocked', 'requirements'];
export const VERTEX_FIELDS: readonly VertexField[] = ['name', 'sharedState', 'init', 'blocked', 'requirements'];

type Part<V> = (value: V) => string;

const EDGE_PARTS: { readonly [F in EdgeField]-?: Part<NonNullable<EdgeLabel[F]>> } = {
  name: (name) => name,
  guard: (guard) => `[${guard}]`,
  actions: (actions) => `/${actions.join('')}`,
  weight: (weight) => `weight=${decimal(weight)}`,
  dependency: (dependency) => `dependency=${dependency}`,
  blocked: () => 'BLOCKED',
  requirements: (tags) => `REQTAG: ${tags.join(', ')}`,
};

const VERTEX_PARTS: { readonly [F in VertexField]-?: Part<NonNullable<VertexLabel[F]>> } = {
  name: (name) => name,
  sharedState: (state) => `SHARED: ${state}`,
  init: (actions) => `INIT: ${actions.join('')}`,
  blocked: () => 'BLOCKED',
  requirements: (tags) => `REQTAG: ${tags.join(', ')}`,
};

/** What a reader makes of an edge field written alone, or undefined when the value cannot be written in a label. */
export function edgeView<F extends EdgeField>(field: F, value: EdgeLabel[F]): EdgeLabel[F] | undefined {
  if (value === undefined) return undefined;
  const part = (EDGE_PARTS[field] as Part<unknown>)(value);
  return attempt(() => parseEdgeLabel(part)[field], part);
}

/** What a reader makes of a vertex field written alone, or undefined when the value cannot be written in a label. */
export function vertexView<F extends VertexField>(field: F, value: VertexLabel[F]): VertexLabel[F] | undefined {
  if (value === undefined) return undefined;
  const part = (VERTEX_PARTS[field] as Part<unknown>)(value);
  return attempt(() => parseVertexLabel(part)[field], part);
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

function compose<L extends object, F extends keyof L>(
  fields: L,
  order: readonly F[],
  view: (field: F, value: unknown) => unknown,
  part: (field: F, value: unknown) => string,
  parse: (label: string) => L,
): WrittenLabel<L> {
  const written = order.filter((f) => view(f, fields[f]) !== undefined);
  // Fields are written so as not to run into each other; should one still do, it is left to the data key.
  for (;;) {
    const text = written.map((f) => part(f, fields[f])).join('\n');
    const parsed = attempt(() => parse(text), text);
    const clash = written.find((f) => parsed === undefined || !sameValue(parsed[f], view(f, fields[f])));
    if (clash === undefined) {
      const shown = {} as L;
      for (const f of written) shown[f] = parsed?.[f] as L[F];
      return { text, shown };
    }
    written.splice(written.indexOf(clash), 1);
  }
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
