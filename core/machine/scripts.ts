import type { Graph } from '../model/graph.js';
import { actionScripts, type GuardSet, type ScriptSandbox } from '../scripting.js';
import type { ScriptOrigin } from '../errors.js';

/**
 * The scripts of one walk on top of its sandbox: runs element and model actions, and answers which out-edges
 * of a vertex are open. Guards of a vertex are prepared once (on first need) and evaluated in one sandbox
 * call; each vertex's answer is kept until the walk steps on or a script runs.
 */
export class WalkScripts {
  /** Per element: its actions, joined into one script where that keeps their meaning. */
  private readonly actionScripts: (readonly string[] | undefined)[];
  private readonly actionOrigins: (ScriptOrigin | undefined)[];
  /** Per vertex: undefined = not prepared yet, null = no guarded out-edge. */
  private readonly guardSets: (GuardSet | null | undefined)[];
  /** Per vertex without guards: its out-edges as a plain array (made on first need). */
  private readonly staticOpen: (readonly number[] | undefined)[];
  private readonly guardResults: Uint8Array;
  /** Per guarded vertex: its open out-edges as last evaluated (made on first need, then reused). */
  private readonly openCache: (number[] | undefined)[];
  /** Per vertex: the {@link version} its {@link openCache} entry was evaluated at, -1 for never. */
  private readonly openVersion: Float64Array;
  /** Per guarded edge: the {@link version} at which its guard last answered true, -1 for never. */
  private readonly openedAt: Float64Array;
  /** Bumped whenever a script runs: cached guard answers are stale from then on. */
  private version = 0;

  constructor(
    private readonly graph: Graph,
    private readonly sandbox: ScriptSandbox,
  ) {
    this.actionScripts = new Array(graph.size);
    this.actionOrigins = new Array(graph.size);
    this.guardSets = new Array(graph.vertexCount);
    this.staticOpen = new Array(graph.vertexCount);
    this.openCache = new Array(graph.vertexCount);
    this.openVersion = new Float64Array(graph.vertexCount).fill(-1);
    this.openedAt = new Float64Array(graph.size).fill(-1);
    let maxDegree = 0;
    for (let v = 0; v < graph.vertexCount; v++) {
      maxDegree = Math.max(maxDegree, graph.outOffsets[v + 1] - graph.outOffsets[v]);
    }
    this.guardResults = new Uint8Array(maxDegree);
  }

  /** Runs the model-level actions of every model, in model order. */
  runModelActions(): void {
    for (const model of this.graph.models) {
      for (const action of model.actions) this.run(model.index, action, { modelId: model.id, field: 'model actions' });
    }
  }

  /** Runs the actions of an element in its model's scope. */
  runActions(element: number): void {
    if (this.graph.actions[element].length === 0) return;
    const scripts = (this.actionScripts[element] ??= actionScripts(this.graph.actions[element]));
    const origin = (this.actionOrigins[element] ??= this.origin(element, 'actions'));
    const scope = this.graph.modelOf[element];
    for (const script of scripts) this.run(scope, script, origin);
  }

  /** Runs a script in a model's scope (setData and model actions). */
  run(scope: number, source: string, origin: ScriptOrigin): void {
    this.version++;
    this.sandbox.run(scope, source, origin);
  }

  /**
   * The walk took a step: guards are asked afresh from now on, as GraphWalker asks them on every step. A
   * guard may read more than variables (`Math.random`, a counter it bumps itself), so an answer is only
   * kept within the step that asked for it.
   */
  stepped(): void {
    this.version++;
    this.sandbox.stepped?.();
  }

  /** Forget cached guard answers and prepared guards (after a sandbox reset). */
  invalidate(): void {
    this.version++;
    this.guardSets.fill(undefined);
  }

  /**
   * The open out-edges of a vertex, in declaration order. Each vertex's guards are evaluated at most once
   * per step and between two scripts, however often the step asks (the shared-state check, then the
   * generator): a guard that calls `Math.random` must give one answer per step, not a fresh draw per
   * question. The array is the vertex's own and is reused: copy it to keep it past the next step.
   */
  openEdges(vertex: number): readonly number[] {
    let set = this.guardSets[vertex];
    if (set === undefined) set = this.guardSets[vertex] = this.prepareGuards(vertex);
    if (set === null) return (this.staticOpen[vertex] ??= Array.from(this.graph.outEdgesOf(vertex)));
    const open = (this.openCache[vertex] ??= []);
    if (this.openVersion[vertex] === this.version) return open;
    set.evaluate(this.guardResults);
    open.length = 0;
    const g = this.graph;
    let guarded = 0;
    for (let i = g.outOffsets[vertex], end = g.outOffsets[vertex + 1]; i < end; i++) {
      const edge = g.outEdges[i];
      if (g.guard[edge] === undefined) {
        open.push(edge);
      } else if (this.guardResults[guarded++] === 1) {
        open.push(edge);
        this.openedAt[edge] = this.version;
      }
    }
    this.openVersion[vertex] = this.version;
    return open;
  }

  /**
   * Whether `edge`, an out-edge of `vertex`, is open now: in O(1), from the answer of this step's evaluation of
   * the vertex's guards (made now if the step has not asked yet), so that checking a generator's choice costs
   * no scan of the open edges and no second evaluation.
   */
  isOpen(vertex: number, edge: number): boolean {
    if (this.graph.guard[edge] === undefined) return true;
    this.openEdges(vertex);
    return this.openedAt[edge] === this.version;
  }

  private prepareGuards(vertex: number): GuardSet | null {
    const edges = Array.from(this.graph.outEdgesOf(vertex)).filter((e) => this.graph.guard[e] !== undefined);
    if (edges.length === 0) return null;
    const sources = edges.map((e) => this.graph.guard[e] as string);
    const origins = edges.map((e) => this.origin(e, 'guard'));
    return this.sandbox.prepareGuards(this.graph.modelOf[vertex], sources, origins);
  }

  private origin(element: number, field: ScriptOrigin['field']): ScriptOrigin {
    const g = this.graph;
    return { modelId: g.models[g.modelOf[element]].id, elementId: g.ids[element], field };
  }
}

