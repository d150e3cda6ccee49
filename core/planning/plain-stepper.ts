import type { ScriptOrigin } from '../errors.js';
import type { Graph } from '../model/graph.js';
import { actionScripts, SNAPSHOT_SEPARATOR } from '../scripting.js';
import { compilePlain, NotPlain, Unpredictable, type PlainScope, type PlainScript, type PlainValue } from './plain-scripts.js';
import { CLOSED, MAYBE, OPEN, UNPREDICTABLE, type StateStepper } from './state-space.js';

const GLOBAL_PREFIX = 'global.';

/** A compiled script and the scope it runs in: its model's, or the shared one (index `models`). */
interface Placed {
  readonly scope: number;
  readonly run: PlainScript;
}

/**
 * A {@link StateStepper} over plain scripts (plain-scripts.ts): the variables are maps in the host, copied
 * in the snapshot format of core/scripting.ts. Made only when every guard and action of the graph is plain;
 * a value that is not (an array, a number JSON cannot hold) throws {@link NotPlain}, and the exploration is
 * made again in the sandbox.
 */
export class PlainStepper implements StateStepper {
  private scopes: PlainScope[] = [];
  /** The copy last loaded, parsed: loading it again (after each action) only rebuilds the maps. */
  private loadedText: string | undefined;
  private loadedParts: Array<Array<[string, PlainValue]>> = [];

  private constructor(
    private readonly graph: Graph,
    private readonly guardOf: ReadonlyArray<Placed | undefined>,
    private readonly actions: ReadonlyArray<readonly Placed[]>,
  ) {}

  /** The stepper, or undefined when some guard or action of the graph is not plain. */
  static of(graph: Graph): PlainStepper | undefined {
    const models = graph.models.length;
    // GraphWalker's scope rule (core/scripting.ts): a script that mentions `global.` runs without it, shared.
    const place = (e: number, source: string, kind: 'guard' | 'action', origin: ScriptOrigin): Placed | undefined => {
      const shared = source.includes(GLOBAL_PREFIX);
      const run = compilePlain(shared ? source.replaceAll(GLOBAL_PREFIX, '') : source, kind, origin);
      return run && { scope: shared ? models : graph.modelOf[e], run };
    };
    const guards: Array<Placed | undefined> = new Array(graph.size);
    const actions: Placed[][] = new Array(graph.size);
    for (let e = 0; e < graph.size; e++) {
      const origin = (field: ScriptOrigin['field']): ScriptOrigin => ({
        modelId: graph.models[graph.modelOf[e]].id,
        elementId: graph.ids[e],
        field,
      });
      const guard = graph.guard[e];
      if (guard !== undefined) {
        guards[e] = place(e, guard, 'guard', origin('guard'));
        if (guards[e] === undefined) return undefined;
      }
      actions[e] = [];
      for (const script of actionScripts(graph.actions[e])) {
        const placed = place(e, script, 'action', origin('actions'));
        if (placed === undefined) return undefined;
        actions[e].push(placed);
      }
    }
    return new PlainStepper(graph, guards, actions);
  }

  load(variables: string): void {
    if (variables !== this.loadedText) {
      this.loadedParts = variables.split(SNAPSHOT_SEPARATOR).map(parsePart);
      this.loadedText = variables;
    }
    this.scopes = this.loadedParts.map((pairs) => new Map(pairs));
  }

  guards(vertex: number, out: Uint8Array): void {
    const g = this.graph;
    for (let i = g.outOffsets[vertex], k = 0, end = g.outOffsets[vertex + 1]; i < end; i++, k++) {
      const guard = this.guardOf[g.outEdges[i]];
      out[k] = guard === undefined ? OPEN : this.judge(guard);
    }
  }

  take(edge: number): string | typeof UNPREDICTABLE {
    return this.enter(edge);
  }

  /**
   * Runs the actions of the element a walk starts on or takes, and of its target for an edge: the copy after
   * them, or {@link UNPREDICTABLE} when one read chance or time.
   */
  enter(element: number): string | typeof UNPREDICTABLE {
    try {
      this.runActions(element);
      if (!this.graph.isVertex(element)) this.runActions(this.graph.target[element]);
    } catch (error) {
      if (error instanceof Unpredictable) return UNPREDICTABLE;
      throw error;
    }
    return this.scopes.map(encodeScope).join(SNAPSHOT_SEPARATOR);
  }

  private judge({ scope, run }: Placed): number {
    try {
      return run(this.scopes[scope]) === true ? OPEN : CLOSED;
    } catch (error) {
      if (error instanceof Unpredictable) return MAYBE;
      throw error;
    }
  }

  private runActions(element: number): void {
    for (const { scope, run } of this.actions[element]) run(this.scopes[scope]);
  }
}

/** One scope of a snapshot: empty, or a JSON array of names and values. */
function parsePart(part: string): Array<[string, PlainValue]> {
  if (part === '') return [];
  const flat: unknown = JSON.parse(part);
  if (!Array.isArray(flat)) throw new NotPlain('snapshot');
  const pairs: Array<[string, PlainValue]> = [];
  for (let i = 0; i < flat.length; i += 2) {
    const value: unknown = flat[i + 1];
    if (value !== null && typeof value === 'object') throw new NotPlain('object value');
    pairs.push([String(flat[i]), value as PlainValue]);
  }
  return pairs;
}

function encodeScope(scope: PlainScope): string {
  if (scope.size === 0) return '';
  const flat: PlainValue[] = [];
  for (const [name, value] of scope) flat.push(name, value);
  return JSON.stringify(flat);
}
