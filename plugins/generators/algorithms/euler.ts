import type { LocalGraph } from './local-graph.js';

/**
 * Hierholzer's algorithm, iterative (an explicit stack, so long tours cannot overflow the call stack): a
 * trail from `start` that walks every local edge `e` exactly `times[e]` times, as local edges in walking
 * order. The multigraph must be connected and balanced but for one more out- than in-edge at `start` and
 * the reverse at the end (or balanced everywhere, for a closed tour). At a vertex, edges are taken in
 * declaration order, so the trail is the same on every run. O(total edge walks).
 *
 * If the multigraph is not connected, the trail is the part reachable from `start`; callers compare its
 * length with what they asked for.
 */
export function eulerTrail(g: LocalGraph, times: Int32Array, start: number): Int32Array {
  const left = Int32Array.from(times);
  let total = 0;
  for (let e = 0; e < g.edgeCount; e++) total += left[e];
  const next = Int32Array.from(g.outStart.subarray(0, g.vertexCount));
  const vertexStack = new Int32Array(total + 1);
  const edgeStack = new Int32Array(total + 1);
  const trail = new Int32Array(total);
  let written = total;
  let top = 0;
  vertexStack[0] = start;
  edgeStack[0] = -1;
  while (top >= 0) {
    const v = vertexStack[top];
    let e = next[v];
    const end = g.outStart[v + 1];
    while (e < end && left[e] === 0) e++;
    next[v] = e;
    if (e < end) {
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
