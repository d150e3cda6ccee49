import type { Graph } from '../../../core/model/graph.js';
import type { WalkState } from '../../../core/walk-state.js';

/** Steps without a new edge covered, beyond twice the file's edges, after which traps are no longer avoided. */
const EXTRA_PATIENCE = 16;

/**
 * Vertices a walk would get stuck in if it stepped there now: a *trap* is the target of an edge that has no
 * way on — no out-edge at all (a dead end), or only out-edges whose guards are closed — and no shared state to
 * leave by. A guard can only be judged in advance when nothing runs between now and the walk standing there:
 * the edge and its target have no actions, so the variables the guards will see are those of now. When
 * either runs an action, the target is not judged a trap (the action may well be what opens the way).
 *
 * A trap is avoided only while there is work elsewhere: an edge not walked yet other than the one into the
 * trap and the trap's own way out (which only the trap leads to). And only while avoiding it pays: when no new
 * edge has been covered for twice as many steps as the file has edges (plus a few), the guard that keeps the
 * rest shut is not going to open, and the walk may as well go where the goal may lie — into the trap, which
 * either fulfils the stop condition there or fails the walk, instead of wandering for ever.
 */
export class Traps {
  private readonly patience: number;
  private covered = -1;
  private coveredAt = 0;

  constructor(private readonly graph: Graph) {
    this.patience = 2 * graph.edgeCount + EXTRA_PATIENCE;
  }

  /** True when taking `edge` now would strand the walk in a trap, dead end or closed, with work elsewhere. */
  strands(walk: WalkState, edge: number): boolean {
    return this.workElsewhere(walk, edge) && this.isTrap(walk, edge, true);
  }

  /** As {@link strands}, for a vertex whose guards keep every way on closed; a dead end does not count. */
  closes(walk: WalkState, edge: number): boolean {
    return this.workElsewhere(walk, edge) && this.isTrap(walk, edge, false);
  }

  /** The edges of `open` that do not strand the walk; `open` itself when all of them do (then any is as bad). */
  avoid(walk: WalkState, open: readonly number[]): readonly number[] {
    let safe: number[] | undefined;
    for (let i = 0; i < open.length; i++) {
      const strands = this.strands(walk, open[i]);
      if (strands && safe === undefined) safe = open.slice(0, i);
      else if (!strands && safe !== undefined) safe.push(open[i]);
    }
    return safe === undefined || safe.length === 0 ? open : safe;
  }

  private isTrap(walk: WalkState, edge: number, deadEnds: boolean): boolean {
    const g = this.graph;
    const v = g.target[edge];
    if (g.sharedState[v] !== undefined) return false;
    const from = g.outOffsets[v];
    const to = g.outOffsets[v + 1];
    if (from === to) return deadEnds;
    for (let i = from; i < to; i++) if (g.guard[g.outEdges[i]] === undefined) return false;
    if (g.actions[edge].length > 0 || g.actions[v].length > 0) return false;
    try {
      return walk.openEdges(v).length === 0;
    } catch {
      // A guard that fails now fails the walk when it gets there; that is for the step there to report.
      return false;
    }
  }

  /**
   * True when an edge is left to walk other than `edge` and the out-edges of its target, and the walk has
   * covered a new edge recently enough for avoiding traps to be worth it.
   */
  private workElsewhere(walk: WalkState, edge: number): boolean {
    const g = this.graph;
    let unvisited = g.edgeCount;
    for (let m = 0; m < g.models.length; m++) unvisited -= walk.visitedEdges(m);
    if (unvisited !== g.edgeCount - this.covered) {
      this.covered = g.edgeCount - unvisited;
      this.coveredAt = walk.steps;
    }
    if (walk.steps - this.coveredAt > this.patience) return false;
    if (walk.visits(edge) === 0) unvisited--;
    const v = g.target[edge];
    for (let i = g.outOffsets[v]; i < g.outOffsets[v + 1] && unvisited > 0; i++) {
      if (walk.visits(g.outEdges[i]) === 0) unvisited--;
    }
    return unvisited > 0;
  }
}
