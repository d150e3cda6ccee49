import type { Graph } from '../model/graph.js';
import { invalidGenerator, type WalkerError } from '../errors.js';
import { abbreviate, shorten } from '../text.js';

/** How long a generator's answer may grow in a message. */
const SHOWN_ANSWER = 60;
/** How many jump candidates a message lists. */
const LISTED_CANDIDATES = 5;

/** Which out-edges are open now (guards evaluated within this step): what `WalkScripts` answers. */
export interface OpenEdges {
  /** Whether a number is an open out-edge of `vertex`: any number, however far from one. */
  isOpenOutEdge(vertex: number, answer: number): boolean;
  /** Whether `edge`, an out-edge of `vertex`, is open. */
  isOpen(vertex: number, edge: number): boolean;
}

/**
 * What a path generator's `nextEdge` answered at `vertex`, checked before the machine moves: -1 (no way on) or
 * one of the vertex's open out-edges. Anything else — a vertex, an element of another model, an edge that
 * leaves elsewhere or whose guard is false, a number that is no element, a value that is no number — is a
 * `WalkerError` naming the generator and the answer, thrown while the walk still stands where it stood. O(1):
 * a scan of a few open edges or a handful of lookups, and the guard's answer from this step's evaluation.
 */
export function checkEdgeAnswer(graph: Graph, open: OpenEdges, name: string, vertex: number, answer: unknown): number {
  if (typeof answer === 'number' && open.isOpenOutEdge(vertex, answer)) return answer;
  return answer === -1 ? -1 : refuseEdge(graph, open, name, vertex, answer);
}

/** Throws the error for a wrong answer: apart from {@link checkEdgeAnswer}, which V8 inlines into every step. */
function refuseEdge(graph: Graph, open: OpenEdges, name: string, vertex: number, answer: unknown): never {
  throw badEdge(graph, name, vertex, answer, whyNotAnEdge(graph, open, vertex, answer));
}

/** What a generator's `chooseJump` answered at `vertex`: one of the `candidates` (`vertex` itself for staying). */
export function checkJumpAnswer(
  graph: Graph,
  name: string,
  vertex: number,
  candidates: readonly number[],
  answer: unknown,
): number {
  if (typeof answer === 'number' && candidates.includes(answer)) return answer;
  const listed = abbreviate(candidates.slice(0, LISTED_CANDIDATES).map((c) => graph.describe(c)), LISTED_CANDIDATES, candidates.length);
  throw invalidGenerator(
    `The path generator '${name}' of model '${modelOf(graph, vertex)}' answered ${show(graph, answer)} to ` +
      `chooseJump at ${graph.describe(vertex)}, which is not one of the candidates ${listed}: chooseJump must ` +
      'answer the vertex itself to stay, or one of the vertices of other models it was offered. The walk has not moved.',
  );
}

function whyNotAnEdge(graph: Graph, open: OpenEdges, vertex: number, answer: unknown): string {
  if (typeof answer !== 'number' || !Number.isInteger(answer) || answer < 0 || answer >= graph.size) {
    return 'which is no element of the model file';
  }
  if (graph.isVertex(answer)) return 'which is a vertex, where an out-edge is due';
  if (graph.modelOf[answer] !== graph.modelOf[vertex]) return 'which is an edge of another model';
  const from = graph.source[answer];
  if (from < 0) return 'which is a start edge, leaving from no vertex';
  if (from !== vertex) return `which is an edge leaving from ${graph.describe(from)}`;
  return open.isOpen(vertex, answer) ? 'which is an open out-edge' : 'which is an out-edge whose guard is false now';
}

function badEdge(graph: Graph, name: string, vertex: number, answer: unknown, why: string): WalkerError {
  return invalidGenerator(
    `The path generator '${name}' of model '${modelOf(graph, vertex)}' answered ${show(graph, answer)} at ` +
      `${graph.describe(vertex)}, ${why}: nextEdge must answer one of walk.openEdges(vertex), or -1 when there ` +
      'is no way on. The walk has not moved.',
  );
}

/** The answer as it goes into a message: the value, and the element it names when it names one. */
function show(graph: Graph, answer: unknown): string {
  const value = shorten(valueText(answer), SHOWN_ANSWER);
  const names = typeof answer === 'number' && Number.isInteger(answer) && answer >= 0 && answer < graph.size;
  if (!names) return value;
  const model = graph.models[graph.modelOf[answer]];
  return `${value} (${graph.describe(answer)} of model '${model.name ?? model.id}')`;
}

function valueText(value: unknown): string {
  if (typeof value === 'string') return JSON.stringify(value);
  if (typeof value === 'function') return 'a function';
  if (typeof value !== 'object' || value === null) return String(value);
  try {
    return JSON.stringify(value) ?? Object.prototype.toString.call(value);
  } catch {
    return Object.prototype.toString.call(value);
  }
}

function modelOf(graph: Graph, element: number): string {
  const model = graph.models[graph.modelOf[element]];
  return model.name ?? model.id;
}
