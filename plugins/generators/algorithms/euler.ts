import type { RandomSource } from '../../../core/random.js';
import type { LocalGraph } from './local-graph.js';

/**
 * Hierholzer's algorithm, iterative (an explicit stack, so long tours cannot overflow the call stack): a
 * trail from `start` that walks every local edge `e` exactly `times[e]` times, as local edges in walking
 * order. The multigraph must be connected and balanced but for one more out- than in-edge at `start` and
 * the reverse at the end (or balanced everywhere, for a closed tour). At a vertex, edges are taken in
 * declaration order, or — given a random source — in declaration order rotated by a random offset per vertex,
 * which picks another of the equally long trails for another seed. O(total edge walks).
 *
 * If the multigraph is not connected, the trail is the part reachable from `start`; callers compare its
 * length with what they asked for.
 */
export function eulerTrail(g: LocalGraph, times: Int32Array, start: number, random?: RandomSource): Int32Array {
  const left = Int32Array.from(times);
  let total = 0;
  for (let e = 0; e < g.edgeCount; e++) total += left[e];
  const scanned = new Int32Array(g.vertexCount);
  const offset = rotations(g, random);
  const vertexStack = new Int32Array(total + 1);
  const edgeStack = new Int32Array(total + 1);
  const trail = new Int32Array(total);
  let written = total;
  let top = 0;
  vertexStack[0] = start;
  edgeStack[0] = -1;
  while (top >= 0) {
    const v = vertexStack[top];
    const first = g.outStart[v];
    const degree = g.outStart[v + 1] - first;
    let k = scanned[v];
    while (k < degree && left[first + ((offset[v] + k) % degree)] === 0) k++;
    scanned[v] = k;
    if (k < degree) {
      const e = first + ((offset[v] + k) % degree);
      left[e]--;
      top++;
      vertexStack[top] = g.to[e];
      edgeStack[top] = e;
    } else {
      // A vertex with nothing left goes to the trail, which is therefore assembled back to front.
      if (edgeStack[top] >= 0) trail[--written] = edgeStack[top];
      top--;
    }
  }
  return trail.subarray(written);
}

/** Per vertex, where its scan of out-edges starts: 0 without a random source. */
function rotations(g: LocalGraph, random: RandomSource | undefined): Int32Array {
  const offset = new Int32Array(g.vertexCount);
  if (random === undefined) return offset;
  for (let v = 0; v < g.vertexCount; v++) {
    const degree = g.outStart[v + 1] - g.outStart[v];
    if (degree > 1) offset[v] = random.int(degree);
  }
  return offset;
}
