import { ScriptError, type ScriptOrigin } from '../errors.js';
import type { WalkScripts } from '../machine/scripts.js';
import type { Graph } from '../model/graph.js';
import type { GuardSet, ScriptSandbox } from '../scripting.js';
import { CLOSED, MAYBE, OPEN, UNPREDICTABLE, type StateStepper } from './state-space.js';

/**
 * A {@link StateStepper} over the planner's own script sandbox, for graphs the engine offers no host stepper
 * for (`ScriptEngine.hostStepper`), or whose variables that stepper declined: the
 * variables are restored into it from a copy before each state, and copied out after each transition. The
 * sandbox tells of every read of chance or time (`SandboxOptions.onUnpredictable`); `tookChance` answers
 * whether one happened since it was last asked.
 */
export class SandboxStepper implements StateStepper {
  /** Per edge: its guard alone, prepared on first need, for a state whose guards read chance or time. */
  private readonly alone: (GuardSet | undefined)[];
  private readonly one = new Uint8Array(1);
  /** The copy {@link take} made last: its key is the copy itself. */
  private taken = '';

  constructor(
    private readonly graph: Graph,
    private readonly sandbox: ScriptSandbox,
    private readonly scripts: WalkScripts,
    private readonly tookChance: () => boolean,
  ) {
    this.alone = new Array(graph.size);
  }

  load(variables: string): void {
    this.sandbox.restore!(variables);
    this.scripts.stepped();
  }

  /**
   * The guards of the vertex together, in one call, as the walk asks them; when chance or time was read,
   * each guard again alone, to tell the guards that read it (may be open) from those the variables decide.
   */
  guards(vertex: number, out: Uint8Array): void {
    const g = this.graph;
    this.tookChance();
    let open: readonly number[];
    try {
      open = this.scripts.openEdges(vertex);
    } catch (error) {
      if (!this.tookChance() || !failed(error)) throw error;
      // A failure that chance may spare: each guarded edge may be open.
      for (let i = g.outOffsets[vertex], k = 0, end = g.outOffsets[vertex + 1]; i < end; i++, k++) {
        out[k] = g.guard[g.outEdges[i]] === undefined ? OPEN : MAYBE;
      }
      return;
    }
    const chance = this.tookChance();
    for (let i = g.outOffsets[vertex], k = 0, end = g.outOffsets[vertex + 1]; i < end; i++, k++) {
      const edge = g.outEdges[i];
      if (g.guard[edge] === undefined) out[k] = OPEN;
      else out[k] = chance ? this.judgeAlone(vertex, edge) : open.includes(edge) ? OPEN : CLOSED;
    }
  }

  take(edge: number): string | typeof UNPREDICTABLE | undefined {
    const copy = this.enter(edge);
    if (copy !== UNPREDICTABLE && copy !== undefined) this.taken = copy;
    return copy;
  }

  keyOf(variables: string): string {
    return variables;
  }

  copy(): string {
    return this.taken;
  }

  /**
   * Runs the actions of the element a walk starts on or takes, and of its target for an edge: the copy after
   * them; {@link UNPREDICTABLE} when one read chance or time, even if it then failed (another draw may not).
   */
  enter(element: number): string | typeof UNPREDICTABLE | undefined {
    const g = this.graph;
    this.tookChance();
    try {
      this.scripts.runActions(element);
      if (!g.isVertex(element)) this.scripts.runActions(g.target[element]);
    } catch (error) {
      if (this.tookChance() && failed(error)) return UNPREDICTABLE;
      throw error;
    }
    return this.tookChance() ? UNPREDICTABLE : this.sandbox.snapshot!();
  }

  private judgeAlone(vertex: number, edge: number): number {
    const g = this.graph;
    const set = (this.alone[edge] ??= this.sandbox.prepareGuards(g.modelOf[vertex], [g.guard[edge] as string], [originOf(g, edge)]));
    try {
      set.evaluate(this.one);
    } catch (error) {
      if (this.tookChance() && failed(error)) return MAYBE;
      throw error;
    }
    if (this.tookChance()) return MAYBE;
    return this.one[0] === 1 ? OPEN : CLOSED;
  }
}

/** A script that failed by itself, not by a limit: a way chance may take or spare. */
function failed(error: unknown): boolean {
  return error instanceof ScriptError && error.limit === undefined;
}

function originOf(g: Graph, edge: number): ScriptOrigin {
  return { modelId: g.models[g.modelOf[edge]].id, elementId: g.ids[edge], field: 'guard' };
}
