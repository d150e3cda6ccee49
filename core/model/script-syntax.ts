import { actionScriptsOf, type ScriptEngine, type ScriptKind, type ScriptSyntaxError } from '../scripting.js';
import type { Graph } from './graph.js';
import { IssueReporter, ModelIssueCodes, type ModelIssue } from './issue-reporter.js';

/**
 * Parses every model action, vertex and edge action and guard of a graph with the script engine, without
 * running any, and reports each one that does not parse: the model, the element, the field (`guard`,
 * `actions[i]`), the line and column within that script, and the engine's message. Load refuses such a file
 * (the walk would fail only when it reaches the script, naming nothing); `walker check` and draft validation
 * list them all. Each distinct script is parsed once, however many elements carry it.
 */
export function scriptSyntaxIssues(graph: Graph, engine: ScriptEngine): ModelIssue[] {
  const parsed = new Map<string, ScriptSyntaxError | null>();
  const check = (source: string, kind: ScriptKind): ScriptSyntaxError | null => {
    const key = `${kind === 'guard' ? 'g' : 'a'}${source}`;
    let found = parsed.get(key);
    if (found === undefined) parsed.set(key, (found = engine.checkSyntax(source, kind) ?? null));
    return found;
  };
  const issues: ModelIssue[] = [];
  for (const model of graph.models) {
    const r = new IssueReporter(model.id);
    model.actions.forEach((action, i) => report(r, `actions[${i}]`, 'model action', check(action, 'action')));
    for (const element of [...model.vertices, ...model.edges]) {
      const guard = graph.guard[element];
      const actions = graph.actions[element];
      if (guard === undefined && actions.length === 0) continue;
      r.at(graph.isVertex(element) ? 'vertex' : 'edge', graph.ids[element]);
      if (guard !== undefined) report(r, 'guard', 'guard', check(guard, 'guard'));
      reportActions(r, actionScriptsOf(engine, actions), actions, (script) => check(script, 'action'));
    }
    // One at a time: a model with a broken script on each of 200,000 elements overflowed push(...)'s arguments.
    for (const issue of r.issues) issues.push(issue);
  }
  return issues;
}

/**
 * Parses an element's actions as they run (`scripts`, as the engine groups them): joined, an error is
 * reported at the action its line falls in, with the line counted within that action.
 */
function reportActions(
  r: IssueReporter,
  scripts: readonly string[],
  actions: readonly string[],
  check: (script: string) => ScriptSyntaxError | null,
): void {
  if (scripts.length === actions.length) {
    actions.forEach((action, i) => report(r, `actions[${i}]`, 'action', check(action)));
    return;
  }
  const found = check(scripts[0]);
  if (found === null) return;
  let line = found.line;
  let i = 0;
  for (; i < actions.length - 1; i++) {
    const lines = actions[i].split('\n').length;
    if (line <= lines) break;
    line -= lines;
  }
  report(r, `actions[${i}]`, 'action', { ...found, line });
}

function report(r: IssueReporter, field: string, what: string, found: ScriptSyntaxError | null): void {
  if (found === null) return;
  const problem = `the ${what} does not parse, at line ${found.line}, column ${found.column}: ${found.message}`;
  r.error(ModelIssueCodes.SCRIPT_SYNTAX, field, problem);
}
