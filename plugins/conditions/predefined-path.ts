import type { StopCondition, StopConditionFactory } from '../../core/condition.js';
import type { Graph } from '../../core/model/graph.js';
import type { WalkState } from '../../core/walk-state.js';
import { invalid, modelLabel } from './common.js';

/**
 * `predefined_path`: the model's `predefinedPathEdgeIds` have been walked to the end, that is as many edges
 * of the model have been stepped on as the path has, and the walk stands on a vertex (the target of the last
 * path edge). It does not check which edges were taken: following the path is the `predefined_path`
 * generator's job, and the condition only has to know when the generator is done.
 */
export const predefinedPath: StopConditionFactory = {
  name: 'predefined_path',
  aliases: ['predefinedpath'],
  argument: 'none',
  endsOnVertex: true,
  create(_argument, { graph, model }): StopCondition {
    const path = graph.models[model].predefinedPath;
    if (path.length === 0) {
      throw invalid(
        `predefined_path: model '${modelLabel(graph, model)}' has no predefinedPathEdgeIds, so there is no ` +
          `path to walk; list the edge ids in the model or choose another stop condition`,
      );
    }
    return new PredefinedPathWalked(graph, model, path.length);
  },
};

/** Counts the model's edge steps in `onStep`, so that every check is O(1). */
class PredefinedPathWalked implements StopCondition {
  private walked = 0;

  constructor(
    private readonly graph: Graph,
    private readonly model: number,
    private readonly pathLength: number,
  ) {}

  onStep(_walk: WalkState, element: number): void {
    if (!this.graph.isVertex(element) && this.graph.modelOf[element] === this.model) this.walked++;
  }

  isFulfilled(walk: WalkState): boolean {
    return this.walked >= this.pathLength && this.onVertex(walk);
  }

  /** GraphWalker's measure: each path edge and the vertex after it are half a step of progress each. */
  fulfilment(walk: WalkState): number {
    const halfSteps = 2 * this.walked + (this.onVertex(walk) ? 1 : 0);
    return Math.min(1, halfSteps / (2 * this.pathLength + 1));
  }

  private onVertex(walk: WalkState): boolean {
    return walk.current >= 0 && this.graph.isVertex(walk.current);
  }
}
