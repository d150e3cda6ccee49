import type { Graph } from './graph.js';
import { IssueReporter, ModelIssueCodes, type ModelIssue } from './issue-reporter.js';

/**
 * Marks every element the walk could reach from the start elements of all models, following out-edges and
 * shared states (a vertex with a shared state reaches every vertex with the same shared state, in any model).
 * Guards are ignored: whether one holds depends on data only the walk knows. One breadth-first pass over the
 * graph's flat arrays, so that it stays linear for models of tens of thousands of elements.
 */
export function reachableElements(graph: Graph): Uint8Array {
  const found = new Frontier(graph.size);
  for (const model of graph.models) if (model.startElement >= 0) found.add(model.startElement);
  const sharedDone = new Set<string>();
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
    if (shared === undefined || sharedDone.has(shared)) continue;
    sharedDone.add(shared);
    for (const vertex of graph.sharedStateVertices(shared)) found.add(vertex);
  }
  return found.seen;
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
