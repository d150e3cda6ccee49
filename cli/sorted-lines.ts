/**
 * Each distinct text once, one per line, in GraphWalker's order: Java's `String.compareTo`, which compares
 * UTF-16 code units, as JavaScript's default sort does (`Z` before `a`, `e10` before `e2`).
 */
export function sortedLines(texts: Iterable<string>): string {
  return [...new Set(texts)].sort().map((text) => `${text}\n`).join('');
}
