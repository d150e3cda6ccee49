import type { StepDemand, StopCondition, StopConditionFactory } from '../../core/condition.js';
import type { Graph } from '../../core/model/graph.js';
import type { WalkScope, WalkState } from '../../core/walk-state.js';
import { FULFILLED, listIds, modelLabel, percentageArgument, unreachableOf } from './common.js';
import { remembered } from './remembered.js';

const NAME = 'dependency_edge_coverage';

/**
 * `dependency_edge_coverage(d)`: every edge of the model whose `dependency` is at least d has been visited.
 * As in GraphWalker the fraction is not scaled by d, and when no edge qualifies the condition is never
 * fulfilled (its `unreachable` says so at load).
 */
export const dependencyEdgeCoverage: StopConditionFactory = {
  name: NAME,
  aliases: ['dependencyedgecoverage'],
  argument: 'integer',
  endsOnVertex: true,
  create(argument, { graph, model }): StopCondition {
    const threshold = percentageArgument(NAME, argument, 'a dependency threshold');
    const info = graph.models[model];
    const edges = remembered(info, threshold, () => info.edges.filter((e) => graph.dependency[e] >= threshold));
    return new DependencyEdgeCoverage(graph, model, threshold, edges);
  },
};

/**
 * The machine counts visited edges per model, not per dependency, so this condition keeps its own count of
 * qualifying edges visited, raised by `onStep` in O(1). The count is valid for the step number it was last
 * brought up to; should the walk have moved without telling this condition (a condition of a later generator
 * in a sequence, if the machine only informs the active one), it is recounted once from `walk.visits`.
 */
class DependencyEdgeCoverage implements StopCondition {
  /** Every qualifying edge, on one walk. */
  readonly demand?: StepDemand;
  private visited = 0;
  /** `walk.steps` at which {@link visited} was last exact; -1 before the first contact. */
  private countedAt = -1;

  constructor(
    private readonly graph: Graph,
    private readonly model: number,
    private readonly threshold: number,
    private readonly edges: readonly number[],
  ) {
    if (edges.length > 0) {
      const what = `edges of model '${modelLabel(graph, model)}' with a dependency of at least ${threshold}`;
      this.demand = remembered(edges, NAME, () => ({ label: `${NAME}(${threshold})`, what, elements: edges, least: edges.length }));
    }
  }

  onStep(walk: WalkState, element: number, firstVisit: boolean): void {
    if (walk.steps === this.countedAt + 1) {
      if (firstVisit && this.qualifies(element)) this.visited++;
      this.countedAt = walk.steps;
    } else {
      this.recount(walk);
    }
  }

  isFulfilled(walk: WalkState): boolean {
    return this.edges.length > 0 && this.count(walk) / this.edges.length >= FULFILLED;
  }

  fulfilment(walk: WalkState): number {
    return this.edges.length === 0 ? 0 : Math.min(1, this.count(walk) / this.edges.length);
  }

  unreachable(scope: WalkScope): string | undefined {
    const start = `${NAME}(${this.threshold}) can never be fulfilled: `;
    const label = modelLabel(this.graph, this.model);
    if (this.edges.length === 0) {
      return `${start}no edge of model '${label}' has a dependency of at least ${this.threshold}`;
    }
    const missing = unreachableOf(scope, this.edges);
    if (missing.length === 0) return undefined;
    return (
      `${start}${missing.length} of ${this.edges.length} edges of model '${label}' with a dependency of at ` +
      `least ${this.threshold} cannot be reached from the start element (${listIds(this.graph, missing)})`
    );
  }

  /** Read from the graph, since a flag array per condition would cost the graph's size for each of them. */
  private qualifies(element: number): boolean {
    const g = this.graph;
    return !g.isVertex(element) && g.modelOf[element] === this.model && g.dependency[element] >= this.threshold;
  }

  private count(walk: WalkState): number {
    if (walk.steps !== this.countedAt) this.recount(walk);
    return this.visited;
  }

  private recount(walk: WalkState): void {
    let visited = 0;
    for (const e of this.edges) if (walk.visits(e) > 0) visited++;
    this.visited = visited;
    this.countedAt = walk.steps;
  }
}
