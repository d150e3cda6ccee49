import { describe, expect, it } from 'vitest';
import { ExecutionSession } from '../../../core/session.js';
import { Walker } from '../../../core/walker.js';
import { builtinPlugins } from '../../../plugins/index.js';
import { loop } from '../../server/models.js';

/**
 * A script's string search runs where the time limit reaches it once it is large (plugins/quickjs/string-search.ts):
 * the answers are the built-ins' (computed here by Node's), and a search that would be quadratic is stopped.
 */

async function walk(timeoutMs = 60_000): Promise<ExecutionSession> {
  const walker = await Walker.create(builtinPlugins({ scriptLimits: { timeoutMs, budgetMs: 120_000 } }));
  const session = new ExecutionSession(walker, {});
  await walker.reserved((reservation) => session.load(JSON.stringify(loop('random(never)', 1)), {}, reservation));
  return session;
}

/** What `expression` evaluates to in the sandbox, through JSON. */
function evaluate(session: ExecutionSession, expression: string): unknown {
  session.setData(`r = JSON.stringify(${expression});`);
  return JSON.parse(new Map(session.variables()).get('r') as string);
}

describe('the string search of scripts', () => {
  it('answers what the built-ins answer when the search is large', async () => {
    const session = await walk();
    // A 100-character pattern in 200,000 characters: 2e7 comparisons at worst, past the bound.
    const pattern = `${'ab'.repeat(49)}c$`;
    const text = `${'ab'.repeat(60_000)}${pattern}-${'x'.repeat(40_000)}${pattern}${'ab'.repeat(100)}`;
    session.setData(`t = ${JSON.stringify(text)}; p = ${JSON.stringify(pattern)};`);
    const cases: Array<[string, unknown]> = [
      ['t.indexOf(p)', text.indexOf(pattern)],
      ['t.indexOf(p, 120100)', text.indexOf(pattern, 120_100)],
      ['t.indexOf(p, -5)', text.indexOf(pattern, -5)],
      ['t.indexOf(p + "zz")', -1],
      ['t.lastIndexOf(p)', text.lastIndexOf(pattern)],
      ['t.lastIndexOf(p, 160000)', text.lastIndexOf(pattern, 160_000)],
      ['t.lastIndexOf(p, 120000)', text.lastIndexOf(pattern, 120_000)],
      ['t.lastIndexOf(p, -5)', text.lastIndexOf(pattern, -5)],
      ['t.lastIndexOf(p, NaN)', text.lastIndexOf(pattern, Number.NaN)],
      ['t.lastIndexOf(p, Infinity)', text.lastIndexOf(pattern, Number.POSITIVE_INFINITY)],
      ['t.lastIndexOf(p + "zz")', -1],
      ['t.lastIndexOf("ab".repeat(40), 1000.7)', text.lastIndexOf('ab'.repeat(40), 1000.7)],
      ['t.includes(p, 160000)', text.includes(pattern, 160_000)],
      ['t.includes({ toString: function () { return p; } })', true],
      ['t.split(p)', text.split(pattern)],
      ['t.split(p, 1)', text.split(pattern, 1)],
      ['t.split(p, 0)', []],
      ['t.replace(p, "[$&|$$|$1]")', text.replace(pattern, '[$&|$$|$1]')],
      ["t.replace(p, \"$`\").length", text.replace(pattern, '$`').length],
      ["t.replace(p, \"$'\").length", text.replace(pattern, "$'").length],
      ['t.replace(p, function (m, at, s) { return at + ":" + m.length + ":" + s.length; })', text.replace(pattern, (m, at: number, s: string) => `${at}:${m.length}:${s.length}`)],
      ['t.replaceAll(p, "#")', text.replaceAll(pattern, '#')],
      ['t.replaceAll(p + "q", "#") === t', true],
    ];
    for (const [expression, expected] of cases) expect(evaluate(session, expression), expression).toEqual(expected);
    // A RegExp still goes to the built-in.
    expect(evaluate(session, 't.split(/c\\$-x+/).length')).toBe(text.split(/c\$-x+/).length);
    session.dispose();
  }, 120_000);

  it('stops a search the built-in would run in quadratic time, at the time limit', async () => {
    const session = await walk(200);
    // Naively 4e5 × 4e5 comparisons, which the built-in would run for hours with no check (README.md). The
    // linear search is not quick either: over a second for 8e5 characters on the 2-core machine, and still far
    // above the limit on a machine several times faster, so the limit, not the end of the search, stops it.
    expect(() => session.setData('t = "a".repeat(8e5); t.indexOf("a".repeat(4e5) + "b");')).toThrow('Script exceeded the time limit of 200 ms');
    expect(() => session.setData('t = "a".repeat(8e5); t.split("a".repeat(4e5) + "b");')).toThrow('Script exceeded the time limit of 200 ms');
    // QuickJS's lastIndexOf compares from the pattern's start at each place, so a pattern that fails at its end
    // is its worst case; from the right, the search fails at once everywhere, but a text of 8 million still
    // takes seconds.
    expect(() => session.setData('t = "a".repeat(8e6); t.lastIndexOf("a".repeat(99) + "b");')).toThrow('Script exceeded the time limit of 200 ms');
    session.dispose();
  }, 120_000);
});
