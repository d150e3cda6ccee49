import type { ConditionExpr } from '../language/ast.js';
import { parseGenerators } from '../language/parser.js';
import type { Graph } from '../model/graph.js';
import { IssueReporter, ModelIssueCodes, type ModelIssue } from '../model/issue-reporter.js';
import { reachableElements } from '../model/reachability.js';
import type { Registries } from '../plugin.js';

/** Generators that choose each edge by chance, blind to what is left to cover: they walk into any dead end. */
const BLIND = new Set(['random', 'weighted_random']);
/** Conditions that make a dead end a problem: the walk must go everywhere, and from there it goes nowhere. */
const FULL_COVERAGE: Readonly<Record<string, string>> = { edge_coverage: 'edge', vertex_coverage: 'vertex' };
/** How many dead ends a message names before it says how many more there are. */
const LISTED = 5;

/**
 * GraphWalker's check of a model walked by a random generator to 100 % edge (walker: or vertex) coverage: a
 * *cul-de-sac*, a vertex the walk can reach but not leave (no out-edge, no shared state to jump from), ends
 * the walk where it stands. With one, the walk fails whenever chance takes it there before everything else
 * is covered, a warning ("That might not work."); with several it always fails, since it can end in only one
 * of them, an error ("That will not work."). The messages start with GraphWalker's words. Unlike GraphWalker,
 * walker counts only the vertices a walk can reach (an unreachable one is a warning of its own), and looks at
 * every generator of a sequence and into `and` groups. A generator string that does not parse or names
 * nothing registered is left to the walk, which reports it.
 *
 * @param generators the generator string of each model, indexed like `graph.models`; a missing one is the model's own
 */
export function deadEndIssues(
  graph: Graph,
  generators: readonly (string | undefined)[],
  registries: Registries,
): ModelIssue[] {
  let reachable: Uint8Array | undefined;
  const issues: ModelIssue[] = [];
  graph.models.forEach((model, index) => {
    const coverage = blindFullCoverage(generators[index] ?? model.generator, registries);
    if (coverage === undefined) return;
    reachable ??= reachableElements(graph);
    const seen = reachable;
    const ends = model.vertices.filter(
      (v) => seen[v] === 1 && graph.outOffsets[v + 1] === graph.outOffsets[v] && graph.sharedState[v] === undefined,
    );
    if (ends.length === 0) return;
    const r = new IssueReporter(model.id);
    const request = `and is requested to run using a random path generator and 100% ${coverage} coverage.`;
    const named = listed(graph, ends);
    if (ends.length === 1) {
      const problem =
        `The model has one cul-de-sacs, ${request} That might not work. The walk cannot leave ${named}, and ` +
        'fails there when chance takes it there before the rest is covered; give it a way out, or use a ' +
        'generator that plans (quick_random, shortest_all_paths)';
      r.warning(ModelIssueCodes.DEAD_END, null, problem);
    } else {
      const problem =
        `The model has multiple cul-de-sacs, ${request} That will not work. The walk cannot leave ${named}, ` +
        'and can end in only one of them; give them a way out';
      r.error(ModelIssueCodes.DEAD_END, null, problem);
    }
    issues.push(...r.issues);
  });
  return issues;
}

function listed(graph: Graph, vertices: readonly number[]): string {
  const shown = vertices.slice(0, LISTED).map((v) => graph.describe(v)).join(', ');
  return vertices.length > LISTED ? `${shown} and ${vertices.length - LISTED} more` : shown;
}

/** `edge` or `vertex` when some generator of the string is blind and must reach 100 % of that coverage. */
function blindFullCoverage(text: string | undefined, registries: Registries): string | undefined {
  if (text === undefined) return undefined;
  let exprs;
  try {
    exprs = parseGenerators(text);
  } catch {
    return undefined;
  }
  for (const expr of exprs) {
    const generator = registries.generators.find(expr.name)?.name;
    if (generator === undefined || !BLIND.has(generator)) continue;
    const coverage = demandedCoverage(expr.condition, registries);
    if (coverage !== undefined) return coverage;
  }
  return undefined;
}

/** The full coverage a condition demands: its own, any operand's of an `and`, what every operand of an `or` demands. */
function demandedCoverage(condition: ConditionExpr, registries: Registries): string | undefined {
  if (condition.kind === 'call') {
    const kind = FULL_COVERAGE[registries.conditions.find(condition.name)?.name ?? ''];
    return kind !== undefined && Number(condition.argument) === 100 ? kind : undefined;
  }
  const demanded = condition.operands.map((operand) => demandedCoverage(operand, registries));
  if (condition.kind === 'all') return demanded.find((d) => d !== undefined);
  return demanded.every((d) => d !== undefined && d === demanded[0]) ? demanded[0] : undefined;
}
