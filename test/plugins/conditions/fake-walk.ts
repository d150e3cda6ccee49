import type { StopCondition } from '../../../core/condition.js';
import type { Graph } from '../../../core/model/graph.js';
import { createRandom } from '../../../core/random.js';
import type { RequirementCounts, WalkScope, WalkState } from '../../../core/walk-state.js';

const NO_REQUIREMENTS: RequirementCounts = { total: 0, passed: 0, failed: 0 };

/**
 * A hand-driven {@link WalkState}: tests move it element by element (by id) and it keeps the counts the machine
 * would keep, telling the conditions it was given through `onStep` after each step, as the machine does.
 */
export class FakeWalk implements WalkState {
  current = -1;
  currentModel = 0;
  steps = 0;
  elapsed = 0;
  readonly random = createRandom(1);
  private readonly counts: Uint32Array;
  private readonly vertexSeen: number[];
  private readonly edgeSeen: number[];
  private readonly requirementCounts = new Map<number, RequirementCounts>();

  constructor(
    readonly graph: Graph,
    private readonly listeners: StopCondition[] = [],
  ) {
    this.counts = new Uint32Array(graph.size);
    this.vertexSeen = graph.models.map(() => 0);
    this.edgeSeen = graph.models.map(() => 0);
  }

  /** Steps onto each element in turn (ids are unique across the test models) and informs the listeners. */
  walk(...ids: string[]): this {
    for (const id of ids) {
      const element = this.record(id);
      for (const c of this.listeners) c.onStep?.(this, element, this.counts[element] === 1);
    }
    return this;
  }

  /** Steps without informing any condition, as if they were created or started listening later. */
  walkUnseen(...ids: string[]): this {
    for (const id of ids) this.record(id);
    return this;
  }

  setRequirements(model: number, counts: RequirementCounts): this {
    this.requirementCounts.set(model, counts);
    return this;
  }

  visits(element: number): number {
    return this.counts[element];
  }
  visitedVertices(model: number): number {
    return this.vertexSeen[model];
  }
  visitedEdges(model: number): number {
    return this.edgeSeen[model];
  }
  requirements(model: number): RequirementCounts {
    return this.requirementCounts.get(model) ?? NO_REQUIREMENTS;
  }
  elapsedMs(): number {
    return this.elapsed;
  }
  openEdges(vertex: number): readonly number[] {
    return [...this.graph.outEdgesOf(vertex)];
  }

  private record(id: string): number {
    const element = elementOf(this.graph, id);
    const model = this.graph.modelOf[element];
    if (this.counts[element]++ === 0) {
      if (this.graph.isVertex(element)) this.vertexSeen[model]++;
      else this.edgeSeen[model]++;
    }
    this.current = element;
    this.currentModel = model;
    this.steps++;
    return element;
  }
}

/** The element index of an id, searched in every model (test ids are unique across models). */
export function elementOf(graph: Graph, id: string): number {
  for (const m of graph.models) {
    const element = graph.elementById(m.index, id);
    if (element !== undefined) return element;
  }
  throw new Error(`test model has no element '${id}'`);
}

/** A scope in which every element is reachable except the listed ids. */
export function scopeOf(graph: Graph, model: number, unreachable: readonly string[] = []): WalkScope {
  const reachable = new Uint8Array(graph.size).fill(1);
  for (const id of unreachable) reachable[elementOf(graph, id)] = 0;
  return { graph, model, reachable };
}
