/**
 * Names in labels. GraphWalker's label grammar has no quoting: a name is an identifier, dotted or several joined
 * by `;`, and any other text where a name stands is read as another part of the label. Written as it is, an edge
 * named `e_Logout [false]` reads back as the name `e_Logout` and the guard `false`, and a vertex named
 * `v_Home SHARED: HOME` as a shared state. So a name is written in a label only when the grammar reads it back
 * as that name and nothing else; otherwise the label shows a safe form of it, one identifier, and the writer
 * keeps the name itself elsewhere (walker's data key in GraphML).
 */
import { IDENTIFIER_PART, IDENTIFIER_START, isLabelKeyword, LabelSyntaxError } from './label-lexer.js';
import { parseEdgeLabel } from './label-parser.js';

// GraphWalker's lexer takes no character from U+0080 to U+00FF into an identifier (its Letter rule allows
// only [a-zA-Z$_] below U+0100), so `café` is a name to walker's reader and a syntax error to GraphWalker's.
const LATIN_1 = /[\u0080-\u00FF]/;

/** False for text that GraphWalker's lexer cannot take as identifiers, whatever walker's reader makes of it. */
export function graphwalkerLexes(identifiers: string): boolean {
  return !LATIN_1.test(identifiers);
}

// Most names: one identifier of ASCII letters, digits, `_` and `$`, which the grammar reads as a name unless it
// is a keyword; no need to parse them.
const PLAIN_NAME = /^[A-Za-z_$][A-Za-z0-9_$]*$/;

/** True when a label holding only `name` reads back, for walker and for GraphWalker, as exactly that name. */
export function isLabelName(name: string): boolean {
  if (PLAIN_NAME.test(name)) return !isLabelKeyword(name);
  if (name === '' || !graphwalkerLexes(name)) return false;
  try {
    const parsed = parseEdgeLabel(name);
    return parsed.name === name && Object.keys(parsed).length === 1;
  } catch (error) {
    if (error instanceof LabelSyntaxError) return false;
    throw error;
  }
}

/**
 * What a label shows for a name: the name, when the grammar reads it back as itself; else one identifier made
 * of its letters and digits, every other run of characters an `_` (`e_Logout [false]` shows `e_Logout_false_`),
 * and '' for the empty name.
 */
export function labelNameOf(name: string): string {
  if (name === '' || isLabelName(name)) return name;
  let safe = '';
  let replacing = false;
  for (const c of name) {
    // The characters an identifier may hold, but none that GraphWalker's lexer refuses.
    const kept = IDENTIFIER_PART.test(c) && graphwalkerLexes(c);
    if (kept || !replacing) safe += kept ? c : '_';
    replacing = !kept;
  }
  if (!IDENTIFIER_START.test(String.fromCodePoint(safe.codePointAt(0) as number))) safe = `_${safe}`;
  // BLOCKED, Start, weight, ... are keywords, never names.
  return isLabelKeyword(safe) ? `${safe}_` : safe;
}
