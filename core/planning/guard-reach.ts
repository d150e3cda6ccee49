import type { StepDemand, StopCondition } from '../condition.js';
import { whyNever } from '../machine/conditions.js';
import type { Graph } from '../model/graph.js';
import { abbreviate } from '../text.js';
import type { StateSpace } from './state-space.js';
import { SeededRandom } from '../random.js';
import { graphLeadsTo, greedyTour } from './state-tours.js';
import { shortestTour } from './tour-search.js';

/** Variable sets a report shows per closed edge before it says how many more there are. */
const SHOWN_STATES = 3;

/**
 * What the guards let a walk step on, judged from a space that holds every state it can reach
 * ({@link StateSpace.complete}). Where chance or time decide, the space holds what they may do: a guard that
 * reads either may be open, and an unknown state (actions that read either) may lead anywhere the graph
 * goes from its vertex. So `stepped` holds more than walks step on, never less, and what it leaves out no
 * walk steps on: sound for "never", which is all that is judged here.
 */
export interface GuardReach {
  readonly graph: Graph;
  /** Per element: 1 when some walk may step on it; 0 when none ever does. */
  readonly stepped: Uint8Array;
  /**
   * The edges a walk could reach were it not for guards (`reachable`) that no reachable state lets through,
   * in element order, each with the states standing at its source vertex (none when guards keep every walk
   * from that vertex too).
   */
  readonly closed: ReadonlyArray<{ readonly edge: number; readonly states: readonly number[] }>;
  /**
   * Two of `elements` that no one walk steps on both of, when some walk steps on each but no walk on all;
   * undefined when some walk steps on them all, or when that is not known: the space is too large for the
   * search, holds unknown states (after which a walk may take any way of the graph), or `elements` lie in
   * another model than the start's while some other model has a start element of its own (the walk may be
   * put there by the machine's rule, which the space does not follow).
   */
  apart(elements: readonly number[]): [number, number] | undefined;
}

/**
 * Undefined when the space may not hold every state. `start` is the walk's start element; `reachable` what a
 * walk could step on were it not for guards. The space follows jumps through shared states; with `entered`,
 * it also follows the entries into later models at their own start elements (state-space.ts, `entries`), and
 * every model is judged. Without, the elements of such models count as `reachable` says, and only the
 * start's model is judged: the machine enters them where its rule says, not by a transition, and from there
 * any other model may be jumped into.
 */
export function guardReach(space: StateSpace, start: number, reachable: Uint8Array, entered = false): GuardReach | undefined {
  if (!space.complete) return undefined;
  const g = space.graph;
  const stepped = new Uint8Array(g.size);
  stepped[start] = 1;
  const startModel = g.modelOf[start];
  const startsElsewhere = !entered && g.models.some((m, i) => i !== startModel && m.startElement >= 0);
  if (startsElsewhere) for (let e = 0; e < g.size; e++) if (g.modelOf[e] !== startModel) stepped[e] = reachable[e];
  const atVertex = new Map<number, number[]>();
  const unknownAt: number[] = [];
  for (let s = 0; s < space.size; s++) {
    const v = space.vertexOf[s];
    stepped[v] = 1;
    if (space.unknown[s] === 1) {
      unknownAt.push(v);
      continue;
    }
    let list = atVertex.get(v);
    if (list === undefined) atVertex.set(v, (list = []));
    list.push(s);
    for (let t = space.outStart[s]; t < space.outStart[s + 1]; t++) stepped[space.edgeOf[t]] = 1;
  }
  graphLeadsTo(g, unknownAt, (e) => ((stepped[e] = 1), false));
  const closed: Array<{ edge: number; states: number[] }> = [];
  for (let e = g.vertexCount; e < g.size; e++) {
    if (stepped[e] === 1 || reachable[e] === 0 || g.source[e] < 0) continue;
    if (!pathOfGuards(g, e, stepped)) continue;
    closed.push({ edge: e, states: atVertex.get(g.source[e]) ?? [] });
  }
  const apart = (wanted: readonly number[]): [number, number] | undefined => {
    // After an unknown state, or in a model the space does not go into, a walk may take any way of the graph.
    if (unknownAt.length > 0 || (startsElsewhere && wanted.some((e) => g.modelOf[e] !== startModel))) return undefined;
    // The start element is stepped on before the first state: no transition of the space takes it.
    const elements = wanted.filter((e) => e !== start);
    // Heading for the nearest one again and again is cheap, and when it steps on them all it proves a walk does.
    if (steppedOnAll(space, greedyTour(space, 0, elements, new SeededRandom(0)), elements)) return undefined;
    if (shortestTour(space, 0, elements).kind !== 'none') return undefined;
    for (let i = 0; i < elements.length; i++) {
      for (let j = i + 1; j < elements.length; j++) {
        if (shortestTour(space, 0, [elements[i], elements[j]]).kind === 'none') return [elements[i], elements[j]];
      }
    }
    return undefined;
  };
  return { graph: g, stepped, closed, apart };
}

/** Whether a tour from state 0 steps on every one of `elements` (the start state's vertex counts). */
function steppedOnAll(space: StateSpace, tour: readonly number[], elements: readonly number[]): boolean {
  const stepped = new Set<number>([space.vertexOf[0]]);
  for (const t of tour) stepped.add(space.edgeOf[t]).add(space.vertexOf[space.to[t]]);
  return elements.every((e) => stepped.has(e));
}

/**
 * Whether guards are why `edge` is never stepped on: its own guard, or guards on every way to its source.
 * (An edge of a model the walk never enters is not the guards' doing.)
 */
function pathOfGuards(g: Graph, edge: number, stepped: Uint8Array): boolean {
  return g.guard[edge] !== undefined || stepped[g.source[edge]] === 0;
}

/**
 * The closed edges in words: the edge, its guard, and the variables at its source vertex (up to
 * {@link SHOWN_STATES} sets of them), e.g. `e_Unlock (guard "fails >= 3"; at v_Locked: fails=0 | fails=1)`.
 * `variablesOf` formats a state's variables in the edge's model.
 */
export function describeClosedEdges(
  graph: Graph,
  closed: GuardReach['closed'],
  variablesOf: (state: number, model: number) => Array<[string, string]>,
): string[] {
  return closed.map(({ edge, states }) => {
    const guard = graph.guard[edge] === undefined ? 'no guard' : `guard "${graph.guard[edge]}"`;
    const source = graph.source[edge];
    const at = `${graph.names[source] ?? graph.ids[source]}`;
    if (states.length === 0) return `${graph.ids[edge]} (${guard}; no walk reaches ${at})`;
    const shown = states.slice(0, SHOWN_STATES).map((s) => {
      const vars = variablesOf(s, graph.modelOf[edge]);
      return vars.length === 0 ? '(no variables)' : vars.map(([n, v]) => `${n}=${v}`).join(', ');
    });
    const more = states.length > SHOWN_STATES ? ` | … ${states.length - SHOWN_STATES} more` : '';
    return `${graph.ids[edge]} (${guard}; at ${at} the variables are only ${shown.join(' | ')}${more})`;
  });
}

/**
 * Why guards make `condition` impossible, or undefined: a demand (coverage, a reached target) needs more
 * than the elements some walk steps on. Under `and` one such operand is enough; under `or` every operand
 * must fail. `explain` words the elements a demand misses. `judged` keeps the verdict on each demand, for the
 * next condition of the same walk: operands written alike share one demand, and each is judged once.
 */
export function whyGuardsForbid(
  condition: StopCondition,
  reach: GuardReach,
  explain: (missing: readonly number[]) => string,
  judged = new Map<StepDemand, string | undefined>(),
): string | undefined {
  return whyNever(condition, (leaf) => {
    const demand = leaf.demand;
    if (demand === undefined) return undefined;
    if (!judged.has(demand)) judged.set(demand, demandForbidden(demand, reach, explain));
    return judged.get(demand);
  });
}

function demandForbidden(demand: StepDemand, reach: GuardReach, explain: (missing: readonly number[]) => string): string | undefined {
  let reached = 0;
  const missing: number[] = [];
  demand.elements.forEach((e, i) => {
    if (reach.stepped[e] === 1) reached += demand.weights?.[i] ?? 1;
    else missing.push(e);
  });
  if (reached < demand.least) {
    return (
      `${demand.label} can never be fulfilled: the guards let walks step on only ${reached} of the ` +
      `${demand.elements.length} ${demand.what}, and ${demand.least} are needed. ${explain(missing)}`
    );
  }
  const graph = reach.graph;
  const all = demand.weights === undefined && demand.least >= demand.elements.length;
  const pair = all ? reach.apart(demand.elements) : undefined;
  if (pair === undefined) return undefined;
  const [a, b] = pair.map((e) => graph.ids[e]);
  return (
    `${demand.label} can never be fulfilled: some walk steps on each of the ${demand.what}, but the guards ` +
    `let no one walk step on both ${a} and ${b}: once a walk has stepped on either, it can never reach the other.`
  );
}

/** A list of ids for a message, the first few in full. */
export function listed(graph: Graph, elements: readonly number[]): string {
  return abbreviate(
    elements.map((e) => graph.ids[e]),
    5,
  );
}
