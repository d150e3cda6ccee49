/** Execution status of one model (GraphWalker's context status). */
export type ModelStatus = 'not_executed' | 'executing' | 'completed' | 'failed';

/** An element not yet visited, as listed in statistics. */
export interface UnvisitedEdge {
  readonly edgeName: string | undefined;
  readonly edgeId: string;
  readonly modelName: string | undefined;
}
export interface UnvisitedVertex {
  readonly vertexName: string | undefined;
  readonly vertexId: string;
  readonly modelName: string | undefined;
}

/** One requirement of one element, as listed in statistics (GraphWalker's `requirementsPassed` items). */
export interface RequirementItem {
  readonly requirementKey: string;
  readonly modelName: string | undefined;
}
/** A failed requirement: GraphWalker capitalises the key's name in this one list, and clients read it so. */
export interface FailedRequirementItem {
  readonly RequirementKey: string;
  readonly modelName: string | undefined;
}

/** Requirement figures; present only when the models have requirements. */
export interface RequirementStatistics {
  readonly totalNumberOfRequirement: number;
  readonly totalNumberOfPassedRequirement: number;
  readonly totalNumberOfFailedRequirement: number;
  readonly totalNumberOfUncoveredRequirement: number;
  readonly requirementCoverage: number;
  /** A key once per element that carries it, in element order, like the counts above. */
  readonly requirementsPassed: readonly RequirementItem[];
  readonly requirementsFailed: readonly FailedRequirementItem[];
  readonly requirementsNotCovered: readonly RequirementItem[];
}

/**
 * Coverage of a walk (docs/api-execution.md, named as GraphWalker names them). Percentages are
 * `floor(100 * visited / total)`, 0 when the total is 0.
 */
export interface WalkStatistics extends Partial<RequirementStatistics> {
  readonly totalNumberOfModels: number;
  readonly totalCompletedNumberOfModels: number;
  readonly totalFailedNumberOfModels: number;
  readonly totalIncompleteNumberOfModels: number;
  readonly totalNotExecutedNumberOfModels: number;
  readonly totalNumberOfVertices: number;
  readonly totalNumberOfEdges: number;
  readonly totalNumberOfVisitedVertices: number;
  readonly totalNumberOfVisitedEdges: number;
  readonly totalNumberOfUnvisitedVertices: number;
  readonly totalNumberOfUnvisitedEdges: number;
  readonly vertexCoverage: number;
  readonly edgeCoverage: number;
  readonly edgesNotVisited: readonly UnvisitedEdge[];
  readonly verticesNotVisited: readonly UnvisitedVertex[];
  /** What planning with guards explored; only for walks it applies to, and only in walker's own dialect. */
  readonly planning?: PlanningFigures;
}

/** What planning with guards explored (docs/planning.md), as `getStatistics` shows it. */
export interface PlanningFigures {
  /** States the last exploration found; 0 before the first. */
  readonly exploredStates: number;
  /** States one exploration explores at most (`--plan-states`). */
  readonly stateBound: number;
  /** Milliseconds one exploration takes at most (`--plan-time`). */
  readonly timeBoundMs: number;
  /** The bound an exploration stopped at, after which plans are made on the fly; absent while none did. */
  readonly boundHit?: 'states' | 'growth' | 'time';
  /** Once planning on the fly: the explorations made from where the walk stood, one per decision that needed one. */
  readonly decisions?: number;
  /** Once planning on the fly: decisions whose exploration found nothing to head for, which went by the graph alone. */
  readonly graphDecisions?: number;
}

/** `floor(100 * part / total)`, 0 when total is 0 (docs/behaviour.md). */
export function percentage(part: number, total: number): number {
  return total === 0 ? 0 : Math.floor((100 * part) / total);
}
