/**
 * yEd documents made to measure, for tests of how reading scales: each part of a document grows with a scale
 * `s` (s vertices, s nested groups, a label of s comments, ...), so that a test can compare reading a document of
 * scale s with one of scale 2s.
 */

export const GRAPHML = 'http://graphml.graphdrawing.org/xmlns';
export const YED = 'http://www.yworks.com/xml/graphml';

/** The parts of a document: key declarations, nodes inside the one model, edges, and nodes after them. */
export interface DocumentParts {
  keys: string[];
  nodes: string[];
  edges: string[];
  tail: string[];
}

export function shapeNode(id: string, label: string, attributes = ''): string {
  return `<node id="${id}"${attributes}><data key="d0"><y:ShapeNode><y:NodeLabel>${label}</y:NodeLabel></y:ShapeNode></data></node>`;
}

export function polyLineEdge(id: string, source: string, target: string, label: string): string {
  return `<edge id="${id}" source="${source}" target="${target}"><data key="d1"><y:PolyLineEdge><y:EdgeLabel>${label}</y:EdgeLabel></y:PolyLineEdge></data></edge>`;
}

/**
 * A document of one model, in a group node walker's data key marks as a model (so that groups inside it are
 * read as in a document of several models), with the vertices `a` and `b` that edges may join.
 */
export function yedDocument(parts: DocumentParts): string {
  return [
    `<?xml version="1.0" encoding="UTF-8"?>\n<graphml xmlns="${GRAPHML}" xmlns:y="${YED}">`,
    '<key for="node" id="d0" yfiles.type="nodegraphics"/><key for="edge" id="d1" yfiles.type="edgegraphics"/>',
    '<key attr.name="walker" attr.type="string" for="node" id="w"/>',
    ...parts.keys,
    '<graph id="G" edgedefault="directed"><node id="m"><data key="w">{"model":{"id":"m","name":"m"}}</data>',
    '<data key="d0"><y:ProxyAutoBoundsNode><y:Realizers active="0"><y:GroupNode><y:NodeLabel>m</y:NodeLabel></y:GroupNode></y:Realizers></y:ProxyAutoBoundsNode></data>',
    '<graph id="m:">',
    shapeNode('a', 'v_A'),
    shapeNode('b', 'v_B'),
    ...parts.nodes,
    ...parts.edges,
    ...parts.tail,
    '</graph></node></graph></graphml>',
  ].join('\n');
}

/** A part of a document at scale `s`: what it adds to each list. */
export type Part = (s: number, into: DocumentParts) => void;

function times(s: number, make: (i: number) => string): string[] {
  return Array.from({ length: s }, (_, i) => make(i));
}

/**
 * Prefixes that the nested namespaces bind in turn, fewer than the reader takes in force at once
 * (MAX_PREFIXES_IN_FORCE): past them, each element redeclares a prefix an outer one bound.
 */
const NESTED_PREFIXES = 500;

function add(list: string[], s: number, make: (i: number) => string): void {
  for (let i = 0; i < s; i++) list.push(make(i));
}

/**
 * Every kind of part, by name; each grows in proportion to `s`, by a factor that makes reading a part of one kind
 * cost about as much as of another at the same scale (a vertex costs as much as 16 attributes or 25 comments).
 */
export const PARTS: Readonly<Record<string, Part>> = {
  vertices: (s, d) => add(d.nodes, s, (i) => shapeNode(`v${i}`, `v_${i}`)),
  initLabels: (s, d) => add(d.nodes, s, (i) => shapeNode(`i${i}`, `v_Init${i} INIT: x = ${i};`)),
  sharedStates: (s, d) => add(d.nodes, s, (i) => shapeNode(`s${i}`, `v_S${i} SHARED: S${i % 3}`)),
  guardedEdges: (s, d) => add(d.edges, s, (i) => polyLineEdge(`e${i}`, 'a', 'b', `e_${i} [x &gt; ${i}] / x++; weight=0.5`)),
  properties: (s, d) => {
    d.keys.push('<key attr.name="note" attr.type="string" for="node" id="p"/>');
    add(d.nodes, s, (i) => `<node id="p${i}"><data key="p"> note ${i} </data><data key="d0"><y:ShapeNode><y:NodeLabel>v_P${i}</y:NodeLabel></y:ShapeNode></data></node>`);
  },
  keyDefaults: (s, d) => {
    add(d.keys, s, (i) => `<key attr.name="k${i}" attr.type="string" for="node" id="k${i}"><default>default value ${i}</default></key>`);
    add(d.nodes, s, (i) => shapeNode(`k${i}`, `v_K${i}`));
  },
  nestedGroups: (s, d) => {
    let inner = '';
    for (let i = s - 1; i >= 0; i--) inner = `<node id="g${i}"><graph id="g${i}:">${shapeNode(`gv${i}`, `v_G${i}`)}${inner}</graph></node>`;
    d.nodes.push(inner);
  },
  nestedNamespaces: (s, d) => {
    let inner = '';
    for (let i = 4 * s - 1; i >= 0; i--) inner = `<x:e xmlns:x="urn:x" xmlns:p${i % NESTED_PREFIXES}="urn:p${i}">${inner}</x:e>`;
    d.nodes.push(`<node id="ns"><data key="d0">${inner}<y:ShapeNode><y:NodeLabel>v_Ns</y:NodeLabel></y:ShapeNode></data></node>`);
  },
  manyAttributes: (s, d) => d.nodes.push(shapeNode('at', 'v_At', times(16 * s, (i) => ` a${i}="${i}"`).join(''))),
  longLabel: (s, d) => d.nodes.push(shapeNode('ll', `v_Long INIT: ${times(3 * s, (i) => `x${i} = ${i};`).join(' ')} REQTAG: ${times(3 * s, (i) => `r${i}`).join(', ')}`)),
  closedComments: (s, d) => d.nodes.push(shapeNode('cc', `v_Comments ${times(25 * s, (i) => `/* ${i} */`).join(' ')}`)),
  manyLabels: (s, d) => d.nodes.push(`<node id="ml"><data key="d0"><y:ShapeNode>${times(10 * s, (i) => `<y:NodeLabel>${i === 0 ? 'v_' : ''}l${i}</y:NodeLabel>`).join('')}</y:ShapeNode></data></node>`),
  // Refused, and last: what comes before it is read all the same.
  unclosedComments: (s, d) => d.tail.push(shapeNode('uc', `v_Unclosed${' /*'.repeat(15 * s)}`)),
  unclosedGuard: (s, d) => d.tail.push(polyLineEdge('ug', 'a', 'b', `e_Open ${'['.repeat(100 * s)}`)),
};

/** A document of the named parts at scale `s`. */
export function documentOf(parts: readonly string[], s: number): string {
  const into: DocumentParts = { keys: [], nodes: [], edges: [], tail: [] };
  for (const name of parts) PARTS[name](s, into);
  return yedDocument(into);
}
