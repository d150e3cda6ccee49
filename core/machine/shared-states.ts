import type { Graph } from '../model/graph.js';
import type { RandomSource } from '../random.js';
import type { WalkState } from '../walk-state.js';
import type { ChainPart } from './chain.js';
import { checkJumpAnswer } from './generator-answers.js';
import type { WalkScripts } from './scripts.js';

/**
 * Jumps between models through shared states (docs/behaviour.md). At a vertex with a shared state the
 * candidates are: staying (when the vertex has an open out-edge), and every vertex of another model with the
 * same shared state that has a name or an open out-edge — except the vertex just jumped from, unless staying
 * is impossible. Vertices of failed models are no candidates. The active generator chooses among them when it
 * can (`PathGenerator.chooseJump`), else one is picked at random, as GraphWalker does; a vertex of another
 * model is then the next step. Choosing changes nothing: the machine reports the jump ({@link jumped}) once
 * it has made the step, so that a step that fails before that leaves the walk as it was.
 */
export class SharedStates {
  private jumpedFrom = -1;
  private readonly candidates: number[] = [];

  constructor(
    private readonly graph: Graph,
    private readonly scripts: WalkScripts,
    private readonly random: RandomSource,
  ) {}

  /**
   * The vertex to jump to from `vertex`, or -1 to stay in the current model. `failed(model)` tells which
   * models to leave out; the active generator picks among the candidates when it can (`vertex` itself means
   * staying), and an answer that is no candidate is a `WalkerError` naming it.
   */
  jumpFrom(walk: WalkState, vertex: number, failed: (model: number) => boolean, part: ChainPart): number {
    const shared = this.graph.sharedState[vertex];
    return shared === undefined ? -1 : this.jumpThrough(shared, walk, vertex, failed, part);
  }

  /** {@link jumpFrom} at a vertex with a shared state; apart, so that the check every step makes stays small. */
  private jumpThrough(shared: string, walk: WalkState, vertex: number, failed: (model: number) => boolean, part: ChainPart): number {
    const g = this.graph;
    const group = g.sharedStateVertices(shared);
    if (group.length < 2) return -1;
    const candidates = this.candidates;
    candidates.length = 0;
    const canStay = this.scripts.openEdges(vertex).length > 0;
    if (canStay) candidates.push(vertex);
    const model = g.modelOf[vertex];
    for (const other of group) {
      const otherModel = g.modelOf[other];
      if (otherModel === model || failed(otherModel)) continue;
      if (other === this.jumpedFrom && canStay) continue;
      if (g.names[other] || this.scripts.openEdges(other).length > 0) candidates.push(other);
    }
    if (candidates.length === 0) return -1;
    const pick = this.pick(walk, vertex, candidates, part);
    return pick === vertex ? -1 : pick;
  }

  private pick(walk: WalkState, vertex: number, candidates: readonly number[], part: ChainPart): number {
    if (candidates.length === 1) return candidates[0];
    if (part.generator.chooseJump === undefined) return candidates[this.random.int(candidates.length)];
    const answer: unknown = part.generator.chooseJump(walk, vertex, candidates);
    return checkJumpAnswer(this.graph, part.name, vertex, candidates, answer);
  }

  /**
   * The walk stepped from `from` (-1 for nowhere) onto `element`. From a vertex straight to a vertex is a
   * jump, and the walk may not jump straight back while it can stay; an edge ends the memory of the last
   * jump; a model entered at its start was standing nowhere, which changes nothing.
   */
  entered(from: number, element: number): void {
    const vertices = this.graph.vertexCount;
    if (element >= vertices) this.jumpedFrom = -1;
    else if (from >= 0 && from < vertices) this.jumpedFrom = from;
  }

  reset(): void {
    this.jumpedFrom = -1;
  }
}
