import type { PathGenerator, PathGeneratorFactory } from '../../core/generator.js';
import type { Graph } from '../../core/model/graph.js';
import type { WalkState } from '../../core/walk-state.js';
import { planCoveringWalk } from './algorithms/route-inspection.js';
import { Backoff, preferUnvisitedEdge, randomOpenEdge } from './choice.js';

/**
 * `shortest_all_paths` (`shortestallpaths`): the shortest walk that covers every edge reachable from where the
 * walk stands, planned at the first step by route inspection ({@link planCoveringWalk}) and then followed
 * edge by edge. It works on any model: where GraphWalker demands an Eulerian or semi-Eulerian graph, the
 * planner walks the cheapest extra paths, and where part of the model cannot be left and re-entered it
 * covers as much as one walk can.
 *
 * The plan ignores guards. When the planned edge is closed (or the walk was moved, by a shared-state jump),
 * it plans again over the edges not yet visited from where it stands, and takes an open edge. After the tour,
 * if the condition still wants steps, it plans over the edges not yet visited; when none is reachable it walks
 * randomly, at O(1) per step (vertices from which nothing is left are remembered).
 */
export const shortestAllPathsGenerator: PathGeneratorFactory = {
  name: 'shortest_all_paths',
  aliases: ['shortestallpaths'],
  create: ({ graph }) => new ShortestAllPaths(graph),
};

class ShortestAllPaths implements PathGenerator {
  private tour: readonly number[] = [];
  private at = 0;
  private planned = false;
  private readonly done: Uint8Array;
  private readonly backoff = new Backoff();

  constructor(private readonly graph: Graph) {
    this.done = new Uint8Array(graph.vertexCount);
  }

  nextEdge(walk: WalkState, vertex: number): number {
    const open = walk.openEdges(vertex);
    if (open.length === 0) return -1;
    const next = this.follow(walk, vertex, open);
    return next >= 0 ? next : this.replan(walk, vertex, open);
  }

  /** The tour's next edge if it leaves from here and is open; otherwise the tour is dropped. */
  private follow(walk: WalkState, vertex: number, open: readonly number[]): number {
    if (this.at >= this.tour.length) return -1;
    const e = this.tour[this.at];
    if (this.graph.source[e] === vertex && open.includes(e)) {
      this.at++;
      if (walk.visits(e) === 0) this.backoff.succeeded();
      return e;
    }
    this.tour = [];
    this.at = 0;
    return -1;
  }

  private replan(walk: WalkState, vertex: number, open: readonly number[]): number {
    if (this.done[vertex] === 1 || !this.backoff.ready()) return preferUnvisitedEdge(walk, open);
    // The first plan covers everything reachable, as promised; later ones only what is still unvisited.
    const everything = !this.planned;
    this.planned = true;
    const plan = planCoveringWalk(this.graph, vertex, everything ? () => true : (e) => walk.visits(e) === 0);
    if (plan.required === 0) {
      for (const v of plan.reachable) this.done[v] = 1;
      return randomOpenEdge(walk, open);
    }
    this.tour = plan.tour;
    this.at = 0;
    const next = this.follow(walk, vertex, open);
    if (next >= 0) return next;
    // A guard closes the tour's first edge: step aside and plan again later, from wherever that leads.
    this.backoff.failed();
    return preferUnvisitedEdge(walk, open);
  }
}
