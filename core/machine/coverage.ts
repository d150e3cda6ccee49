import type { Graph } from '../model/graph.js';
import type { RequirementCounts } from '../walk-state.js';
import { UnvisitedList } from './unvisited.js';
import {
  percentage,
  type FailedRequirementItem,
  type ModelStatus,
  type RequirementItem,
  type RequirementStatistics,
  type UnvisitedEdge,
  type UnvisitedVertex,
  type WalkStatistics,
} from './statistics.js';

const UNCOVERED = 0;
const PASSED = 1;
const FAILED = 2;

/**
 * The incremental bookkeeping of a walk: visit counts, per-model visited totals, requirement results and the
 * list of unvisited elements. Recording a step is O(1); reading the totals is O(models).
 */
export class Coverage {
  readonly visits: Uint32Array;
  private readonly visitedVertices: Uint32Array;
  private readonly visitedEdges: Uint32Array;
  private readonly unvisited: UnvisitedList;
  /** Per element: how many requirements it carries; read on every step, so packed rather than from the graph. */
  private readonly requirementCount: Uint32Array;
  /** Per element: UNCOVERED, PASSED or FAILED; applies to all requirements of the element. */
  private readonly requirementState: Uint8Array;
  private readonly requirementTotal: Uint32Array;
  private readonly requirementPassed: Uint32Array;
  private readonly requirementFailed: Uint32Array;
  /** The elements that carry requirements, in element order: what the requirement lists walk. */
  private readonly withRequirements: readonly number[];

  constructor(private readonly graph: Graph) {
    const models = graph.models.length;
    this.visits = new Uint32Array(graph.size);
    this.visitedVertices = new Uint32Array(models);
    this.visitedEdges = new Uint32Array(models);
    this.unvisited = new UnvisitedList(graph.size);
    this.requirementState = new Uint8Array(graph.size);
    this.requirementCount = new Uint32Array(graph.size);
    this.requirementTotal = new Uint32Array(models);
    this.requirementPassed = new Uint32Array(models);
    this.requirementFailed = new Uint32Array(models);
    const withRequirements: number[] = [];
    for (let e = 0; e < graph.size; e++) {
      const count = graph.requirements[e].length;
      this.requirementCount[e] = count;
      this.requirementTotal[graph.modelOf[e]] += count;
      if (count > 0) withRequirements.push(e);
    }
    this.withRequirements = withRequirements;
  }

  /** Forgets every visit and requirement result. */
  reset(): void {
    this.visits.fill(0);
    this.visitedVertices.fill(0);
    this.visitedEdges.fill(0);
    this.unvisited.reset();
    this.requirementState.fill(UNCOVERED);
    this.requirementPassed.fill(0);
    this.requirementFailed.fill(0);
  }

  /**
   * Counts a step onto `element` after a step onto `previous` (-1 for none) and passes the requirements
   * GraphWalker passes then: the element's when it is a vertex, the previous one's when that was an edge.
   * Returns true on the element's first visit.
   */
  step(element: number, previous: number): boolean {
    const first = this.visit(element);
    const vertices = this.graph.vertexCount;
    if (previous >= vertices) this.pass(previous);
    if (element < vertices) this.pass(element);
    return first;
  }

  /** Counts a step onto `element`; returns true on its first visit. Small, for V8 to inline into every step. */
  visit(element: number): boolean {
    return this.visits[element]++ === 0 && this.visitedFirst(element);
  }

  /** The first visit of `element`: out of the unvisited list, into the per-model totals. Returns true. */
  private visitedFirst(element: number): boolean {
    this.unvisited.remove(element);
    const model = this.graph.modelOf[element];
    if (this.graph.isVertex(element)) this.visitedVertices[model]++;
    else this.visitedEdges[model]++;
    return true;
  }

  visitedVerticesOf(model: number): number {
    return this.visitedVertices[model];
  }

  visitedEdgesOf(model: number): number {
    return this.visitedEdges[model];
  }

  /** The unvisited elements of one model, in element order (vertices, then edges): O(unvisited elements). */
  unvisitedIn(model: number): number[] {
    const found: number[] = [];
    for (const e of this.unvisited) if (this.graph.modelOf[e] === model) found.push(e);
    return found;
  }

  requirementsOf(model: number): RequirementCounts {
    return {
      total: this.requirementTotal[model],
      passed: this.requirementPassed[model],
      failed: this.requirementFailed[model],
    };
  }

  /** Marks the requirements of an element passed (GraphWalker: a vertex when stepped on, an edge one step later). */
  pass(element: number): void {
    if (this.requirementCount[element] !== 0) this.setRequirementState(element, PASSED);
  }

  /** Marks the requirements of an element failed. */
  fail(element: number): void {
    this.setRequirementState(element, FAILED);
  }

  private setRequirementState(element: number, state: number): void {
    const count = this.requirementCount[element];
    const old = this.requirementState[element];
    if (count === 0 || old === state) return;
    const model = this.graph.modelOf[element];
    if (old === PASSED) this.requirementPassed[model] -= count;
    if (old === FAILED) this.requirementFailed[model] -= count;
    if (state === PASSED) this.requirementPassed[model] += count;
    if (state === FAILED) this.requirementFailed[model] += count;
    this.requirementState[element] = state;
  }

  /** The statistics of docs/api-execution.md. Costs O(models + unvisited elements). */
  statistics(statuses: readonly ModelStatus[]): WalkStatistics {
    const { edges, vertices } = this.unvisitedLists();
    return { ...this.figures(statuses), edgesNotVisited: edges, verticesNotVisited: vertices };
  }

  /**
   * The statistics without the lists of unvisited elements, which cost an object per element: what a view
   * of the walk reads many times a second. O(models + elements with requirements).
   */
  figures(statuses: readonly ModelStatus[]): Omit<WalkStatistics, 'edgesNotVisited' | 'verticesNotVisited'> {
    const g = this.graph;
    const sum = (a: Uint32Array): number => a.reduce((s, x) => s + x, 0);
    const visitedVertices = sum(this.visitedVertices);
    const visitedEdges = sum(this.visitedEdges);
    const count = (s: ModelStatus): number => statuses.filter((x) => x === s).length;
    return {
      totalNumberOfModels: g.models.length,
      totalCompletedNumberOfModels: count('completed'),
      totalFailedNumberOfModels: count('failed'),
      totalIncompleteNumberOfModels: count('executing'),
      totalNotExecutedNumberOfModels: count('not_executed'),
      totalNumberOfVertices: g.vertexCount,
      totalNumberOfEdges: g.edgeCount,
      totalNumberOfVisitedVertices: visitedVertices,
      totalNumberOfVisitedEdges: visitedEdges,
      totalNumberOfUnvisitedVertices: g.vertexCount - visitedVertices,
      totalNumberOfUnvisitedEdges: g.edgeCount - visitedEdges,
      vertexCoverage: percentage(visitedVertices, g.vertexCount),
      edgeCoverage: percentage(visitedEdges, g.edgeCount),
      ...this.requirementStatistics(),
    };
  }

  private unvisitedLists(): { edges: UnvisitedEdge[]; vertices: UnvisitedVertex[] } {
    const g = this.graph;
    const edges: UnvisitedEdge[] = [];
    const vertices: UnvisitedVertex[] = [];
    for (const e of this.unvisited) {
      const modelName = g.models[g.modelOf[e]].name;
      if (g.isVertex(e)) vertices.push({ vertexName: g.names[e], vertexId: g.ids[e], modelName });
      else edges.push({ edgeName: g.names[e], edgeId: g.ids[e], modelName });
    }
    return { edges, vertices };
  }

  private requirementStatistics(): Partial<RequirementStatistics> {
    const total = this.requirementTotal.reduce((s, x) => s + x, 0);
    if (total === 0) return {};
    const passed = this.requirementPassed.reduce((s, x) => s + x, 0);
    const failed = this.requirementFailed.reduce((s, x) => s + x, 0);
    return {
      totalNumberOfRequirement: total,
      totalNumberOfPassedRequirement: passed,
      totalNumberOfFailedRequirement: failed,
      totalNumberOfUncoveredRequirement: total - passed - failed,
      requirementCoverage: percentage(passed + failed, total),
      ...this.requirementLists(),
    };
  }

  /** Every requirement by its result; O(elements with requirements), so only when statistics are asked for. */
  private requirementLists(): Pick<RequirementStatistics, 'requirementsPassed' | 'requirementsFailed' | 'requirementsNotCovered'> {
    const g = this.graph;
    const passed: RequirementItem[] = [];
    const failed: FailedRequirementItem[] = [];
    const notCovered: RequirementItem[] = [];
    for (const e of this.withRequirements) {
      const modelName = g.models[g.modelOf[e]].name;
      const state = this.requirementState[e];
      for (const key of g.requirements[e]) {
        if (state === FAILED) failed.push({ RequirementKey: key, modelName });
        else (state === PASSED ? passed : notCovered).push({ requirementKey: key, modelName });
      }
    }
    return { requirementsPassed: passed, requirementsFailed: failed, requirementsNotCovered: notCovered };
  }
}
