import type { PathGenerator, PathGeneratorFactory } from '../../core/generator.js';
import type { WalkState } from '../../core/walk-state.js';
import { randomOpenEdge } from './choice.js';

/**
 * `random` (`randompath`): a uniformly random open out-edge at every vertex. One draw per step, O(1) beyond
 * the machine's guard evaluation. Covers a model slowly, but explores paths no planner would think of.
 */
export const randomGenerator: PathGeneratorFactory = {
  name: 'random',
  aliases: ['randompath'],
  create: () => new RandomPath(),
};

class RandomPath implements PathGenerator {
  nextEdge(walk: WalkState, vertex: number): number {
    const open = walk.openEdges(vertex);
    return open.length === 0 ? -1 : randomOpenEdge(walk, open);
  }
}
