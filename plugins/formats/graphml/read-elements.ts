/**
 * One vertex or edge from a node or edge of a yEd document: its label (GraphWalker's grammar), its GraphML
 * data keys (properties), its position, and walker's own data key for the values those cannot show exactly.
 */
import { ErrorCodes, type ErrorCode } from '../../../core/errors.js';
import { abbreviate, shorten } from '../../../core/text.js';
import type { EdgeJson, VertexJson } from '../../../core/model/types.js';
import type { GraphmlData, GraphmlKey, YedGraphics } from './document.js';
import { LabelSyntaxError } from './label-lexer.js';
import type { EdgeLabel, VertexLabel } from './label-parser.js';
import { sameValue, settleEdgeLabel, settleVertexLabel } from './label-writer.js';
import { decodeProperty, propertyView } from './property-values.js';
import { parseExtras, setOwn, WALKER_KEY, type EdgeExtras, type VertexExtras } from './walker-data.js';

/** A problem with one element, thrown to the model reader, which adds the file and the element. */
export class ElementProblem extends Error {
  constructor(
    message: string,
    readonly field?: string,
    /** MODEL_SYNTAX for what is not in yEd's format or GraphWalker's grammar, MODEL_INVALID for a broken graph. */
    readonly code: ErrorCode = ErrorCodes.MODEL_SYNTAX,
  ) {
    super(message);
  }
}

/**
 * What the key defaults may give the elements of a document in all, in characters of names and values (and 16 a
 * property), per character of the document, or 1 MiB for a small one. A default is copied to every element of
 * its kind: unbounded, a megabyte of defaults on a thousand nodes makes a model of a gigabyte out of a document
 * of two megabytes, and the work of reading grows with the square of the document.
 */
export const DEFAULTS_PER_DOCUMENT_CHARACTER = 8;
const DEFAULTS_FLOOR = 2 ** 20;

/** The keys of a document by what they are to elements of one kind (`node` or `edge`). */
export class KeyTable {
  private readonly properties = new Map<string, GraphmlKey>();
  private readonly walker = new Set<string>();
  /** Each default's property name and value, decoded once for all the elements. */
  private readonly defaults: [string, unknown][] = [];
  private readonly defaultKeys: string[] = [];
  private defaultText = 0;

  constructor(
    keys: Iterable<GraphmlKey>,
    private readonly kind: 'node' | 'edge' | 'graph',
  ) {
    for (const key of keys) {
      // yEd's own keys (graphics, resources, ports) carry yfiles.type; custom properties do not.
      if (key.yfilesType !== undefined || (key.for !== kind && key.for !== 'all')) continue;
      if (key.attrName === WALKER_KEY) this.walker.add(key.id);
      else if (key.attrName !== undefined) {
        this.properties.set(key.id, key);
        if (key.defaultText !== undefined) this.addDefault(key, key.attrName, key.defaultText);
      }
    }
  }

  private addDefault(key: GraphmlKey, name: string, text: string): void {
    this.defaults.push([name, decodeProperty(text, key.attrType)]);
    this.defaultKeys.push(key.id);
    this.defaultText += name.length + text.length + 16;
  }

  /** Refuses defaults that would give the `count` elements of this kind more than a document of this length may. */
  checkDefaults(count: number, textLength: number): void {
    const most = Math.max(DEFAULTS_FLOOR, DEFAULTS_PER_DOCUMENT_CHARACTER * textLength);
    if (this.defaultText * count <= most) return;
    const keys = abbreviate(this.defaultKeys.slice(0, 5), 5, this.defaultKeys.length);
    throw new ElementProblem(
      `the <default> values of the ${this.kind} keys (${keys}) would give each of the ${count} ${this.kind}s ` +
        `${this.defaultText} characters of properties, more than the ${most} in all that a document of ${textLength} ` +
        'characters may give: set such values on the elements that need them',
      'default',
    );
  }

  /** The element's properties: key defaults, then its data, in document order. */
  propertiesOf(data: readonly GraphmlData[]): Record<string, unknown> {
    const properties: Record<string, unknown> = {};
    for (const [name, value] of this.defaults) setOwn(properties, name, value);
    for (const d of data) {
      const key = this.properties.get(d.key);
      if (key !== undefined && d.graphics === undefined) setOwn(properties, key.attrName as string, decodeProperty(d.text, key.attrType));
    }
    return properties;
  }

  /** The element's walker data, or an empty object. */
  extrasOf(data: readonly GraphmlData[], where: string): Record<string, unknown> {
    const found = data.find((d) => this.walker.has(d.key));
    if (found === undefined) return {};
    try {
      return parseExtras(found.text, where);
    } catch (error) {
      throw new ElementProblem((error as Error).message, 'walker');
    }
  }
}

/** yEd's drawing of the element; an element without one is not in yEd's format. */
export function graphicsOf(data: readonly GraphmlData[], what: string): YedGraphics {
  const graphics = data.find((d) => d.graphics !== undefined)?.graphics;
  if (graphics === undefined) {
    throw new ElementProblem(
      `the ${what} has no yEd graphics with a label (such as <y:ShapeNode> with <y:NodeLabel> for a node, ` +
        '<y:PolyLineEdge> with <y:EdgeLabel> for an edge): walker reads GraphML as yEd writes it',
    );
  }
  return graphics;
}

/**
 * The label text as GraphWalker reads it: all labels of the element, joined. Whitespace around it (yEd
 * indents the elements inside a label) means nothing to the grammar and is left out.
 */
export function labelOf(graphics: YedGraphics): string {
  return graphics.labels.join('').trim();
}

export function parseLabel<L>(label: string, what: 'vertex' | 'edge', parse: (label: string) => L): L {
  try {
    return parse(label);
  } catch (error) {
    if (!(error instanceof LabelSyntaxError)) throw error;
    const before = label.slice(0, error.offset);
    const line = before.split('\n').length;
    const column = error.offset - before.lastIndexOf('\n');
    const at = label.includes('\n') ? `line ${line}, column ${column}` : `column ${column}`;
    throw new ElementProblem(`the ${what} label '${shorten(label, 200)}' does not parse at ${at}: ${error.problem}`, 'label');
  }
}

/** The fields of `names` that walker's data key holds, for settling against the label. */
function exactOf<L>(extras: Record<string, unknown>, names: readonly (keyof L & string)[]): Partial<L> {
  const exact: Partial<L> = {};
  for (const name of names) if (Object.hasOwn(extras, name)) exact[name] = extras[name] as L[typeof name];
  return exact;
}

/**
 * A vertex: what its label says, settled against walker's data; `init` is for the model. `modelActions` are
 * the actions walker's data keeps for the model when this is its first vertex, whose label the writer gave them
 * (write-document.ts).
 */
export function readVertex(
  id: string,
  data: readonly GraphmlData[],
  graphics: YedGraphics,
  label: VertexLabel,
  keys: KeyTable,
  modelActions?: string[],
): VertexJson {
  const extras = keys.extrasOf(data, `node '${id}'`) as Record<string, unknown> & VertexExtras;
  const vertex = { id } as VertexJson;
  const properties = keys.propertiesOf(data);
  const besides = { init: label.init ?? modelActions, blocked: label.blocked ?? blockedIn(properties) };
  const exact = exactOf<VertexLabel>(extras, ['name', 'sharedState', 'requirements']);
  const { name, sharedState, requirements } = settleVertexLabel(label, exact, besides);
  if (name !== undefined) vertex.name = name;
  if (sharedState !== undefined) vertex.sharedState = sharedState;
  if (extras.actions !== undefined) vertex.actions = extras.actions;
  if (requirements !== undefined) vertex.requirements = requirements;
  if (Number.isFinite(graphics.x) && Number.isFinite(graphics.y)) {
    const placed = sameValue(extras.layout, [graphics.x, graphics.y]);
    // GraphWalker keeps yEd's position as the properties x and y; a position walker made up is none.
    if (!placed) Object.assign(properties, { x: graphics.x, y: graphics.y });
  }
  if (label.blocked) properties.blocked = true;
  settleProperties(properties, extras.properties, true);
  if (Object.keys(properties).length > 0 || extras.properties !== undefined) vertex.properties = properties;
  return vertex;
}

/** BLOCKED, as the writer put it in a label: when the element's properties block it (write-elements.ts). */
function blockedIn(properties: Record<string, unknown>): true | undefined {
  return properties.blocked === true ? true : undefined;
}

/** An edge without its ends: what its label says, settled against walker's data. */
export function readEdgeFields(edge: EdgeJson, data: readonly GraphmlData[], label: EdgeLabel, keys: KeyTable): void {
  const extras = keys.extrasOf(data, `edge '${edge.id}'`) as Record<string, unknown> & EdgeExtras;
  const properties = keys.propertiesOf(data);
  const exact = exactOf<EdgeLabel>(extras, ['name', 'guard', 'actions', 'requirements', 'weight', 'dependency']);
  const settled = settleEdgeLabel(label, exact, { blocked: label.blocked ?? blockedIn(properties) });
  const { name, guard, actions, requirements, weight, dependency } = settled;
  if (name !== undefined) edge.name = name;
  if (guard !== undefined) edge.guard = guard;
  if (actions !== undefined) edge.actions = actions;
  if (requirements !== undefined) edge.requirements = requirements;
  if (label.blocked) properties.blocked = true;
  settleProperties(properties, extras.properties, false);
  if (Object.keys(properties).length > 0 || extras.properties !== undefined) edge.properties = properties;
  if (weight !== undefined) edge.weight = weight;
  if (dependency !== undefined) edge.dependency = dependency;
  if (edge.sourceVertexId === undefined && typeof extras.sourceVertexId === 'string') edge.sourceVertexId = extras.sourceVertexId;
}

/**
 * Puts back the exact property values walker kept, each while the element still shows what walker wrote for
 * it: a data key, BLOCKED for `blocked: true`, nothing for a value GraphML has no type for (and for `x`/`y`,
 * which walker writes as the position only when both are numbers).
 */
function settleProperties(properties: Record<string, unknown>, exact: unknown, positioned: boolean): void {
  if (typeof exact !== 'object' || exact === null) return;
  for (const [key, value] of Object.entries(exact)) {
    const view = key === 'blocked' && value === true ? true : positioned && (key === 'x' || key === 'y') ? undefined : propertyView(value);
    const shown = Object.hasOwn(properties, key) ? properties[key] : undefined;
    if (sameValue(view, shown)) setOwn(properties, key, value);
  }
}

