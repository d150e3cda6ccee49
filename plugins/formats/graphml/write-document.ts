/**
 * A model file as a yEd document. One model is the document's graph, as yEd and GraphWalker draw a model;
 * several models are group nodes of it, one per model, labelled with the model's name, their element ids
 * written `<group id>::<id>` as yEd writes nested ids. A start edge leaves a vertex labelled `Start`. What
 * GraphML has no place for (model ids, generators, a start vertex, exact values) is kept in walker's data key.
 */
import type { EdgeJson, ModelFileJson, ModelJson } from '../../../core/model/types.js';
import { sameValue } from './label-writer.js';
import { setOwn, stringifyExtras, type GraphExtras, type ModelExtras } from './walker-data.js';
import {
  edgeElement,
  EDGE_GRAPHICS,
  KeyDeclarations,
  labelSize,
  NODE_GRAPHICS,
  startNode,
  vertexNode,
  type Placement,
} from './write-elements.js';
import { escapeAttribute, escapeText, isXmlText } from './xml-text.js';

const HEADER =
  '<?xml version="1.0" encoding="UTF-8" standalone="no"?>\n' +
  '<graphml xmlns="http://graphml.graphdrawing.org/xmlns" xmlns:xsi="http://www.w3.org/2001/XMLSchema-instance" ' +
  'xmlns:y="http://www.yworks.com/xml/graphml" xsi:schemaLocation="http://graphml.graphdrawing.org/xmlns ' +
  'http://www.yworks.com/xml/schema/graphml/1.1/ygraphml.xsd">\n' +
  `  <key for="node" id="${NODE_GRAPHICS}" yfiles.type="nodegraphics"/>\n` +
  `  <key for="edge" id="${EDGE_GRAPHICS}" yfiles.type="edgegraphics"/>`;

/** Space between vertices that walker places itself, in yEd's units. */
const GRID_X = 220;
const GRID_Y = 120;

/** The GraphML text of a normalised model file. */
export function writeGraphml(file: ModelFileJson): string {
  const keys = new KeyDeclarations('k');
  const body: string[] = [];
  const graph: GraphExtras = {};
  if (file.name !== undefined || file.seed !== undefined) {
    graph.file = {};
    if (file.name !== undefined) graph.file.name = file.name;
    if (file.seed !== undefined) graph.file.seed = file.seed;
  }
  if (file.models.length === 1) {
    const written = writeModel(file.models[0], '', keys, 0);
    // The file name names a yEd model; the name walker keeps, or its absence, wins over it.
    graph.model = { ...written.extras, name: file.models[0].name ?? null };
    for (const line of written.lines) body.push(line);
  } else {
    let top = 0;
    file.models.forEach((model, i) => {
      const written = writeModel(model, `m${i}::`, keys, top);
      body.push(modelGroup(model, `m${i}`, written, keys));
      top = written.bottom + GRID_Y;
    });
  }
  const graphData = Object.keys(graph).length > 0 ? `    <data key="${keys.idFor('graph', 'walker', 'string')}">${escapeText(stringifyExtras(graph))}</data>\n` : '';
  return [
    HEADER,
    ...keys.declarations(),
    '  <graph edgedefault="directed" id="G">',
    `${graphData}${body.map((line) => `    ${line}`).join('\n')}`,
    '  </graph>',
    '</graphml>',
    '',
  ].join('\n');
}

interface WrittenModel {
  readonly lines: string[];
  readonly extras: ModelExtras;
  /** The drawing's bounds, for a group around it. */
  readonly left: number;
  readonly top: number;
  readonly right: number;
  readonly bottom: number;
}

function writeModel(model: ModelJson, prefix: string, keys: KeyDeclarations, top: number): WrittenModel {
  const lines: string[] = [];
  const places = placeVertices(model, top);
  let initShown = model.actions === undefined;
  model.vertices.forEach((vertex, i) => {
    const init = i === 0 ? model.actions : undefined;
    const written = vertexNode(vertex, prefix + vertex.id, places[i], keys, init);
    if (i === 0) initShown = written.initShown;
    lines.push(written.xml);
  });
  const fromStart = startDrawnEdges(model);
  const startId = fromStart.length > 0 ? prefix + uniqueStartId(model) : '';
  if (fromStart.length > 0) lines.push(startNode(startId, startPlace(model, fromStart[0], places, top)));
  for (const edge of model.edges) {
    const drawnFromStart = fromStart.includes(edge);
    const source = drawnFromStart ? startId : prefix + edge.sourceVertexId;
    lines.push(edgeElement(edge, prefix + edge.id, source, prefix + edge.targetVertexId, keys, drawnFromStart));
  }
  return { lines, extras: modelExtras(model, fromStart, initShown), ...boundsOf(places, top) };
}

/**
 * The edges drawn leaving the yEd Start vertex: those without a source, and the start element when it is an
 * edge whose source vertex has no name. GraphWalker's yEd reader finds a start only on an edge leaving a vertex
 * labelled Start; an unnamed source is drawn with an empty label, and the walk would lose its start there. Such
 * an edge keeps its real source in walker's data.
 */
function startDrawnEdges(model: ModelJson): EdgeJson[] {
  const start = model.edges.find((e) => e.id === model.startElementId && e.sourceVertexId !== undefined);
  const source = start === undefined ? undefined : model.vertices.find((v) => v.id === start.sourceVertexId);
  const unnamed = source !== undefined && (source.name === undefined || source.name === '');
  return model.edges.filter((e) => e.sourceVertexId === undefined || (unnamed && e === start));
}

/** The box around a model's vertices, for its group; found in a loop, as 200,000 arguments overflow the stack. */
function boundsOf(places: readonly Placement[], top: number): Pick<WrittenModel, 'left' | 'top' | 'right' | 'bottom'> {
  if (places.length === 0) return { left: 0, top, right: GRID_X, bottom: top + GRID_Y };
  let [left, upper, right, bottom] = [Infinity, Infinity, -Infinity, -Infinity];
  for (const { x, y } of places) {
    left = Math.min(left, x);
    upper = Math.min(upper, y);
    right = Math.max(right, x);
    bottom = Math.max(bottom, y);
  }
  return { left: left - 40, top: upper - 40, right: right + GRID_X, bottom: bottom + GRID_Y };
}

/** The model's fields that the drawing does not show: all but its elements, its start edge and its INIT actions. */
function modelExtras(model: ModelJson, fromStart: readonly EdgeJson[], initShown: boolean): ModelExtras {
  const extras: ModelExtras = { id: model.id };
  if (model.generator !== undefined) extras.generator = model.generator;
  // The reader takes the one edge leaving the Start vertex as the start element; anything else is said here.
  const drawnStart = fromStart.length === 1 ? fromStart[0].id : undefined;
  if (fromStart.length > 1 || !sameValue(drawnStart, model.startElementId)) extras.startElementId = model.startElementId ?? null;
  if (model.actions !== undefined && !initShown) extras.actions = model.actions;
  if (model.requirements !== undefined) extras.requirements = model.requirements;
  if (model.properties !== undefined) setOwn(extras, 'properties', model.properties);
  if (model.predefinedPathEdgeIds !== undefined) extras.predefinedPathEdgeIds = model.predefinedPathEdgeIds;
  return extras;
}

/** A model of several as a yEd group node around its elements, labelled with the model's name. */
function modelGroup(model: ModelJson, groupId: string, written: WrittenModel, keys: KeyDeclarations): string {
  const extras: ModelExtras = { ...written.extras };
  // The group's label is the model's name; walker's data says so only when the label cannot.
  const label = model.name !== undefined && isXmlText(model.name) ? model.name : '';
  if (model.name === undefined) extras.name = null;
  else if (label !== model.name) extras.name = model.name;
  const { height } = labelSize(label);
  const geometry = `x="${written.left}" y="${written.top - height}" width="${written.right - written.left}" height="${written.bottom - written.top + height}"`;
  const graphics =
    `<data key="${NODE_GRAPHICS}"><y:ProxyAutoBoundsNode><y:Realizers active="0"><y:GroupNode><y:Geometry ${geometry}/>` +
    '<y:Fill color="#F5F5F5" transparent="false"/><y:BorderStyle color="#000000" type="dashed" width="1.0"/>' +
    `<y:NodeLabel alignment="right" autoSizePolicy="node_width" backgroundColor="#EBEBEB" modelName="internal" modelPosition="t" visible="true">${escapeText(label)}</y:NodeLabel>` +
    '<y:Shape type="roundrectangle"/><y:State closed="false"/></y:GroupNode></y:Realizers></y:ProxyAutoBoundsNode></data>';
  const data = `<data key="${keys.idFor('node', 'walker', 'string')}">${escapeText(stringifyExtras({ model: extras }))}</data>`;
  const nested = written.lines.map((line) => `    ${line}`).join('\n');
  return (
    `<node id="${escapeAttribute(groupId)}" yfiles.foldertype="group">${data}${graphics}\n` +
    `      <graph edgedefault="directed" id="${escapeAttribute(groupId)}:">\n${nested}\n      </graph>\n    </node>`
  );
}

/** Each vertex's position: its own `x` and `y` when both are numbers, else a place on a grid below `top`. */
function placeVertices(model: ModelJson, top: number): Placement[] {
  const columns = Math.max(1, Math.ceil(Math.sqrt(model.vertices.length)));
  return model.vertices.map((vertex, i) => {
    const { x, y } = vertex.properties ?? {};
    if (typeof x === 'number' && typeof y === 'number' && Number.isFinite(x) && Number.isFinite(y)) return { x, y, invented: false };
    return { x: (i % columns) * GRID_X + GRID_X, y: top + Math.floor(i / columns) * GRID_Y, invented: true };
  });
}

/** Left of the first start edge's target. */
function startPlace(model: ModelJson, first: EdgeJson, places: readonly Placement[], top: number): Placement {
  const target = places[model.vertices.findIndex((v) => v.id === first.targetVertexId)];
  return target === undefined ? { x: 0, y: top, invented: true } : { x: target.x - GRID_X / 2 - 60, y: target.y, invented: true };
}

/** An id for the Start vertex that no element of the model has. */
function uniqueStartId(model: ModelJson): string {
  const taken = new Set([...model.vertices.map((v) => v.id), ...model.edges.map((e) => e.id)]);
  let id = 'Start';
  for (let n = 2; taken.has(id); n++) id = `Start_${n}`;
  return id;
}
