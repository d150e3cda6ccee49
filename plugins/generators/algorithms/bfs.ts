import type { Graph } from '../../../core/model/graph.js';
import type { JoinedGraph } from '../../../core/model/joined-graph.js';

/**
 * Per vertex, how many steps the walk must still take from there to stand on one of the target elements, -1
 * when it cannot (guards ignored), over the joined graph of all models: taking an edge is two steps (the edge,
 * then its target), a shared-state jump one. A vertex target is at 0 from itself; an edge target is stood on
 * by taking it, so its source is at 1.
 *
 * A breadth-first search over the reversed joined graph from all targets at once, element by element (an
 * edge is a node of its own, so that both costs are one level each). O(vertices + edges) of the whole graph;
 * a shared-state group is scanned at most twice. The result is written into `out` (length
 * `graph.vertexCount`).
 */
export function distancesToTargets(graph: Graph, joined: JoinedGraph, targets: Iterable<number>, out: Int32Array): void {
  const depth = new Int32Array(graph.size).fill(-1);
  const queue = new Int32Array(graph.size);
  const scans = new GroupScans(joined.groupCount);
  let tail = 0;
  const reach = (x: number, d: number): void => {
    if (depth[x] === -1) depth[(queue[tail++] = x)] = d;
  };
  for (const t of targets) if (graph.isVertex(t) || graph.source[t] >= 0) reach(t, 0);
  for (let head = 0; head < tail; head++) {
    const x = queue[head];
    const d = depth[x];
    if (!graph.isVertex(x)) {
      reach(graph.source[x], d + 1);
      continue;
    }
    for (const e of graph.inEdgesOf(x)) if (graph.source[e] >= 0) reach(e, d + 1);
    const group = joined.groupOf[x];
    if (group < 0 || joined.jumpable[x] === 0 || !scans.shouldScan(group, graph.modelOf[x])) continue;
    for (const w of joined.members(group)) if (joined.isJump(w, x)) reach(w, d + 1);
  }
  for (let v = 0; v < graph.vertexCount; v++) out[v] = depth[v];
}

/**
 * Which shared-state groups a search still has to scan: the first scan of a group, from a member of one
 * model, reaches every member of the other models; one more from another model reaches the rest; any further
 * scan finds nothing new.
 */
export class GroupScans {
  private readonly firstModel: Int32Array;
  private readonly done: Uint8Array;

  constructor(groups: number) {
    this.firstModel = new Int32Array(groups).fill(-1);
    this.done = new Uint8Array(groups);
  }

  /** True when a scan of `group` from a member of `model` can find something new (and counts it as made). */
  shouldScan(group: number, model: number): boolean {
    if (this.done[group] === 1) return false;
    if (this.firstModel[group] < 0) {
      this.firstModel[group] = model;
      return true;
    }
    if (this.firstModel[group] === model) return false;
    this.done[group] = 1;
    return true;
  }
}
