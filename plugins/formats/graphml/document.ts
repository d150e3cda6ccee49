/**
 * A GraphML document as the reader needs it: the keys, the graphs with their nodes and edges, and of every
 * `<data>` either its text or, for yEd's graphics, the shape, position and label texts. Everything else of
 * yEd's drawing (colours, paths, fonts) is dropped while reading.
 */

/** A `<key>` declaration. */
export interface GraphmlKey {
  readonly id: string;
  /** `node`, `edge`, `graph`, `all`, ... */
  readonly for: string;
  readonly attrName?: string;
  /** `string` (the default), `boolean`, `int`, `long`, `float`, `double`. */
  readonly attrType?: string;
  /** Set on yEd's own keys (`nodegraphics`, `edgegraphics`, ...): never a property. */
  readonly yfilesType?: string;
  defaultText?: string;
}

/** yEd's drawing of a node or an edge: `y:ShapeNode`, `y:PolyLineEdge`, ... */
export interface YedGraphics {
  /** The local name of the realizer, e.g. `ShapeNode`, `GenericNode`, `ProxyAutoBoundsNode`, `PolyLineEdge`. */
  readonly kind: string;
  /** From the first `y:Geometry`, when there is one. */
  x?: number;
  y?: number;
  /** The text of every `y:NodeLabel` / `y:EdgeLabel`, in document order. */
  readonly labels: string[];
}

export interface GraphmlData {
  readonly key: string;
  /** The text content (for a property). */
  text: string;
  /** Set when the data holds yEd graphics. */
  graphics?: YedGraphics;
}

export interface GraphmlNode {
  readonly id: string;
  /** 1-based line of the `<node>` tag, for messages. */
  readonly line: number;
  readonly data: GraphmlData[];
  /** The group node whose graph holds this node; undefined for a node of the document's graph. */
  readonly parent: GraphmlNode | undefined;
  /** The group node of the document's graph that holds this node, however deep; undefined for a node of that graph. */
  readonly topGroup: GraphmlNode | undefined;
  /** True for a group node: one with a graph of its own. */
  group: boolean;
}

export interface GraphmlEdge {
  readonly id: string | undefined;
  readonly source: string | undefined;
  readonly target: string | undefined;
  readonly line: number;
  readonly data: GraphmlData[];
}

/**
 * The first `<graph>` of a document (GraphML allows more; yEd writes one), with the graphs of its group nodes
 * flattened into it: every node and edge in document order.
 */
export interface GraphmlDocument {
  readonly keys: Map<string, GraphmlKey>;
  /** The data of the document's graph. */
  readonly data: GraphmlData[];
  readonly nodes: GraphmlNode[];
  readonly edges: GraphmlEdge[];
  /** The length of the document's text, which bounds what reading may make of it. */
  readonly textLength: number;
}

export const GRAPHML_NAMESPACE = 'http://graphml.graphdrawing.org/xmlns';
export const YED_NAMESPACE = 'http://www.yworks.com/xml/graphml';
