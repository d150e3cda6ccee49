import type { Graph } from '../model/graph.js';
import type { GuardSet, ScriptSandbox } from '../scripting.js';
import type { ScriptOrigin } from '../errors.js';

/** Out-degree up to which a scan of a vertex's open edges is cheaper than a lookup by edge. */
const SCANNED_DEGREE = 16;

/**
 * The scripts of one walk on top of its sandbox: runs element and model actions, and answers which out-edges
 * of a vertex are open. Guards of a vertex are prepared once (on first need) and evaluated in one sandbox
 * call; each vertex's answer is kept until the walk steps on or a script runs.
 */
export class WalkScripts {
  /** Per element: the scripts its actions run as, grouped by the engine. */
  private readonly actionScripts: (readonly string[] | undefined)[];
  private readonly actionOrigins: (ScriptOrigin | undefined)[];
  /** Per vertex: undefined = not prepared yet, null = no guarded out-edge. */
  private readonly guardSets: (GuardSet | null | undefined)[];
  /**
   * Per vertex without guards: its out-edges as a plain array (made on first need), frozen, since
   * {@link isOpenOutEdge} trusts it and every generator is handed it.
   */
  private readonly staticOpen: (readonly number[] | undefined)[];
  private readonly guardResults: Uint8Array;
  /**
   * The answers of the current {@link version}, one slot per vertex asked: a step asks about one vertex, or a
   * few at a shared state. Slot arrays are reused from version to version, so a hot walk touches the same few
   * arrays over and over instead of one array per vertex scattered over the heap, and never empties an array
   * (`length = 0` frees its storage, and the next push allocates it again).
   */
  private readonly slotAnswers: number[][] = [];
  /** Per slot: the vertex it answers for at {@link slotsVersion}. */
  private slotVertex = new Int32Array(4);
  /** Per vertex: its slot, valid only while that slot is in use and names the vertex back. */
  private readonly slotOf: Int32Array;
  /** Slots in use at {@link slotsVersion}. */
  private slotsUsed = 0;
  /** The {@link version} the slots answer for; when it falls behind, every slot is free again. */
  private slotsVersion = -1;
  /** Per guarded edge: the {@link version} at which its guard last answered true, -1 for never. */
  private readonly openedAt: Float64Array;
  /** Bumped whenever a script runs: cached guard answers are stale from then on. */
  private version = 0;

  constructor(
    private readonly graph: Graph,
    private readonly sandbox: ScriptSandbox,
    /** The scripts an element's actions run as (`ScriptEngine.actionScripts`). */
    private readonly grouped: (actions: readonly string[]) => readonly string[],
  ) {
    this.actionScripts = new Array(graph.size);
    this.actionOrigins = new Array(graph.size);
    this.guardSets = new Array(graph.vertexCount);
    this.staticOpen = new Array(graph.vertexCount);
    this.slotOf = new Int32Array(graph.vertexCount);
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

  /**
   * Runs the actions of an element in its model's scope. Runs on every step: the check stays this small so
   * that V8 inlines it into the step, and the rest is a call of its own.
   */
  runActions(element: number): void {
    if (this.graph.actions[element].length !== 0) this.runActionsOf(element);
  }

  private runActionsOf(element: number): void {
    const scripts = (this.actionScripts[element] ??= this.grouped(this.graph.actions[element]));
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
   * kept within the step that asked for it. (The sandbox reads the step count itself: SandboxOptions.stepCount.)
   */
  stepped(): void {
    this.version++;
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
   * question. The array is reused for later answers: copy it to keep it past the next step or script.
   */
  openEdges(vertex: number): readonly number[] {
    let set = this.guardSets[vertex];
    if (set === undefined) set = this.guardSets[vertex] = this.prepareGuards(vertex);
    if (set === null) return (this.staticOpen[vertex] ??= Object.freeze(Array.from(this.graph.outEdgesOf(vertex))));
    return this.guardedOpenEdges(vertex, set);
  }

  /** {@link openEdges} of a vertex with guards; apart, so that a walk without guards runs a small function. */
  private guardedOpenEdges(vertex: number, set: GuardSet): readonly number[] {
    if (this.slotsVersion !== this.version) {
      this.slotsVersion = this.version;
      this.slotsUsed = 0;
    }
    const asked = this.slotOf[vertex];
    if (asked < this.slotsUsed && this.slotVertex[asked] === vertex) return this.slotAnswers[asked];
    set.evaluate(this.guardResults);
    const open = this.takeSlot(vertex);
    const g = this.graph;
    let guarded = 0;
    let count = 0;
    for (let i = g.outOffsets[vertex], end = g.outOffsets[vertex + 1]; i < end; i++) {
      const edge = g.outEdges[i];
      if (g.guard[edge] === undefined) {
        open[count++] = edge;
      } else if (this.guardResults[guarded++] === 1) {
        open[count++] = edge;
        this.openedAt[edge] = this.version;
      }
    }
    if (open.length !== count) open.length = count;
    return open;
  }

  /**
   * Whether `answer` is an open out-edge of `vertex` now: what checks a generator's answer every step. At a
   * vertex without guards and of at most {@link SCANNED_DEGREE} out-edges, it looks the answer up in the
   * array {@link openEdges} gave the generator, which the step has just read, rather than in per-element
   * arrays of the whole model, which on a large one costs a cache miss or two per step. Elsewhere it asks
   * {@link isOpen}, which evaluates the guards only if the step has not: asking changes nothing the walk sees.
   */
  isOpenOutEdge(vertex: number, answer: number): boolean {
    const open = this.guardSets[vertex] === null ? this.staticOpen[vertex] : undefined;
    if (open !== undefined && open.length <= SCANNED_DEGREE) return open.includes(answer);
    // `source` is -1 at vertices and start edges, and undefined at a number that is no index (negative,
    // fractional, NaN, past the end): one lookup says "an out-edge of this vertex".
    return this.graph.source[answer] === vertex && this.isOpen(vertex, answer);
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

  /** A free slot of this version, given to `vertex`: its array, still holding an older answer. */
  private takeSlot(vertex: number): number[] {
    const slot = this.slotsUsed++;
    if (slot === this.slotVertex.length) {
      const grown = new Int32Array(slot * 2);
      grown.set(this.slotVertex);
      this.slotVertex = grown;
    }
    this.slotVertex[slot] = vertex;
    this.slotOf[vertex] = slot;
    return (this.slotAnswers[slot] ??= []);
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

