/**
 * The models of a yEd document, as GraphWalker's YEdContextFactory reads them: a node is a vertex (group nodes
 * only hold others), node and edge ids are the element ids, `INIT:` actions become the model's actions, and the
 * model is named after the file. A node labelled `Start` is read as what it is drawn as, a vertex named
 * `Start` with its edges: where the walk starts is core's one rule (core/model/start-element.ts), which a load
 * applies once blocked elements are left out, and which leaves such a vertex out and starts on its one out-edge. A document walker wrote with several models holds each in
 * a group node marked as a model by walker's data key; there, element ids are written `<group id>::<id>`,
 * yEd's spelling of nested ids.
 */
import { basename, extname } from 'node:path';
import { ErrorCodes, ModelError, type ErrorCode } from '../../../core/errors.js';
import type { EdgeJson, ModelFileJson, ModelJson, VertexJson } from '../../../core/model/types.js';
import type { GraphmlDocument, GraphmlEdge, GraphmlNode } from './document.js';
import { vertexView, sameValue } from './label-writer.js';
import { parseEdgeLabel, parseVertexLabel } from './label-parser.js';
import { ElementProblem, graphicsOf, KeyTable, labelOf, parseLabel, readEdgeFields, readVertex } from './read-elements.js';
import type { GraphExtras, ModelExtras } from './walker-data.js';

/** One model while its elements are read. */
interface ModelDraft {
  /** What its element ids start with in the document (`<group id>::`), or ''. */
  readonly prefix: string;
  /** Its name unless walker's data says otherwise: the file's base name, or its group's label. */
  readonly nativeName: string | undefined;
  readonly extras: ModelExtras;
  readonly vertices: VertexJson[];
  readonly edges: EdgeJson[];
  init?: string[];
  /** The ids of its vertices labelled Start. */
  readonly startVertices: Set<string>;
  /** The edges drawn leaving a vertex labelled Start, in document order. */
  readonly fromStart: EdgeJson[];
}

/** What a node of the document is to the models. */
interface NodeRole {
  readonly node: GraphmlNode;
  readonly model: ModelDraft | undefined;
  readonly role: 'vertex' | 'start' | 'group';
}

/** Problems are thrown as a ModelError naming the file, the element, the field and the line. */
export function modelFileFromDocument(doc: GraphmlDocument, source: string | undefined): ModelFileJson {
  return new DocumentReader(doc, source).read();
}

class DocumentReader {
  private readonly nodeKeys: KeyTable;
  private readonly edgeKeys: KeyTable;
  private readonly roles = new Map<string, NodeRole>();

  constructor(
    private readonly doc: GraphmlDocument,
    private readonly source: string | undefined,
  ) {
    this.nodeKeys = new KeyTable(doc.keys.values(), 'node');
    this.edgeKeys = new KeyTable(doc.keys.values(), 'edge');
  }

  read(): ModelFileJson {
    this.at(undefined, 0, () => {
      this.nodeKeys.checkDefaults(this.doc.nodes.length, this.doc.textLength);
      this.edgeKeys.checkDefaults(this.doc.edges.length, this.doc.textLength);
    });
    const graph = this.at(undefined, 0, () => new KeyTable(this.doc.keys.values(), 'graph').extrasOf(this.doc.data, 'the graph')) as GraphExtras;
    const groups = this.modelGroups();
    const models = groups.size > 0 ? [...groups.values()] : [this.newModel('', fileBaseName(this.source), graph.model ?? {})];
    for (const node of this.doc.nodes) this.at(node.id, node.line, () => this.readNode(node, groups, models[0]));
    for (const edge of this.doc.edges) this.at(edge.id, edge.line, () => this.readEdge(edge));
    const file: ModelFileJson = { models: models.map(finishModel) };
    if (graph.file?.name !== undefined) file.name = graph.file.name;
    if (graph.file?.seed !== undefined) file.seed = graph.file.seed;
    return file;
  }

  /** The top-level group nodes that walker's data marks as models, by node. */
  private modelGroups(): Map<GraphmlNode, ModelDraft> {
    const groups = new Map<GraphmlNode, ModelDraft>();
    for (const node of this.doc.nodes) {
      if (node.parent !== undefined || !node.group) continue;
      const extras = this.at(node.id, node.line, () => this.nodeKeys.extrasOf(node.data, `node '${node.id}'`));
      const model = extras.model;
      if (typeof model !== 'object' || model === null) continue;
      const label = node.data.find((d) => d.graphics !== undefined)?.graphics?.labels[0];
      groups.set(node, this.newModel(`${node.id}::`, label, model as ModelExtras));
    }
    return groups;
  }

  private newModel(prefix: string, nativeName: string | undefined, extras: ModelExtras): ModelDraft {
    return { prefix, nativeName, extras, vertices: [], edges: [], startVertices: new Set(), fromStart: [] };
  }

  private readNode(node: GraphmlNode, groups: Map<GraphmlNode, ModelDraft>, single: ModelDraft): void {
    if (this.roles.has(node.id)) throw new ElementProblem(`two nodes have the id '${node.id}'; node ids must be unique in a document`);
    if (node.group) {
      this.roles.set(node.id, { node, model: undefined, role: 'group' });
      return;
    }
    const model = groups.size > 0 ? groups.get(node.topGroup ?? node) : single;
    if (model === undefined) {
      throw new ElementProblem('the node lies outside every model: in a document of several models, each vertex belongs in the group of its model');
    }
    const graphics = graphicsOf(node.data, 'node');
    const label = parseLabel(labelOf(graphics), 'vertex', parseVertexLabel);
    if (label.start) {
      const id = unprefixed(node.id, model);
      model.startVertices.add(id);
      model.vertices.push(readVertex(id, node.data, graphics, { name: labelOf(graphics).trim() }, this.nodeKeys));
      this.roles.set(node.id, { node, model, role: 'start' });
      return;
    }
    this.roles.set(node.id, { node, model, role: 'vertex' });
    // Only Start vertices read so far: this is the model's first vertex, whose label the writer gave its actions.
    const first = model.vertices.length === model.startVertices.size;
    model.vertices.push(readVertex(unprefixed(node.id, model), node.data, graphics, label, this.nodeKeys, first ? model.extras.actions : undefined));
    if (label.init !== undefined) {
      // Appended in place: a copy of the list per vertex made many INIT: labels take quadratic time.
      model.init ??= [];
      for (const action of label.init) model.init.push(action);
    }
  }

  private readEdge(graphmlEdge: GraphmlEdge): void {
    const source = this.end(graphmlEdge.source, 'source');
    const target = this.end(graphmlEdge.target, 'target');
    const model = source.model as ModelDraft;
    if (target.model !== model) throw new ElementProblem('the edge joins vertices of two models; an edge stays within its model', 'target', ErrorCodes.MODEL_INVALID);
    const graphics = graphicsOf(graphmlEdge.data, 'edge');
    const label = parseLabel(labelOf(graphics), 'edge', parseEdgeLabel);
    const edge = { id: graphmlEdge.id === undefined ? '' : unprefixed(graphmlEdge.id, model) } as EdgeJson;
    if (source.role === 'vertex') edge.sourceVertexId = unprefixed(source.node.id, model);
    edge.targetVertexId = unprefixed(target.node.id, model);
    // Walker's data may give an edge drawn from a Start vertex the source it has in the model.
    readEdgeFields(edge, graphmlEdge.data, label, this.edgeKeys);
    if (source.role === 'start') {
      edge.sourceVertexId ??= unprefixed(source.node.id, model);
      model.fromStart.push(edge);
    }
    model.edges.push(edge);
  }

  /** The node at one end of an edge, which must be a vertex. */
  private end(id: string | undefined, field: 'source' | 'target'): NodeRole {
    if (id === undefined) throw new ElementProblem(`the edge has no ${field} attribute`, field, ErrorCodes.MODEL_INVALID);
    const role = this.roles.get(id);
    if (role === undefined) throw new ElementProblem(`the edge's ${field} '${id}' is no node of the document`, field, ErrorCodes.MODEL_INVALID);
    if (role.role === 'group') {
      throw new ElementProblem(`the edge's ${field} '${id}' is a group node; edges join vertices`, field, ErrorCodes.MODEL_INVALID);
    }
    return role;
  }

  /** Runs a step of reading, turning its problem into a ModelError that names the file, the element and the line. */
  private at<T>(elementId: string | undefined, line: number, read: () => T): T {
    try {
      return read();
    } catch (error) {
      if (!(error instanceof ElementProblem)) throw error;
      const location = { source: this.source, elementId, field: error.field };
      return raise(`${error.message}${line > 0 ? ` (line ${line} of the document)` : ''}`, location, error.code);
    }
  }
}

function raise(problem: string, location: { source?: string; elementId?: string; field?: string }, code: ErrorCode): never {
  const defined = Object.fromEntries(Object.entries(location).filter(([, v]) => v !== undefined));
  throw new ModelError(problem, defined, code);
}

/** The model as the loader takes it: walker's data first, where it has a field, else what the drawing says. */
function finishModel(m: ModelDraft): ModelJson {
  const x = m.extras;
  const model = {} as ModelJson;
  if (typeof x.id === 'string') model.id = x.id;
  const name = Object.hasOwn(x, 'name') ? x.name : m.nativeName;
  if (typeof name === 'string') model.name = name;
  if (x.generator !== undefined) model.generator = x.generator;
  const start = Object.hasOwn(x, 'startElementId') ? x.startElementId : restoredStart(m);
  if (typeof start === 'string') model.startElementId = start;
  const actions = x.actions !== undefined && (m.init === undefined || sameValue(vertexView('init', x.actions), m.init)) ? x.actions : m.init;
  if (actions !== undefined) model.actions = actions;
  if (x.requirements !== undefined) model.requirements = x.requirements;
  if (x.properties !== undefined) model.properties = x.properties;
  model.vertices = m.vertices;
  model.edges = m.edges;
  if (x.predefinedPathEdgeIds !== undefined) model.predefinedPathEdgeIds = x.predefinedPathEdgeIds;
  if (start !== undefined) leaveOutStartVertices(model, m);
  return model;
}

/**
 * The start edge walker's data gave a source (an edge whose source vertex has no name, which walker draws from a
 * Start vertex so that GraphWalker's yEd reader starts on it); walker's data then says where the walk starts.
 */
function restoredStart(m: ModelDraft): string | undefined {
  return m.fromStart.find((e) => !m.startVertices.has(e.sourceVertexId as string))?.id;
}

/**
 * Where walker's data says where the walk starts, a Start vertex is how walker draws edges without a source
 * (walker-data.ts): they lose the source drawn, and the vertex is left out.
 */
function leaveOutStartVertices(model: ModelJson, m: ModelDraft): void {
  if (m.startVertices.size === 0) return;
  for (const edge of m.fromStart) if (m.startVertices.has(edge.sourceVertexId as string)) delete edge.sourceVertexId;
  model.vertices = model.vertices.filter((v) => !m.startVertices.has(v.id));
}

function unprefixed(id: string, model: ModelDraft): string {
  return model.prefix !== '' && id.startsWith(model.prefix) ? id.slice(model.prefix.length) : id;
}

/** GraphWalker names a yEd model after its file: `Login.graphml` holds the model `Login`. */
function fileBaseName(source: string | undefined): string | undefined {
  return source === undefined ? undefined : basename(source, extname(source));
}
