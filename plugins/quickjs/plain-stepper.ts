import type { ScriptOrigin } from '../../core/errors.js';
import type { Graph } from '../../core/model/graph.js';
import { CLOSED, MAYBE, OPEN, UNPREDICTABLE, type HostStepper } from '../../core/planning/state-space.js';
import { SNAPSHOT_SEPARATOR } from '../../core/scripting.js';
import { compilePlain, NotPlain, Unpredictable, type PlainScope, type PlainScript, type PlainValue } from './plain-scripts.js';
import { actionScripts, splitGlobal } from './shared-scope.js';

/** A compiled script and the scope it runs in: its model's, or the shared one (index `models`). */
interface Placed {
  readonly scope: number;
  readonly run: PlainScript;
}

/**
 * A {@link HostStepper} over plain scripts (plain-scripts.ts): the variables are maps in the host, copied
 * in the snapshot format of core/scripting.ts. Made only when every guard and action of the graph is plain;
 * a value that is not (an array, a number JSON cannot hold) throws {@link NotPlain}, and the exploration is
 * made again in the sandbox.
 *
 * Its keys are short: per scope the number of its *layout* (the names in order of first assignment, which
 * the copy spells out in full) and the values. A transition is keyed in a third of the time its copy takes,
 * and most transitions lead to a state found before, whose copy is then never made.
 */
export class PlainStepper implements HostStepper {
  private scopes: PlainScope[] = [];
  /** The copy last loaded, parsed: loading it again (after each action) only rebuilds the maps. */
  private loadedText: string | undefined;
  private loadedParts: Array<Array<[string, PlainValue]>> = [];
  /** Per scope of the copy loaded: its layout and its number of variables. */
  private loadedLayouts: number[] = [];
  /** Layouts by their names, joined. */
  private readonly layouts = new Map<string, number>();

  private constructor(
    private readonly graph: Graph,
    private readonly guardOf: ReadonlyArray<Placed | undefined>,
    private readonly actions: ReadonlyArray<readonly Placed[]>,
  ) {}

  /** The stepper, or undefined when some guard or action of the graph is not plain. */
  static of(graph: Graph): PlainStepper | undefined {
    const models = graph.models.length;
    const place = (e: number, source: string, kind: 'guard' | 'action', origin: ScriptOrigin): Placed | undefined => {
      const { shared, code } = splitGlobal(source);
      const run = compilePlain(code, kind, origin);
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
      this.loadedLayouts = this.loadedParts.map((pairs) => this.layoutOf(pairs.map(([name]) => name)));
      this.loadedText = variables;
    }
    this.scopes = this.loadedParts.map((pairs) => new Map(pairs));
  }

  keyOf(variables: string): string {
    this.load(variables);
    return this.key();
  }

  copy(): string {
    return this.scopes.map(encodeScope).join(SNAPSHOT_SEPARATOR);
  }

  guards(vertex: number, out: Uint8Array): void {
    const g = this.graph;
    for (let i = g.outOffsets[vertex], k = 0, end = g.outOffsets[vertex + 1]; i < end; i++, k++) {
      const guard = this.guardOf[g.outEdges[i]];
      out[k] = guard === undefined ? OPEN : this.judge(guard);
    }
  }

  take(edge: number): string | typeof UNPREDICTABLE {
    return this.runOn(edge) ? this.key() : UNPREDICTABLE;
  }

  /**
   * Runs the actions of the element a walk starts on, and of its target for an edge: the copy after them, or
   * {@link UNPREDICTABLE} when one read chance or time.
   */
  enter(element: number): string | typeof UNPREDICTABLE {
    return this.runOn(element) ? this.copy() : UNPREDICTABLE;
  }

  /** Runs the actions of `element` and of its target for an edge; false when one read chance or time. */
  private runOn(element: number): boolean {
    try {
      this.runActions(element);
      if (!this.graph.isVertex(element)) this.runActions(this.graph.target[element]);
      return true;
    } catch (error) {
      if (error instanceof Unpredictable) return false;
      throw error;
    }
  }

  /** The key of the variables now: per scope its layout, then its values, scopes apart by `;`. */
  private key(): string {
    let key = '';
    for (let i = 0; i < this.scopes.length; i++) {
      const scope = this.scopes[i];
      // Variables are only ever added, so a scope of the size it was loaded with keeps its layout.
      const loaded = this.loadedParts[i].length === scope.size;
      key += `${i === 0 ? '' : ';'}${loaded ? this.loadedLayouts[i] : this.layoutOf([...scope.keys()])}`;
      for (const value of scope.values()) key += `,${valueKey(value)}`;
    }
    return key;
  }

  private layoutOf(names: readonly string[]): number {
    const joined = names.join('\u0000');
    let layout = this.layouts.get(joined);
    if (layout === undefined) this.layouts.set(joined, (layout = this.layouts.size));
    return layout;
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

/** A value in a key: numbers as JavaScript writes them, strings quoted, and one letter for the rest. */
function valueKey(value: PlainValue): string {
  if (typeof value === 'number') return `${value}`;
  if (typeof value === 'string') return JSON.stringify(value);
  return value === null ? 'n' : value ? 't' : 'f';
}

function encodeScope(scope: PlainScope): string {
  if (scope.size === 0) return '';
  const flat: PlainValue[] = [];
  for (const [name, value] of scope) flat.push(name, value);
  return JSON.stringify(flat);
}
