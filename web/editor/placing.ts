import { centre, r, VERTEX_HEIGHT, type Box, type Point } from '../geometry.js';
import { between, startEdge, type EdgePlace } from '../layout.js';
import type { DraftState, EdgeData, VertexData } from './draft-state.js';
import { placeOf } from './draft-state.js';

/** Room between two drafts side by side, and around the drawing. */
const GAP = 80;
const MARGIN = 40;
const TITLE = 30;

/** Where everything of the editor's drawing is: each draft in its frame, side by side. */
export interface Placing {
  readonly width: number;
  readonly height: number;
  /** Per draft id, its frame and the offset its own coordinates are drawn at. */
  readonly frames: Map<string, Box & { readonly dx: number; readonly dy: number; readonly title: string }>;
  /** Per draft id, per vertex id, its box in the drawing's coordinates. */
  readonly boxes: Map<string, Map<string, Box>>;
}

export function vertexBox(vertex: VertexData, at: Point): Box {
  return { x: at.x, y: at.y, width: Math.max(60, Math.round(vertex.name.length * 7.2) + 24), height: VERTEX_HEIGHT };
}

/**
 * Places the drafts: each vertex where its `properties.x` and `y` put it (GraphWalker's convention), a vertex
 * without them in rows under the placed ones, until it is moved; each draft to the right of the one before.
 */
export function placeDrafts(drafts: readonly DraftState[]): Placing {
  const frames: Placing['frames'] = new Map();
  const boxes: Placing['boxes'] = new Map();
  let left = MARGIN;
  let height = 0;
  for (const draft of drafts) {
    const own = ownBoxes(draft);
    let minX = Infinity;
    let minY = Infinity;
    let maxX = -Infinity;
    let maxY = -Infinity;
    for (const box of own.values()) {
      minX = Math.min(minX, box.x);
      minY = Math.min(minY, box.y);
      maxX = Math.max(maxX, box.x + box.width);
      maxY = Math.max(maxY, box.y + box.height);
    }
    if (minX === Infinity) [minX, minY, maxX, maxY] = [0, 0, 240, 120];
    // Start edges reach 50 above their vertex: the frame leaves them room.
    const dx = left - Math.min(minX, 0);
    const dy = MARGIN + TITLE + 60 - Math.min(minY, 0);
    const placed = new Map<string, Box>();
    for (const [id, box] of own) placed.set(id, { ...box, x: box.x + dx, y: box.y + dy });
    const frame = { x: left - 20, y: MARGIN, width: Math.max(maxX, 240) - Math.min(minX, 0) + 40, height: Math.max(maxY, 120) - Math.min(minY, 0) + TITLE + 100, dx, dy, title: draft.fields.name ?? draft.modelId };
    frames.set(draft.id, frame);
    boxes.set(draft.id, placed);
    left = frame.x + frame.width + GAP;
    height = Math.max(height, frame.y + frame.height + MARGIN);
  }
  return { width: left, height, frames, boxes };
}

function ownBoxes(draft: DraftState): Map<string, Box> {
  const boxes = new Map<string, Box>();
  let bottom = 0;
  const unplaced: VertexData[] = [];
  for (const vertex of draft.vertices.values()) {
    const at = placeOf(vertex);
    if (at === undefined) unplaced.push(vertex);
    else {
      boxes.set(vertex.id, vertexBox(vertex, at));
      bottom = Math.max(bottom, at.y + VERTEX_HEIGHT);
    }
  }
  const top = boxes.size > 0 ? bottom + 80 : 0;
  unplaced.forEach((vertex, i) => boxes.set(vertex.id, vertexBox(vertex, { x: (i % 4) * 200, y: top + Math.floor(i / 4) * 100 })));
  return boxes;
}

/** An edge's path between its boxes: a loop beside its vertex, a start edge from a dot above its target. */
export function edgePlace(edge: EdgeData, boxes: ReadonlyMap<string, Box>, nth: number): EdgePlace | undefined {
  const target = boxes.get(edge.target_vertex_id);
  if (target === undefined) return undefined;
  const width = edge.name.length * 6.5;
  if (edge.source_vertex_id === null) return startEdge(target, width);
  const source = boxes.get(edge.source_vertex_id);
  if (source === undefined) return undefined;
  if (source === target) return loop(source, nth, width);
  return between(source, target, nth, width);
}

function loop(box: Box, nth: number, labelWidth: number): EdgePlace {
  const reach = 30 + 20 * nth;
  const top = { x: box.x + box.width, y: box.y + 8 };
  const bottom = { x: box.x + box.width, y: box.y + box.height - 8 };
  const path = `M${r(top.x)},${r(top.y)} C${r(top.x + reach)},${r(top.y - reach / 2)} ${r(bottom.x + reach)},${r(bottom.y + reach / 2)} ${r(bottom.x)},${r(bottom.y)}`;
  return { path, label: { x: box.x + box.width + reach * 0.8 + 4, y: centre(box).y }, anchor: 'start', labelWidth };
}

/** Which of the edges between one pair of vertices each edge is, so that they bend apart. */
export function pairRanks(edges: Iterable<EdgeData>): Map<string, number> {
  const seen = new Map<string, number>();
  const ranks = new Map<string, number>();
  for (const edge of edges) {
    const key = edge.source_vertex_id === edge.target_vertex_id ? `loop:${edge.target_vertex_id}` : [edge.source_vertex_id ?? '', edge.target_vertex_id].sort().join('\u0000');
    const nth = seen.get(key) ?? 0;
    seen.set(key, nth + 1);
    ranks.set(edge.id, nth);
  }
  return ranks;
}
