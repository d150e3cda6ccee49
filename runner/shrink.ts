import type { Graph } from '../core/model/graph.js';

/** How far shrinking may go. */
export interface ShrinkLimits {
  /** Runs at most (`--shrink-runs`, default 100). */
  readonly runs: number;
  /** Milliseconds at most, counted from the first shrinking run (`--shrink-time`). */
  readonly timeMs: number;
}

/** What shrinking found. */
export interface ShrinkOutcome {
  /** The shortest path found that fails the same way, from the start element to the failing one. */
  readonly path: readonly number[];
  readonly originalLength: number;
  readonly runs: number;
  /** Why it stopped: nothing shorter was found, or a limit was reached. */
  readonly stopped: 'done' | 'runs' | 'time';
}

/**
 * Runs a candidate path with fresh test code; answers the path up to the step that failed the same way as the
 * original (the same element, error class and message), or undefined when it did not: it passed, failed
 * otherwise, or left what the model allows.
 */
export type ShrinkAttempt = (path: readonly number[]) => Promise<readonly number[] | undefined>;

/**
 * Shrinks a failing path to a shorter one that fails the same way. Every candidate is a path the graph
 * allows: a stretch cut out is bridged by the graph's shortest way between what stays on either side, so a
 * cut around a loop between two visits of a state removes the loop. Whether guards, actions and the data the
 * tests write allow it too, the attempt says, by walking it.
 *
 * 1. The shortest way from the start to the failing element alone, the planner's answer when the failure
 *    needs nothing before it.
 * 2. Cutting loops: between two visits of one element, the longest loop first.
 * 3. Delta debugging over stretches: halves, then quarters, and so on, each cut tried from the front; a cut
 *    that keeps the failure is kept (and the same place is tried again), until single steps.
 * 2 and 3 are repeated while they shorten the path, within the limits.
 */
export async function shrinkPath(graph: Graph, original: readonly number[], attempt: ShrinkAttempt, limits: ShrinkLimits): Promise<ShrinkOutcome> {
  const started = performance.now();
  let runs = 0;
  let current = original;
  let stopped: ShrinkOutcome['stopped'] = 'done';
  const bridges = new Bridges(graph);

  const tryPath = async (candidate: readonly number[] | undefined): Promise<boolean> => {
    if (candidate === undefined || candidate.length >= current.length) return false;
    if (runs >= limits.runs) {
      stopped = 'runs';
      return false;
    }
    if (performance.now() - started > limits.timeMs) {
      stopped = 'time';
      return false;
    }
    runs++;
    const failing = await attempt(candidate);
    if (failing === undefined || failing.length >= current.length) return false;
    current = failing;
    return true;
  };

  const last = original[original.length - 1];
  await tryPath(bridges.join([original[0]], last, []));
  for (let improved = true; improved && stopped === 'done'; ) {
    const before = current.length;
    await cutLoops();
    await cutStretches();
    improved = current.length < before;
  }
  return { path: current, originalLength: original.length, runs, stopped };

  /** Cuts the loops between two visits of one element, the longest first; after a cut, the loops are found again. */
  async function cutLoops(): Promise<void> {
    for (let cut = true; cut && stopped === 'done'; ) {
      cut = false;
      const path = current;
      const lastSeen = new Map<number, number>();
      path.forEach((e, i) => lastSeen.set(e, i));
      const loops = path
        .map((e, i) => [i, lastSeen.get(e)!] as const)
        .filter(([i, j]) => j > i && j < path.length - 1)
        .sort((a, b) => b[1] - b[0] - (a[1] - a[0]));
      for (const [i, j] of loops) {
        if (await tryPath([...path.slice(0, i + 1), ...path.slice(j + 1)])) {
          cut = true;
          break;
        }
        if (stopped !== 'done') return;
      }
    }
  }

  /** Delta debugging: cuts stretches of halving length, each bridged by the shortest way. */
  async function cutStretches(): Promise<void> {
    for (let chunk = Math.floor(current.length / 2); chunk >= 1 && stopped === 'done'; chunk = Math.floor(chunk / 2)) {
      // Cut current[from .. from+chunk-1]; the start element (0) and the failing one (the last) stay.
      for (let from = 1; from + chunk < current.length && stopped === 'done'; ) {
        const to = from + chunk;
        if (!(await tryPath(bridges.join(current.slice(0, from), current[to], current.slice(to + 1))))) from += chunk;
      }
    }
  }
}

/** Shortest ways between elements through the graph (guards ignored), remembered per source element. */
class Bridges {
  private readonly from = new Map<number, Int32Array>();

  constructor(private readonly graph: Graph) {}

  /** `head`, then the shortest way from its last element to `to` (ending on `to`), then `tail`; undefined without one. */
  join(head: readonly number[], to: number, tail: readonly number[]): number[] | undefined {
    // A cut from a state back to the same state is a loop: it goes without a bridge.
    if (head[head.length - 1] === to) return [...head, ...tail];
    const way = this.way(head[head.length - 1], to);
    return way === undefined ? undefined : [...head, ...way, ...tail];
  }

  /** The elements after `a` up to and including `b`, by a breadth-first search over steps (`a` marks itself as the root). */
  private way(a: number, b: number): number[] | undefined {
    let previous = this.from.get(a);
    if (previous === undefined) {
      previous = this.search(a);
      this.from.set(a, previous);
    }
    if (a === b || previous[b] === -1) return undefined;
    const way: number[] = [];
    for (let e = b; e !== a; e = previous[e]) way.push(e);
    return way.reverse();
  }

  private search(a: number): Int32Array {
    const g = this.graph;
    const previous = new Int32Array(g.size).fill(-1);
    const queue = [a];
    previous[a] = a;
    for (let i = 0; i < queue.length; i++) {
      const e = queue[i];
      const next = g.isVertex(e) ? Array.from(g.outEdgesOf(e)) : [g.target[e]];
      for (const n of next) {
        if (n < 0 || previous[n] !== -1) continue;
        previous[n] = e;
        queue.push(n);
      }
    }
    return previous;
  }
}
