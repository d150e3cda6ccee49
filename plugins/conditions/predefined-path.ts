import type { StepDemand, StopCondition, StopConditionFactory } from '../../core/condition.js';
import type { Graph } from '../../core/model/graph.js';
import type { WalkState } from '../../core/walk-state.js';
import { invalidGenerator } from '../../core/errors.js';
import { modelLabel } from './common.js';
import { remembered } from './remembered.js';

/**
 * `predefined_path`: the model's `predefinedPathEdgeIds` have been walked to the end and the walk stands on a
 * vertex (the target of the last path edge). Steps are matched against the path in order, so a start edge
 * that is not part of the path is not counted, and one that is listed first counts as the first path edge —
 * the same rule the `predefined_path` generator follows.
 */
export const predefinedPath: StopConditionFactory = {
  name: 'predefined_path',
  aliases: ['predefinedpath'],
  argument: 'none',
  endsOnVertex: true,
  create(_argument, { graph, model }): StopCondition {
    const path = graph.models[model].predefinedPath;
    if (path.length === 0) {
      throw invalidGenerator(
        `predefined_path: model '${modelLabel(graph, model)}' has no predefinedPathEdgeIds, so there is no ` +
          `path to walk; list the edge ids in the model or choose another stop condition`,
      );
    }
    return new PredefinedPathWalked(graph, path, modelLabel(graph, model));
  },
};

/** Follows the path in `onStep` (the index of the next path edge), so that every check is O(1). */
class PredefinedPathWalked implements StopCondition {
  private walked = 0;
  /** Every edge of the path, on one walk. */
  readonly demand: StepDemand;

  constructor(
    private readonly graph: Graph,
    private readonly path: readonly number[],
    model: string,
  ) {
    this.demand = remembered(path, 'demand', () => {
      const edges = [...new Set(path)].filter((e) => e >= 0);
      return { label: 'predefined_path', what: `edges of the predefinedPathEdgeIds of model '${model}'`, elements: edges, least: edges.length };
    });
  }

  onStep(_walk: WalkState, element: number): void {
    if (this.walked < this.path.length && element === this.path[this.walked]) this.walked++;
  }

  isFulfilled(walk: WalkState): boolean {
    return this.walked >= this.path.length && this.onVertex(walk);
  }

  /** GraphWalker's measure: each path edge and the vertex after it are half a step of progress each. */
  fulfilment(walk: WalkState): number {
    const halfSteps = 2 * this.walked + (this.onVertex(walk) ? 1 : 0);
    return Math.min(1, halfSteps / (2 * this.path.length + 1));
  }

  private onVertex(walk: WalkState): boolean {
    return walk.current >= 0 && this.graph.isVertex(walk.current);
  }
}
