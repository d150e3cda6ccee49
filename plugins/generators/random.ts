import type { PathGenerator, PathGeneratorFactory } from '../../core/generator.js';
import type { StateSpace } from '../../core/planning/state-space.js';
import type { WalkState } from '../../core/walk-state.js';
import { randomOpenEdge } from './choice.js';
import { demandsElements } from '../../core/machine/conditions.js';
import { leadsToUnvisited, NO_SPACE, StateGuide, takesUnvisitedEdge, type StatePlan } from './state-guide.js';

/**
 * `random` (`randompath`): a uniformly random open out-edge at every vertex. One draw per step, O(1) beyond
 * the machine's guard evaluation. Covers a model slowly, but explores paths no planner would think of.
 *
 * Under a condition that wants elements covered, on a model whose states are known (docs/planning.md), it
 * draws only among the edges that leave a way on to an edge not yet visited, whenever one does: chance may
 * take the long way round, but not into a state the walk can never leave for the work that is left (a
 * lockout that cannot be undone, say), which would end the walk in a dead end or keep it going for ever.
 */
export const randomGenerator: PathGeneratorFactory = {
  name: 'random',
  aliases: ['randompath'],
  create: ({ planning, condition }) =>
    new RandomPath(demandsElements(condition) ? new StateGuide(planning, new LiveStates().plan) : undefined),
};

class RandomPath implements PathGenerator {
  constructor(private readonly guide: StateGuide | undefined) {}

  nextEdge(walk: WalkState, vertex: number): number {
    const open = walk.openEdges(vertex);
    if (open.length === 0) return -1;
    const guided = this.guide === undefined ? NO_SPACE : this.guide.next(walk, vertex, open);
    return guided >= 0 ? guided : randomOpenEdge(walk, open);
  }
}

/**
 * Which states still have a way on to an edge not yet visited: the "plan" of one random transition among
 * those that lead to one. Worked out again (one pass over the space, backwards) whenever coverage grew.
 */
class LiveStates {
  private space: StateSpace | undefined;
  private into: { start: Int32Array; from: Int32Array } | undefined;
  private live: Uint8Array = new Uint8Array(0);
  private visited = -1;

  readonly plan: StatePlan = (space, state, walk, first) => {
    if (space !== this.space) {
      this.space = space;
      this.into = reversed(space);
      this.visited = -1;
    }
    const visited = visitedEdges(walk);
    if (visited !== this.visited) {
      this.visited = visited;
      this.live = liveStates(space, this.into!, walk);
    }
    if (this.live[state] === 0) return undefined;
    const ways: number[] = [];
    for (let t = space.outStart[state]; t < space.outStart[state + 1]; t++) {
      if (first(t) && (takesUnvisitedEdge(space, walk, t) || this.live[space.to[t]] === 1)) ways.push(t);
    }
    // Chance closed every way on for now: the walk moves at random, and asks again next time.
    return ways.length === 0 ? [] : [ways[walk.random.int(ways.length)]];
  };
}

function visitedEdges(walk: WalkState): number {
  let visited = 0;
  for (let m = 0; m < walk.graph.models.length; m++) visited += walk.visitedEdges(m);
  return visited;
}

/** Per state, its incoming transitions' sources (CSR). */
function reversed(space: StateSpace): { start: Int32Array; from: Int32Array } {
  const start = new Int32Array(space.size + 1);
  for (let t = 0; t < space.to.length; t++) start[space.to[t] + 1]++;
  for (let s = 0; s < space.size; s++) start[s + 1] += start[s];
  const fill = start.slice(0, space.size);
  const from = new Int32Array(space.to.length);
  for (let s = 0; s < space.size; s++) {
    for (let t = space.outStart[s]; t < space.outStart[s + 1]; t++) from[fill[space.to[t]]++] = s;
  }
  return { start, from };
}

/**
 * The states from which some transition over an edge not yet visited can be reached, or a state not explored
 * (unknown, or beyond the bound: docs/planning.md) from whose vertex the graph leads to one: beyond it, it may
 * be reached too.
 */
function liveStates(space: StateSpace, into: { start: Int32Array; from: Int32Array }, walk: WalkState): Uint8Array {
  const live = new Uint8Array(space.size);
  const queue: number[] = [];
  const leads = leadsToUnvisited(space, walk);
  for (let s = 0; s < space.size; s++) {
    // An unknown state, or one beyond the bound of an exploration on the fly: not explored.
    if (space.expanded[s] === 0) {
      if (leads(space.vertexOf[s])) {
        live[s] = 1;
        queue.push(s);
      }
      continue;
    }
    for (let t = space.outStart[s]; t < space.outStart[s + 1]; t++) {
      if (takesUnvisitedEdge(space, walk, t)) {
        live[s] = 1;
        queue.push(s);
        break;
      }
    }
  }
  for (let h = 0; h < queue.length; h++) {
    const s = queue[h];
    for (let i = into.start[s]; i < into.start[s + 1]; i++) {
      const p = into.from[i];
      if (live[p] === 0) {
        live[p] = 1;
        queue.push(p);
      }
    }
  }
  return live;
}
