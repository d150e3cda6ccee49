import type { Graph } from './graph.js';
import { JoinedGraph } from './joined-graph.js';
import { WalkGraph } from './walk-graph.js';
import { IssueReporter, ModelIssueCodes, type ModelIssue } from './issue-reporter.js';

/**
 * Marks every element the walk could reach from the start elements of all models, following out-edges and
 * shared-state jumps as the machine makes them: from a vertex with a shared state to the vertices of *other*
 * models with that state that have a name or an out-edge (a jump never stays inside one model). Guards are
 * ignored: whether one holds depends on data only the walk knows. One breadth-first pass over the
 * {@link WalkGraph}, linear in the size of the file.
 */
export function reachableElements(graph: Graph): Uint8Array {
  return new WalkGraph(graph, new JoinedGraph(graph)).reachable();
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
