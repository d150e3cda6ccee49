import type { PathGenerator, PathGeneratorFactory } from '../../core/generator.js';
import type { Graph } from '../../core/model/graph.js';
import type { RandomSource } from '../../core/random.js';
import type { WalkState } from '../../core/walk-state.js';

/**
 * `weighted_random` (`weightedrandompath`): a random open out-edge, drawn by weight (docs/generators.md).
 *
 * Among the open out-edges of the vertex (guards decide which edges compete, so the shares are recomputed at
 * every step):
 * - an edge's weight is its probability; an edge without a weight (or with weight 0 or less, which is how
 *   GraphWalker files mark "no weight") shares equally what the weighted edges leave of 1.0;
 * - weights that sum below 1 with no unweighted edge are scaled up to sum 1;
 * - weights that sum above 1 are scaled down to sum 1, and unweighted edges then get nothing. GraphWalker
 *   throws here; we never fail a walk over weights, and `walker check` is the place to warn about them;
 * - when every share is 0, the pick is uniform.
 * One draw per step, O(out-degree).
 */
export const weightedRandomGenerator: PathGeneratorFactory = {
  name: 'weighted_random',
  aliases: ['weightedrandompath'],
  create: ({ graph }) => new WeightedRandomPath(graph),
};

class WeightedRandomPath implements PathGenerator {
  constructor(private readonly graph: Graph) {}

  nextEdge(walk: WalkState, vertex: number): number {
    const open = walk.openEdges(vertex);
    return open.length === 0 ? -1 : pickWeighted(this.graph.weight, open, walk.random);
  }
}

/** Draws one of `edges` (not empty) with the probabilities described on {@link weightedRandomGenerator}. */
export function pickWeighted(weight: Float64Array, edges: readonly number[], random: RandomSource): number {
  const { share, total } = split(weight, edges);
  if (!(total > 0)) return edges[random.int(edges.length)];
  let left = random.next() * total;
  let last = edges[0];
  for (const e of edges) {
    const p = weight[e] > 0 ? weight[e] : share;
    if (p <= 0) continue;
    last = e;
    left -= p;
    if (left < 0) return e;
  }
  // Only rounding can get here (left ≈ 0 after the last edge); the last edge with a share is the right one.
  return last;
}

/** The probability {@link pickWeighted} gives each of `edges` (not empty), in order: for tests and `walker check`. */
export function weightedShares(weight: Float64Array, edges: readonly number[]): number[] {
  const { share, total } = split(weight, edges);
  if (!(total > 0)) return edges.map(() => 1 / edges.length);
  return edges.map((e) => (weight[e] > 0 ? weight[e] : share) / total);
}

/** What each unweighted edge gets, and the sum of all shares (1 unless scaling is needed). */
function split(weight: Float64Array, edges: readonly number[]): { share: number; total: number } {
  let weighted = 0;
  let unweighted = 0;
  for (const e of edges) {
    if (weight[e] > 0) weighted += weight[e];
    else unweighted++;
  }
  const share = unweighted > 0 && weighted < 1 ? (1 - weighted) / unweighted : 0;
  return { share, total: weighted + share * unweighted };
}
