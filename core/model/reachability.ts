import type { Graph } from './graph.js';
import { IssueReporter, ModelIssueCodes, type ModelIssue } from './issue-reporter.js';

/**
 * Marks every element the walk could reach from the start elements of all models, following out-edges and
 * shared-state jumps as the machine makes them: from a vertex with a shared state to the vertices of *other*
 * models with that state that have a name or an out-edge (a jump never stays inside one model). Guards are
 * ignored: whether one holds depends on data only the walk knows. One breadth-first pass over the graph's
 * flat arrays, so that it stays linear for models of tens of thousands of elements: a shared state is
 * expanded at most twice, once from a first model and once from any other (which then covers the rest).
 */
export function reachableElements(graph: Graph): Uint8Array {
  const found = new Frontier(graph.size);
  for (const model of graph.models) if (model.startElement >= 0) found.add(model.startElement);
  const expandedFrom = new Map<string, number>();
  for (let head = 0; head < found.size; head++) {
    const element = found.queue[head];
    if (!graph.isVertex(element)) {
      if (graph.target[element] >= 0) found.add(graph.target[element]);
      continue;
    }
    for (let i = graph.outOffsets[element], end = graph.outOffsets[element + 1]; i < end; i++) {
      found.add(graph.outEdges[i]);
    }
    const shared = graph.sharedState[element];
    if (shared === undefined) continue;
    const model = graph.modelOf[element];
    const from = expandedFrom.get(shared);
    if (from === EVERY_MODEL || from === model) continue;
    expandedFrom.set(shared, from === undefined ? model : EVERY_MODEL);
    for (const vertex of graph.sharedStateVertices(shared)) {
      if (graph.modelOf[vertex] !== model && isJumpTarget(graph, vertex)) found.add(vertex);
    }
  }
  return found.seen;
}

/** Marks a shared state expanded from two models: every jump target of it has been found. */
const EVERY_MODEL = -1;

/** The machine jumps only to a vertex that has a name or an out-edge (else the walk would stand nowhere). */
function isJumpTarget(graph: Graph, vertex: number): boolean {
  return Boolean(graph.names[vertex]) || graph.outOffsets[vertex + 1] > graph.outOffsets[vertex];
}

/** Elements found so far, in the order found: the queue of the breadth-first search. */
class Frontier {
  readonly seen: Uint8Array;
  readonly queue: Uint32Array;
  size = 0;

  constructor(elements: number) {
    this.seen = new Uint8Array(elements);
    this.queue = new Uint32Array(elements);
  }

  add(element: number): void {
    if (this.seen[element]) return;
    this.seen[element] = 1;
    this.queue[this.size++] = element;
  }
}

/** One `unreachable_element` warning per element the walk can never reach, per model: vertices, then edges. */
export function unreachableElementIssues(graph: Graph): ModelIssue[] {
  const seen = reachableElements(graph);
  const issues: ModelIssue[] = [];
  for (const model of graph.models) {
    let reporter: IssueReporter | undefined;
    for (const list of [model.vertices, model.edges]) {
      for (const element of list) {
        if (seen[element]) continue;
        reporter ??= new IssueReporter(model.id);
        reporter.at(graph.isVertex(element) ? 'vertex' : 'edge', graph.ids[element]);
        reporter.warning(ModelIssueCodes.UNREACHABLE_ELEMENT, null, UNREACHABLE);
      }
    }
    if (reporter) for (const issue of reporter.issues) issues.push(issue);
  }
  return issues;
}

const UNREACHABLE =
  'cannot be reached from any start element (following edges and shared states, guards ignored), so the walk ' +
  'never visits it; connect it, or remove it if it is not needed';
