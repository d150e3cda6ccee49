import type { EdgeShape } from '../server/view/messages.js';
import { edgeLabelWidth, r, type Box } from './geometry.js';
import type { EdgePlace } from './layout.js';

/** How far the first loop of a side reaches out from the vertex, and how much further each next one. */
const REACH = 30;
const REACH_STEP = 20;
/** Between a loop's far end and its label. */
const LABEL_GAP = 4;
/** A label's line, stacked for the loops of one side. */
const LINE = 14;

/** The vertex's `k`-th loop: on the right for even k, on the left for odd k, each pair further out than the one before. */
function sideOf(k: number): { readonly side: 1 | -1; readonly ring: number } {
  return { side: k % 2 === 0 ? 1 : -1, ring: Math.floor(k / 2) };
}

/** How far a loop's curve reaches: its control points at `reach`, its far end at three quarters of that. */
function reachOf(ring: number): number {
  return REACH + REACH_STEP * ring;
}

/**
 * Each loop of one vertex (its edges from itself to itself), apart from the others: on alternate sides, the
 * right first, each further pair of loops further out, each label beside its loop's far end and clear of the
 * box — where ELK would stack two loops on one side into one shape with crowded labels.
 */
export function loopPlaces(box: Box, loops: readonly EdgeShape[]): Array<[number, EdgePlace]> {
  const middle = box.y + box.height / 2;
  return loops.map((loop, k) => {
    const { side, ring } = sideOf(k);
    const x = side === 1 ? box.x + box.width : box.x;
    const reach = reachOf(ring);
    const spread = 7 + 3 * ring;
    const out = x + side * reach;
    const path = `M${r(x)},${r(middle - spread)} C${r(out)},${r(middle - spread - reach / 2)} ${r(out)},${r(middle + spread + reach / 2)} ${r(x)},${r(middle + spread)}`;
    const label = { x: x + side * (reach * 0.75 + LABEL_GAP), y: middle + LINE * ring };
    return [loop.index, { path, label, anchor: side === 1 ? 'start' : 'end', labelWidth: edgeLabelWidth(loop.name) }] as [number, EdgePlace];
  });
}

/** The room the loops of a vertex take beside it, on each side, with their labels: what ELK is asked to leave free. */
export function loopRoom(loops: readonly EdgeShape[]): { readonly right: number; readonly left: number; readonly height: number } {
  const room = { right: 0, left: 0, height: 0 };
  loops.forEach((loop, k) => {
    const { side, ring } = sideOf(k);
    const width = reachOf(ring) * 0.75 + LABEL_GAP + edgeLabelWidth(loop.name);
    if (side === 1) room.right = Math.max(room.right, width);
    else room.left = Math.max(room.left, width);
    room.height = Math.max(room.height, LINE * (ring + 1));
  });
  return room;
}

/** The loops of every vertex of a model, by vertex index, in the order of the model's edges. */
export function loopsByVertex(edges: readonly EdgeShape[]): Map<number, EdgeShape[]> {
  const loops = new Map<number, EdgeShape[]>();
  for (const e of edges) {
    if (e.source !== e.target) continue;
    const list = loops.get(e.source) ?? [];
    list.push(e);
    loops.set(e.source, list);
  }
  return loops;
}
