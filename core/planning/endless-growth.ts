import type { Graph } from '../model/graph.js';

/**
 * When the load's exploration may stop early because the walk's states grow without end (docs/planning.md,
 * "The bound"): a number in the variables has grown past twice every number the model's scripts name. Past
 * there no threshold the scripts write (`steps >= 4`, `n < 9998`) is still ahead of it, so the states it keeps
 * finding differ by a counter that goes on, not by a way still to open: exploring on to the bound would only
 * delay the first move, and planning on the fly from there does as well. A model whose counters stop at a
 * number its scripts name (`Math.min(n + 1, 6)`, a limit set by the model actions) is explored to its bound
 * as before. A count, not the clock: the same on every machine.
 *
 * Undefined when the scripts hold no number at all to compare with (no counter to grow).
 */
export function endlessGrowth(graph: Graph): ((variables: string) => boolean) | undefined {
  let ceiling = -1;
  const scan = (script: string) => {
    for (const found of withoutStrings(script).matchAll(NUMBER)) ceiling = Math.max(ceiling, Math.abs(Number(found[0])));
  };
  for (let e = 0; e < graph.size; e++) {
    const guard = graph.guard[e];
    if (guard !== undefined) scan(guard);
    for (const action of graph.actions[e]) scan(action);
  }
  for (const model of graph.models) for (const action of model.actions) scan(action);
  if (!Number.isFinite(ceiling)) return undefined;
  const beyond = 2 * Math.max(ceiling, 1);
  return (variables) => {
    for (const found of withoutStrings(variables).matchAll(NUMBER)) if (Math.abs(Number(found[0])) > beyond) return true;
    return false;
  };
}

/** Decimal, hexadecimal, octal and binary literals, and exponents; not the digits of a name such as `x2`. */
const NUMBER = /(?<![\w$.])(?:0[xX][\da-fA-F]+|0[oO][0-7]+|0[bB][01]+|(?:\d+\.?\d*|\.\d+)(?:[eE][+-]?\d+)?)/g;

/** The text without its string literals, whose digits are no numbers. */
function withoutStrings(text: string): string {
  return text.replace(/"(?:[^"\\]|\\.)*"|'(?:[^'\\]|\\.)*'|`(?:[^`\\]|\\.)*`/g, '""');
}
