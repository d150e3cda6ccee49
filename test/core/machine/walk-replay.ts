import type { Graph } from '../../../core/model/graph.js';

/** What a guard or an action means, by the text the random files write (see walk-properties.test.ts). */
export interface ScriptMeanings {
  readonly guards: ReadonlyMap<string, (x: number) => boolean>;
  readonly actions: ReadonlyMap<string, (x: number) => number>;
}

/**
 * Follows a walk step by step in plain JavaScript, independently of the machine and its script sandbox, and
 * throws as soon as a step is one the model does not allow: the start element first; from an edge, its target;
 * from a vertex, one of its out-edges whose guard holds with the variable as the actions left it, or a jump to
 * a vertex of another model with the same shared state that has a name or an out-edge, but not straight back
 * to the vertex just jumped from while the walk could stay. Each model keeps its own `x`, set to 0 by the
 * model actions and changed by the actions of every element stepped on.
 */
export class Replay {
  private readonly x: number[];
  private last = -1;
  private jumpedFrom = -1;

  constructor(
    private readonly graph: Graph,
    private readonly meanings: ScriptMeanings,
  ) {
    this.x = graph.models.map(() => 0);
  }

  step(element: number): void {
    const problem = this.whyNot(element);
    if (problem !== undefined) throw new Error(`step ${this.graph.describe(element)} after ${this.last < 0 ? 'nothing' : this.graph.describe(this.last)}: ${problem}`);
    const g = this.graph;
    if (!g.isVertex(element)) this.jumpedFrom = -1;
    else if (this.last >= 0 && g.isVertex(this.last)) this.jumpedFrom = this.last;
    this.last = element;
    const model = g.modelOf[element];
    for (const action of g.actions[element]) this.x[model] = this.meaning(this.meanings.actions, action)(this.x[model]);
  }

  /** The variables as the machine's `data()` shows them for a model. */
  data(model: number): string {
    return `x=${this.x[model]}`;
  }

  private whyNot(element: number): string | undefined {
    const g = this.graph;
    const from = this.last;
    if (from < 0) return element === g.models[0].startElement ? undefined : 'the walk must begin on the start element';
    if (!g.isVertex(from)) return element === g.target[from] ? undefined : 'an edge leads only to its target';
    if (!g.isVertex(element)) {
      if (g.source[element] !== from) return 'the edge does not leave from where the walk stands';
      return this.isOpen(element) ? undefined : 'the guard of the edge is false';
    }
    const state = g.sharedState[from];
    if (state === undefined || g.sharedState[element] !== state) return 'no shared state leads there';
    if (g.modelOf[element] === g.modelOf[from]) return 'a jump never stays in its model';
    if (!g.names[element] && g.outEdgesOf(element).length === 0) return 'the machine never jumps to an unnamed dead end';
    const canStay = Array.from(g.outEdgesOf(from)).some((e) => this.isOpen(e));
    return element === this.jumpedFrom && canStay ? 'a jump straight back while the walk could stay' : undefined;
  }

  private isOpen(edge: number): boolean {
    const guard = this.graph.guard[edge];
    return guard === undefined || this.meaning(this.meanings.guards, guard)(this.x[this.graph.modelOf[edge]]);
  }

  private meaning<T>(table: ReadonlyMap<string, T>, script: string): T {
    const meaning = table.get(script);
    if (meaning === undefined) throw new Error(`the replay does not know the script '${script}'`);
    return meaning;
  }
}
