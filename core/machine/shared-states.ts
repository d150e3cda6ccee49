import type { Graph } from '../model/graph.js';
import type { RandomSource } from '../random.js';
import type { WalkScripts } from './scripts.js';
import type { ModelStatus } from './statistics.js';

/**
 * Jumps between models through shared states (graphwalker-notes.md 4.3). At a vertex with a shared state the
 * candidates are: staying (when the vertex has an open out-edge), and every vertex of another model with the
 * same shared state that has a name or an open out-edge — except the vertex just jumped from, unless staying
 * is impossible. One is picked at random; a vertex of another model is then the next step.
 */
export class SharedStates {
  private jumpedFrom = -1;
  private readonly candidates: number[] = [];

  constructor(
    private readonly graph: Graph,
    private readonly scripts: WalkScripts,
    private readonly random: RandomSource,
  ) {}

  /** The vertex to jump to from `vertex`, or -1 to stay in the current model. */
  jumpFrom(vertex: number, statuses: readonly ModelStatus[]): number {
    const g = this.graph;
    const shared = g.sharedState[vertex];
    if (shared === undefined) return -1;
    const group = g.sharedStateVertices(shared);
    if (group.length < 2) return -1;
    const candidates = this.candidates;
    candidates.length = 0;
    const canStay = this.scripts.openEdges(vertex).length > 0;
    if (canStay) candidates.push(vertex);
    const model = g.modelOf[vertex];
    for (const other of group) {
      const otherModel = g.modelOf[other];
      if (otherModel === model || statuses[otherModel] === 'failed') continue;
      if (other === this.jumpedFrom && canStay) continue;
      if (g.names[other] || this.scripts.openEdges(other).length > 0) candidates.push(other);
    }
    if (candidates.length === 0) return -1;
    const pick = candidates.length === 1 ? candidates[0] : candidates[this.random.int(candidates.length)];
    if (pick === vertex) {
      this.jumpedFrom = -1;
      return -1;
    }
    this.jumpedFrom = vertex;
    return pick;
  }

  /** The walk took an edge: the memory of the last jump no longer applies. */
  leave(): void {
    this.jumpedFrom = -1;
  }

  reset(): void {
    this.jumpedFrom = -1;
  }
}
