import type { PathGenerator, PathGeneratorFactory } from '../../core/generator.js';
import type { Graph } from '../../core/model/graph.js';
import type { WalkState } from '../../core/walk-state.js';
import { ErrorCodes, WalkerError } from '../../core/errors.js';
import { distancesToTargets } from './algorithms/bfs.js';
import { randomOpenEdge } from './choice.js';

/**
 * `a_star` (`astarpath`): heads for the nearest target of its stop condition (`reached_vertex`,
 * `reached_edge`, `reached_shared_state`) along a shortest path.
 *
 * Distances to the targets come from one breadth-first search over the reversed graph at creation (guards
 * ignored; every edge counts 1, so this is what A* with an exact heuristic would find, at O(1) per step). At
 * a vertex it takes the open out-edge that leaves the fewest edges to go, the first in declaration order on a
 * tie; when no open edge leads on to a target (guards block the way) it takes a random open edge and tries
 * again from where that leads. Once it has stood on a target it heads for the nearest one it has not stood on
 * yet (one more search), so that a condition such as `reached_vertex(v_A) and length(50)` keeps moving with
 * purpose; when every target has been reached it walks randomly until the condition is fulfilled.
 */
export const aStarGenerator: PathGeneratorFactory = {
  name: 'a_star',
  aliases: ['astarpath'],
  create({ graph, condition }) {
    const targets = condition.targets;
    if (targets === undefined || targets.length === 0) {
      throw new WalkerError(
        ErrorCodes.GENERATOR_INVALID,
        'a_star needs a stop condition that names a target, such as reached_vertex(v_Name), ' +
          'reached_edge(e_Name) or reached_shared_state(NAME)',
      );
    }
    return new AStarPath(graph, targets);
  },
};

class AStarPath implements PathGenerator {
  /** Per element: 1 while it is a target this generator has not stood on. */
  private readonly pending: Uint8Array;
  private targets: number[];
  private readonly distance: Int32Array;
  private lastEdge = -1;

  constructor(
    private readonly graph: Graph,
    targets: readonly number[],
  ) {
    this.pending = new Uint8Array(graph.size);
    for (const t of targets) this.pending[t] = 1;
    this.targets = [...new Set(targets)];
    this.distance = new Int32Array(graph.vertexCount);
    distancesToTargets(graph, this.targets, this.distance);
  }

  nextEdge(walk: WalkState, vertex: number): number {
    const reachedVertex = this.arrive(vertex);
    const reachedEdge = this.lastEdge >= 0 && this.arrive(this.lastEdge);
    if (reachedVertex || reachedEdge) this.retarget();
    const open = walk.openEdges(vertex);
    if (open.length === 0) return -1;
    let best = -1;
    let bestDistance = Infinity;
    for (const e of open) {
      const d = this.remaining(e);
      if (d < bestDistance) [best, bestDistance] = [e, d];
    }
    this.lastEdge = best >= 0 ? best : randomOpenEdge(walk, open);
    return this.lastEdge;
  }

  /** Edges still to take after `e` to stand on a pending target; Infinity when there is no way. */
  private remaining(e: number): number {
    if (this.pending[e] === 1) return 0;
    const d = this.distance[this.graph.target[e]];
    return d < 0 ? Infinity : d;
  }

  /** Marks a pending target as reached; true when it was one. */
  private arrive(element: number): boolean {
    if (this.pending[element] === 0) return false;
    this.pending[element] = 0;
    return true;
  }

  private retarget(): void {
    this.targets = this.targets.filter((t) => this.pending[t] === 1);
    distancesToTargets(this.graph, this.targets, this.distance);
  }
}
