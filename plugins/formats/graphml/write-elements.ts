/**
 * One vertex or edge as yEd draws it: a `y:ShapeNode` or `y:PolyLineEdge` whose label says what GraphWalker's
 * grammar can say, GraphML data keys for the properties, and walker's data key for every value those cannot
 * carry exactly (see walker-data.ts).
 */
import { ErrorCodes, ModelError } from '../../../core/errors.js';
import type { EdgeJson, VertexJson } from '../../../core/model/types.js';
import type { EdgeLabel, VertexLabel } from './label-parser.js';
import { sameValue, writeEdgeLabel, writeVertexLabel } from './label-writer.js';
import { propertyType, propertyView } from './property-values.js';
import { setOwn, stringifyExtras, type EdgeExtras, type VertexExtras } from './walker-data.js';
import { escapeAttribute, escapeText, firstNonXmlCharacter, isXmlText } from './xml-text.js';

/** The keys a document declares, made as elements ask for them. */
export class KeyDeclarations {
  private readonly ids = new Map<string, string>();
  private readonly lines: string[] = [];

  constructor(private readonly prefix: string) {}

  /** The id of the key for a property (or walker's key) of elements of one kind, declared on first use. */
  idFor(kind: 'node' | 'edge' | 'graph', name: string, type: string): string {
    const signature = `${kind}\u0000${name}\u0000${type}`;
    let id = this.ids.get(signature);
    if (id === undefined) {
      id = `${this.prefix}${this.ids.size}`;
      this.ids.set(signature, id);
      this.lines.push(`  <key attr.name="${escapeAttribute(name)}" attr.type="${type}" for="${kind}" id="${id}"/>`);
    }
    return id;
  }

  declarations(): string[] {
    return this.lines;
  }
}

/** The ids of yEd's own graphics keys. */
export const NODE_GRAPHICS = 'd0';
export const EDGE_GRAPHICS = 'd1';

/** Where a vertex is drawn, and whether walker chose the place (the vertex had no position of its own). */
export interface Placement {
  readonly x: number;
  readonly y: number;
  readonly invented: boolean;
}

/** A vertex as a node; `init` is the model's actions, written on the model's first vertex. */
export function vertexNode(
  vertex: VertexJson,
  nodeId: string,
  place: Placement,
  keys: KeyDeclarations,
  init?: string[],
): { xml: string; initShown: boolean } {
  const properties = vertex.properties;
  const fields: VertexLabel = {
    name: vertex.name,
    sharedState: vertex.sharedState,
    init,
    blocked: properties?.blocked === true ? true : undefined,
    requirements: vertex.requirements,
  };
  const label = writeVertexLabel(fields);
  const extras: VertexExtras = {};
  keepUnshown(extras, fields, label.shown, ['name', 'sharedState', 'requirements']);
  if (vertex.actions !== undefined) extras.actions = vertex.actions;
  if (place.invented) extras.layout = [place.x, place.y];
  const data = properties === undefined ? '' : propertyData(properties, 'node', keys, extras, !place.invented, label.shown.blocked === true);
  const xml = element(
    'node',
    `id="${idAttribute(nodeId, vertex.id, 'vertex')}"`,
    extrasData(extras, 'node', keys) + data + shapeNode(label.text, place, '#FFCC00', 'rectangle'),
  );
  return { xml, initShown: init === undefined || sameValue(label.shown.init, init) };
}

/** The Start vertex of a model: marks the edge the walk starts on, and reads back as no vertex. */
export function startNode(nodeId: string, place: Placement): string {
  return element('node', `id="${escapeAttribute(nodeId)}"`, shapeNode('Start', place, '#99CC00', 'ellipse'));
}

/**
 * An edge from `source` to `target` (node ids of the document); `fromStart` when it is drawn from the Start
 * vertex although it has a source vertex, which walker's data then keeps.
 */
export function edgeElement(edge: EdgeJson, edgeId: string, source: string, target: string, keys: KeyDeclarations, fromStart = false): string {
  const properties = edge.properties;
  const fields: EdgeLabel = {
    name: edge.name,
    guard: edge.guard,
    actions: edge.actions,
    weight: edge.weight,
    dependency: edge.dependency,
    blocked: properties?.blocked === true ? true : undefined,
    requirements: edge.requirements,
  };
  const label = writeEdgeLabel(fields);
  const extras: EdgeExtras = {};
  keepUnshown(extras, fields, label.shown, ['name', 'guard', 'actions', 'weight', 'dependency', 'requirements']);
  if (fromStart && edge.sourceVertexId !== undefined) extras.sourceVertexId = edge.sourceVertexId;
  const data = properties === undefined ? '' : propertyData(properties, 'edge', keys, extras, false, label.shown.blocked === true);
  const graphics =
    `<data key="${EDGE_GRAPHICS}"><y:PolyLineEdge><y:Arrows source="none" target="standard"/>` +
    `${labelElement('EdgeLabel', label.text)}</y:PolyLineEdge></data>`;
  const attributes =
    `id="${idAttribute(edgeId, edge.id, 'edge')}" source="${idAttribute(source, fromStart ? '' : (edge.sourceVertexId ?? ''), 'source vertex')}" ` +
    `target="${idAttribute(target, edge.targetVertexId, 'target vertex')}"`;
  return element('edge', attributes, extrasData(extras, 'edge', keys) + data + graphics);
}

/**
 * An element id as a GraphML attribute. Ids are what edges join nodes by, so one that XML 1.0 cannot hold (most
 * control characters, even escaped) cannot be written at all: the model is refused rather than written as a
 * document no reader takes.
 */
function idAttribute(id: string, elementId: string, what: string): string {
  const bad = firstNonXmlCharacter(id);
  if (bad === undefined) return escapeAttribute(id);
  throw new ModelError(
    `GraphML cannot hold the ${what} id ${JSON.stringify(elementId)}: XML has no way to write its character ${bad}, ` +
      'escaped or not; give the element an id without control characters, or keep the model as JSON',
    {},
    ErrorCodes.MODEL_INVALID,
  );
}

/** Copies into `extras` the fields whose exact value the label does not show. */
function keepUnshown<L extends object>(extras: object, fields: L, shown: L, names: readonly (keyof L)[]): void {
  for (const name of names) {
    const value = fields[name];
    if (value !== undefined && !sameValue(shown[name], value)) setOwn(extras as Record<string, unknown>, name as string, value);
  }
}

/**
 * The data elements of the properties GraphML can type; the others, and those a reader would not get back
 * exactly, go to `extras.properties`. `blocked: true` is the label's BLOCKED when the label shows it, and a
 * positioned vertex's `x` and `y` are its geometry.
 */
function propertyData(
  properties: Record<string, unknown>,
  kind: 'node' | 'edge',
  keys: KeyDeclarations,
  extras: VertexExtras | EdgeExtras,
  positioned: boolean,
  blockedShown: boolean,
): string {
  let xml = '';
  const kept: Record<string, unknown> = {};
  for (const [name, value] of Object.entries(properties)) {
    if (name === 'blocked' && value === true && blockedShown) continue;
    // A key's name is an XML attribute: one that XML cannot hold stays in walker's data, with its value.
    if (!isXmlText(name)) {
      setOwn(kept, name, value);
      continue;
    }
    if (kind === 'node' && (name === 'x' || name === 'y')) {
      if (!positioned) setOwn(kept, name, value);
      continue;
    }
    const type = propertyType(value);
    if (type !== undefined) xml += `<data key="${keys.idFor(kind, name, type)}">${escapeText(String(value))}</data>`;
    if (type === undefined || !sameValue(propertyView(value), value)) setOwn(kept, name, value);
  }
  // An empty `properties` object reads back as none unless walker says it is there.
  if (Object.keys(kept).length > 0 || Object.keys(properties).length === 0) extras.properties = kept;
  return xml;
}

function extrasData(extras: object, kind: 'node' | 'edge', keys: KeyDeclarations): string {
  if (Object.keys(extras).length === 0) return '';
  return `<data key="${keys.idFor(kind, 'walker', 'string')}">${escapeText(stringifyExtras(extras))}</data>`;
}

/**
 * yEd's plain node: a shape sized to its label. yEd's defaults (a black border, a centred label in its 12-point
 * font, a black line with no arrow for an edge) are left to yEd, which keeps large models small to write and
 * to read: only what differs from them is written.
 */
function shapeNode(label: string, place: Placement, fill: string, shape: string): string {
  const { width, height } = labelSize(label);
  const form = shape === 'rectangle' ? '' : `<y:Shape type="${shape}"/>`;
  return (
    `<data key="${NODE_GRAPHICS}"><y:ShapeNode><y:Geometry height="${height}" width="${width}" x="${place.x}" y="${place.y}"/>` +
    `<y:Fill color="${fill}" transparent="false"/>${labelElement('NodeLabel', label)}${form}</y:ShapeNode></data>`
  );
}

function labelElement(kind: 'NodeLabel' | 'EdgeLabel', text: string): string {
  return `<y:${kind}>${escapeText(text)}</y:${kind}>`;
}

/** Room for the label in yEd's default 12-point font: about 7 points a character and 18 a line. */
export function labelSize(label: string): { width: number; height: number } {
  const lines = label.split('\n');
  let longest = 0;
  for (const line of lines) longest = Math.max(longest, line.length);
  return { width: Math.max(60, longest * 7 + 20), height: Math.max(30, lines.length * 18 + 12) };
}

function element(name: string, attributes: string, content: string): string {
  return `<${name} ${attributes}>${content}</${name}>`;
}
