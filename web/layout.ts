import { placedInFile, type GraphShape, type ModelShape, type VertexShape } from '../server/view/messages.js';
import { arrange } from './arrange.js';
import { START_MARK, type ElkResult, type ElkRunner } from './elk-layout.js';
import { centre, edgeLabelWidth, middle, r, VERTEX_HEIGHT, vertexWidth, type Box, type Point } from './geometry.js';
import { loopPlaces, loopsByVertex } from './loops.js';

/** Where an edge goes: an SVG path, where its label sits, and for a start edge the dot it starts from. */
export interface EdgePlace {
  readonly path: string;
  /** Where the label's baseline is centred; or, with {@link anchor}, where it starts or ends. */
  readonly label: Point;
  readonly anchor?: 'start' | 'end';
  readonly labelWidth: number;
  readonly start?: Point;
}

/** Every element placed, in one frame for all models, side by side. */
export interface Layout {
  readonly width: number;
  readonly height: number;
  readonly vertices: ReadonlyMap<number, Box>;
  readonly edges: ReadonlyMap<number, EdgePlace>;
  /** Each model's frame and title, in the order of the graph. */
  readonly models: ReadonlyArray<Box & { readonly title: string }>;
  /**
   * By vertex index, the mark of a start vertex (a model whose start element is a vertex, not an edge): drawn
   * like a start edge, a dot and an arrow into it, but no element of the model.
   */
  readonly starts: ReadonlyMap<number, EdgePlace>;
  /** Vertices of one shared state in different models, linked. */
  readonly shared: ReadonlyArray<readonly [Point, Point]>;
}

const TITLE_HEIGHT = 36;

/**
 * Places every model: at the positions the model file gives when it places every vertex of the model, else
 * by ELK's layered layout (in its worker); then the models side by side, in rows arranged to fill a pane of
 * `aspect` (its width over its height).
 */
export async function layOut(graph: GraphShape, elk: ElkRunner, aspect: number): Promise<Layout> {
  const placed: ModelPlaces[] = [];
  for (const model of graph.models) placed.push(placedInFile(model) ? placedByFile(model) : placedByElk(model, await elk.layout(model)));
  // A frame as wide as its model's drawing, or as its title in the page's 14 px bold font if that is wider.
  const frames = placed.map((p, m) => ({ width: Math.max(p.maxX - p.minX, titleOf(graph.models[m]).length * 9), height: p.maxY - p.minY + TITLE_HEIGHT }));
  const arranged = arrange(frames, aspect);
  const vertices = new Map<number, Box>();
  const edges = new Map<number, EdgePlace>();
  const starts = new Map<number, EdgePlace>();
  const models = placed.map((places, m) => {
    const { x, y } = arranged.corners[m];
    const dx = x - places.minX;
    const dy = y + TITLE_HEIGHT - places.minY;
    for (const [index, box] of places.vertices) vertices.set(index, { ...box, x: box.x + dx, y: box.y + dy });
    for (const [index, edge] of places.edges) edges.set(index, moved(edge, dx, dy));
    for (const [index, start] of places.starts) starts.set(index, moved(start, dx, dy));
    return { x, y, ...frames[m], title: titleOf(graph.models[m]) };
  });
  return { width: arranged.width, height: arranged.height, vertices, edges, starts, models, shared: sharedLinks(graph, vertices) };
}

function titleOf(model: ModelShape): string {
  return model.name ?? model.id;
}

/** One model's places in its own frame, and the frame's extent. */
interface ModelPlaces {
  readonly vertices: Map<number, Box>;
  readonly edges: Map<number, EdgePlace>;
  readonly starts: Map<number, EdgePlace>;
  readonly minX: number;
  readonly minY: number;
  readonly maxX: number;
  readonly maxY: number;
}

function placedByFile(model: ModelShape): ModelPlaces {
  const vertices = new Map<number, Box>();
  for (const v of model.vertices) vertices.set(v.index, { x: v.x as number, y: v.y as number, width: vertexWidth(v), height: VERTEX_HEIGHT });
  const edges = new Map<number, EdgePlace>(placedLoops(model, vertices));
  const pairs = new Map<string, number>();
  for (const e of model.edges) {
    const target = vertices.get(e.target);
    if (target === undefined || e.source === e.target) continue;
    const source = vertices.get(e.source);
    // Edges between the same two vertices bend apart, each a little more than the one before.
    const key = [e.source, e.target].sort((a, b) => a - b).join(':');
    const nth = pairs.get(key) ?? 0;
    pairs.set(key, nth + 1);
    const width = edgeLabelWidth(e.name);
    edges.set(e.index, source === undefined ? startEdge(target, width) : between(source, target, nth, width));
  }
  const starts = new Map<number, EdgePlace>();
  const startVertex = vertices.get(model.startElement);
  if (startVertex !== undefined) starts.set(model.startElement, startEdge(startVertex, 0));
  return withExtent(vertices, edges, starts);
}

/** Every loop of the model's vertices, placed apart from each other (web/loops.ts). */
function placedLoops(model: ModelShape, vertices: ReadonlyMap<number, Box>): Array<[number, EdgePlace]> {
  return [...loopsByVertex(model.edges)].flatMap(([vertex, loops]) => {
    const box = vertices.get(vertex);
    return box === undefined ? [] : loopPlaces(box, loops);
  });
}

/** The model's places as ELK laid them out; the loops, which ELK left room for, as web/loops.ts places them. */
function placedByElk(model: ModelShape, result: ElkResult): ModelPlaces {
  const boxes = new Map<string, Box>();
  for (const c of result.children ?? []) boxes.set(c.id, { x: c.x ?? 0, y: c.y ?? 0, width: c.width ?? 0, height: c.height ?? 0 });
  const vertices = new Map<number, Box>();
  for (const v of model.vertices) vertices.set(v.index, boxes.get(`v${v.index}`) as Box);
  const edges = new Map<number, EdgePlace>(placedLoops(model, vertices));
  const starts = new Map<number, EdgePlace>();
  const names = new Map(model.edges.map((e) => [e.index, e.name]));
  for (const e of result.edges ?? []) {
    const section = e.sections?.[0];
    if (section === undefined) continue;
    const points = [section.startPoint, ...(section.bendPoints ?? []), section.endPoint];
    const label = e.labels?.[0];
    const index = Number(e.id.slice(1));
    const startBox = boxes.get(`s${index}`);
    const place = {
      path: `M${points.map((p) => `${r(p.x)},${r(p.y)}`).join(' L')}`,
      label: label === undefined ? middle(points) : { x: (label.x ?? 0) + (label.width ?? 0) / 2, y: (label.y ?? 0) + (label.height ?? 0) / 2 },
      labelWidth: edgeLabelWidth(names.get(index) ?? ''),
      ...(startBox === undefined ? {} : { start: centre(startBox) }),
    };
    if (e.id === START_MARK) starts.set(model.startElement, { ...place, start: centre(boxes.get(START_MARK) as Box) });
    else edges.set(index, place);
  }
  return withExtent(vertices, edges, starts);
}

function withExtent(vertices: Map<number, Box>, edges: Map<number, EdgePlace>, starts: Map<number, EdgePlace>): ModelPlaces {
  let minX = Infinity;
  let minY = Infinity;
  let maxX = -Infinity;
  let maxY = -Infinity;
  const take = (x: number, y: number): void => {
    minX = Math.min(minX, x);
    minY = Math.min(minY, y);
    maxX = Math.max(maxX, x);
    maxY = Math.max(maxY, y);
  };
  for (const box of vertices.values()) {
    take(box.x, box.y);
    take(box.x + box.width, box.y + box.height);
  }
  for (const edge of [...edges.values(), ...starts.values()]) {
    // Loops and bends reach beyond the boxes; labels too.
    for (const [, x, y] of edge.path.matchAll(/(-?[\d.]+),(-?[\d.]+)/g)) take(Number(x), Number(y));
    const left = edge.anchor === 'start' ? 0 : edge.anchor === 'end' ? edge.labelWidth : edge.labelWidth / 2;
    take(edge.label.x - left, edge.label.y - 10);
    take(edge.label.x - left + edge.labelWidth, edge.label.y + 10);
    if (edge.start !== undefined) take(edge.start.x, edge.start.y);
  }
  if (minX === Infinity) return { vertices, edges, starts, minX: 0, minY: 0, maxX: 100, maxY: 40 };
  return { vertices, edges, starts, minX, minY, maxX, maxY };
}

/** A start edge: from a dot above its target. */
export function startEdge(target: Box, labelWidth: number): EdgePlace {
  const to = { x: target.x + target.width / 2, y: target.y };
  const start = { x: to.x, y: to.y - 50 };
  return { path: `M${r(start.x)},${r(start.y)} L${r(to.x)},${r(to.y)}`, label: { x: start.x + 6, y: start.y + 24 }, anchor: 'start', labelWidth, start };
}

/** From box to box, straight for the first edge of a pair and bent to alternate sides for the others. */
export function between(from: Box, to: Box, nth: number, labelWidth: number): EdgePlace {
  const a = border(from, centre(to));
  const b = border(to, centre(from));
  const bend = nth === 0 ? 0 : Math.ceil(nth / 2) * 30 * (nth % 2 === 0 ? -1 : 1);
  const length = Math.hypot(b.x - a.x, b.y - a.y) || 1;
  const control = { x: (a.x + b.x) / 2 - ((b.y - a.y) / length) * bend * 2, y: (a.y + b.y) / 2 + ((b.x - a.x) / length) * bend * 2 };
  const path = bend === 0 ? `M${r(a.x)},${r(a.y)} L${r(b.x)},${r(b.y)}` : `M${r(a.x)},${r(a.y)} Q${r(control.x)},${r(control.y)} ${r(b.x)},${r(b.y)}`;
  const label = bend === 0 ? middle([a, b]) : { x: (a.x + 2 * control.x + b.x) / 4, y: (a.y + 2 * control.y + b.y) / 4 };
  return { path, label, labelWidth };
}

/** Where the line from the box's centre towards `towards` leaves the box. */
function border(box: Box, towards: Point): Point {
  const c = centre(box);
  const dx = towards.x - c.x;
  const dy = towards.y - c.y;
  if (dx === 0 && dy === 0) return c;
  const scale = Math.min(dx === 0 ? Infinity : box.width / 2 / Math.abs(dx), dy === 0 ? Infinity : box.height / 2 / Math.abs(dy));
  return { x: c.x + dx * scale, y: c.y + dy * scale };
}

function moved(edge: EdgePlace, dx: number, dy: number): EdgePlace {
  const path = edge.path.replace(/(-?[\d.]+),(-?[\d.]+)/g, (_m, x: string, y: string) => `${r(Number(x) + dx)},${r(Number(y) + dy)}`);
  const label = { x: edge.label.x + dx, y: edge.label.y + dy };
  return { ...edge, path, label, ...(edge.start === undefined ? {} : { start: { x: edge.start.x + dx, y: edge.start.y + dy } }) };
}

/** Each vertex of a shared state linked to the next one of it in another model. */
function sharedLinks(graph: GraphShape, boxes: ReadonlyMap<number, Box>): Array<[Point, Point]> {
  const groups = new Map<string, Array<{ model: number; vertex: VertexShape }>>();
  graph.models.forEach((model, m) => {
    for (const vertex of model.vertices) {
      if (vertex.sharedState === undefined) continue;
      const group = groups.get(vertex.sharedState) ?? [];
      group.push({ model: m, vertex });
      groups.set(vertex.sharedState, group);
    }
  });
  const links: Array<[Point, Point]> = [];
  for (const group of groups.values()) {
    for (let i = 1; i < group.length; i++) {
      if (group[i].model === group[i - 1].model) continue;
      links.push([centre(boxes.get(group[i - 1].vertex.index) as Box), centre(boxes.get(group[i].vertex.index) as Box)]);
    }
  }
  return links;
}

