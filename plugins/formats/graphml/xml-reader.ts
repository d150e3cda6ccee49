import { SaxesParser, type SaxesTagPlain } from 'saxes';
import {
  GRAPHML_NAMESPACE,
  YED_NAMESPACE,
  type GraphmlData,
  type GraphmlDocument,
  type GraphmlEdge,
  type GraphmlKey,
  type GraphmlNode,
  type YedGraphics,
} from './document.js';
import { NamespaceLimitError, NamespaceScope } from './namespace-scope.js';

/** A document that is not well-formed XML, not GraphML, or declares a DTD: what is wrong and where. */
export class GraphmlSyntaxError extends Error {}

/** What an open element is to the reader; `skip` is anything it does not read (yEd's drawing, ports, ...). */
type Frame =
  | { kind: 'root' }
  | { kind: 'key'; key: GraphmlKey }
  | { kind: 'default'; key: GraphmlKey }
  | { kind: 'graph'; owner: GraphmlNode | undefined }
  | { kind: 'node'; node: GraphmlNode }
  | { kind: 'edge'; data: GraphmlData[] }
  | { kind: 'data'; data: GraphmlData }
  | { kind: 'graphics'; graphics: YedGraphics }
  | { kind: 'label'; labels: string[]; index: number }
  | { kind: 'skip' };

const SKIP: Frame = { kind: 'skip' };

/**
 * Reads GraphML text with saxes, a strict, non-validating XML parser that loads no DTD and expands no entity
 * beyond XML's five: a document that declares a DOCTYPE is refused as soon as the declaration ends, before its
 * first element, so XXE and entity-expansion ("billion laughs") documents cost nothing. Only GraphML's
 * structure and yEd's labels, positions and shapes are kept.
 *
 * @throws {GraphmlSyntaxError} saying what is wrong and at which line.
 */
export function readGraphmlDocument(text: string): GraphmlDocument {
  const builder = new DocumentBuilder(text.length);
  // Namespaces are resolved here rather than by saxes, whose namespace mode takes twice as long on a large model.
  const parser = new SaxesParser<{ position: true; xmlns: false }>({ position: true, xmlns: false });
  parser.on('doctype', () => {
    throw new GraphmlSyntaxError(
      `line ${parser.line}: the document declares a DOCTYPE. walker reads no DTD (no external entities, no ` +
        'entity definitions): remove the <!DOCTYPE ...> declaration; yEd never writes one',
    );
  });
  parser.on('opentag', (tag) => {
    try {
      builder.open(tag, parser.line);
    } catch (error) {
      if (!(error instanceof NamespaceLimitError)) throw error;
      throw new GraphmlSyntaxError(`line ${parser.line}, column ${parser.column}: ${error.message}`);
    }
  });
  parser.on('closetag', () => builder.close());
  parser.on('text', (t) => builder.text(t));
  parser.on('cdata', (t) => builder.text(t));
  parser.on('error', (error) => {
    // saxes says `<line>:<column>: <problem>`.
    const found = /^(?:.*?:)?(\d+):(\d+): (.*)$/s.exec(error.message);
    const where = found ? `line ${found[1]}, column ${found[2]}: ${found[3]}` : error.message;
    throw new GraphmlSyntaxError(`the document is not well-formed XML: ${where}`);
  });
  // A byte-order mark is not part of the document.
  parser.write(text.charCodeAt(0) === 0xfeff ? text.slice(1) : text).close();
  return builder.document();
}

/** An element as the builder sees it: its local name, its namespace, its attributes by (unprefixed) name. */
interface Tag {
  readonly name: string;
  readonly local: string;
  readonly uri: string | undefined;
  readonly attributes: Record<string, string>;
}

class DocumentBuilder {
  private readonly keys = new Map<string, GraphmlKey>();
  private readonly nodes: GraphmlNode[] = [];
  private readonly edges: GraphmlEdge[] = [];
  private readonly data: GraphmlData[] = [];
  private readonly stack: Frame[] = [];
  private readonly namespaces = new NamespaceScope();
  private graphs = 0;

  constructor(private readonly textLength: number) {}

  document(): GraphmlDocument {
    if (this.graphs === 0) throw new GraphmlSyntaxError('the <graphml> element holds no <graph>');
    return { keys: this.keys, data: this.data, nodes: this.nodes, edges: this.edges, textLength: this.textLength };
  }

  open(raw: SaxesTagPlain, line: number): void {
    const tag = this.resolve(raw);
    const parent = this.stack[this.stack.length - 1];
    this.stack.push(parent === undefined ? root(tag) : this.child(parent, tag, line));
  }

  close(): void {
    this.stack.pop();
    this.namespaces.close();
  }

  /** The element's namespace, from the `xmlns` declarations in force (its own included). */
  private resolve(raw: SaxesTagPlain): Tag {
    const attributes = raw.attributes as Record<string, string>;
    this.namespaces.open(raw.name, attributes);
    const colon = raw.name.indexOf(':');
    const prefix = colon < 0 ? '' : raw.name.slice(0, colon);
    return { name: raw.name, local: raw.name.slice(colon + 1), uri: this.namespaces.uri(prefix), attributes };
  }

  text(text: string): void {
    const top = this.stack[this.stack.length - 1];
    if (top?.kind === 'data') top.data.text += text;
    else if (top?.kind === 'default') top.key.defaultText = (top.key.defaultText ?? '') + text;
    else if (top?.kind === 'label') top.labels[top.index] += text;
  }

  private child(parent: Frame, tag: Tag, line: number): Frame {
    const graphml = tag.uri === GRAPHML_NAMESPACE || tag.uri === '';
    switch (parent.kind) {
      case 'root':
        return graphml ? this.inRoot(tag) : SKIP;
      case 'key':
        if (!graphml || tag.local !== 'default') return SKIP;
        // An empty <default/> is a default all the same: the empty string.
        parent.key.defaultText ??= '';
        return { kind: 'default', key: parent.key };
      case 'graph':
        return graphml ? this.inGraph(parent.owner, tag, line) : SKIP;
      case 'node':
        if (graphml && tag.local === 'graph') {
          parent.node.group = true;
          return { kind: 'graph', owner: parent.node };
        }
        return graphml && tag.local === 'data' ? newData(parent.node.data, tag) : SKIP;
      case 'edge':
        return graphml && tag.local === 'data' ? newData(parent.data, tag) : SKIP;
      case 'data':
        return inData(parent.data, tag);
      case 'graphics':
        return inGraphics(parent, tag);
      default:
        return SKIP;
    }
  }

  private inRoot(tag: Tag): Frame {
    if (tag.local === 'key') {
      const key: GraphmlKey = {
        id: attribute(tag, 'id') ?? '',
        for: attribute(tag, 'for') ?? 'all',
        attrName: attribute(tag, 'attr.name'),
        attrType: attribute(tag, 'attr.type'),
        yfilesType: attribute(tag, 'yfiles.type'),
      };
      this.keys.set(key.id, key);
      return { kind: 'key', key };
    }
    // GraphML allows several graphs in a document; like GraphWalker, walker reads the first.
    if (tag.local === 'graph' && this.graphs++ === 0) return { kind: 'graph', owner: undefined };
    return SKIP;
  }

  private inGraph(owner: GraphmlNode | undefined, tag: Tag, line: number): Frame {
    if (tag.local === 'node') {
      const topGroup = owner === undefined ? undefined : (owner.topGroup ?? owner);
      const node: GraphmlNode = { id: attribute(tag, 'id') ?? '', line, data: [], parent: owner, topGroup, group: false };
      this.nodes.push(node);
      return { kind: 'node', node };
    }
    if (tag.local === 'edge') {
      const data: GraphmlData[] = [];
      this.edges.push({ id: attribute(tag, 'id'), source: attribute(tag, 'source'), target: attribute(tag, 'target'), line, data });
      return { kind: 'edge', data };
    }
    if (tag.local === 'data' && owner === undefined) return newData(this.data, tag);
    return SKIP;
  }
}

function root(tag: Tag): Frame {
  if (tag.local !== 'graphml' || (tag.uri !== GRAPHML_NAMESPACE && tag.uri !== '')) {
    throw new GraphmlSyntaxError(`the root element is <${tag.name}>, not <graphml>: this is no GraphML document`);
  }
  return { kind: 'root' };
}

function newData(list: GraphmlData[], tag: Tag): Frame {
  const data: GraphmlData = { key: attribute(tag, 'key') ?? '', text: '' };
  list.push(data);
  return { kind: 'data', data };
}

/** The first yEd element of a data element is its drawing: `y:ShapeNode`, `y:PolyLineEdge`, ... */
function inData(data: GraphmlData, tag: Tag): Frame {
  if (tag.uri !== YED_NAMESPACE || data.graphics !== undefined) return SKIP;
  data.graphics = { kind: tag.local, labels: [] };
  return { kind: 'graphics', graphics: data.graphics };
}

function inGraphics(parent: Frame & { kind: 'graphics' }, tag: Tag): Frame {
  if (tag.uri !== YED_NAMESPACE) return SKIP;
  const { graphics } = parent;
  if (tag.local === 'NodeLabel' || tag.local === 'EdgeLabel') {
    graphics.labels.push('');
    return { kind: 'label', labels: graphics.labels, index: graphics.labels.length - 1 };
  }
  if (tag.local === 'Geometry' && graphics.x === undefined) {
    graphics.x = Number(attribute(tag, 'x'));
    graphics.y = Number(attribute(tag, 'y'));
  }
  // A group's realizers nest (ProxyAutoBoundsNode > Realizers > GroupNode); their labels and geometry count.
  return parent;
}

function attribute(tag: Tag, name: string): string | undefined {
  return tag.attributes[name];
}
