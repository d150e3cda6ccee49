/**
 * The scanner of yEd labels, after GraphWalker's YEdLabelLexer: the same tokens, matched the same way (the
 * longest match wins, a keyword over an identifier of the same length), so that a label means here what it
 * means to GraphWalker. `/* *\/` comments, and `//` comments after whitespace, are dropped like its skipped
 * tokens; everything else, whitespace included, is a token, because actions and requirement tags keep their
 * text as written.
 */

export type LabelTokenKind =
  | 'dot'
  | 'slash'
  | 'colon'
  | 'semicolon'
  | 'comma'
  | 'assign'
  | 'blocked'
  | 'shared'
  | 'init'
  | 'start'
  | 'reqtag'
  | 'weight'
  | 'dependency'
  | 'brackets'
  | 'identifier'
  | 'value'
  | 'whitespace'
  | 'other';

export interface LabelToken {
  readonly kind: LabelTokenKind;
  readonly text: string;
  /** 0-based offset in the label. */
  readonly offset: number;
}

/** A label that does not follow the grammar: where (0-based offset in the label) and what is wrong there. */
export class LabelSyntaxError extends Error {
  constructor(
    readonly offset: number,
    readonly problem: string,
  ) {
    super(problem);
  }
}

const PUNCTUATION: Readonly<Record<string, LabelTokenKind>> = {
  '.': 'dot',
  '/': 'slash',
  ':': 'colon',
  ';': 'semicolon',
  ',': 'comma',
  '=': 'assign',
};

/** Upper case only, as GraphWalker spells them. */
const EXACT_KEYWORDS: Readonly<Record<string, LabelTokenKind>> = {
  BLOCKED: 'blocked',
  SHARED: 'shared',
  INIT: 'init',
  REQTAG: 'reqtag',
};

/** In any letter case. */
const FOLDED_KEYWORDS: Readonly<Record<string, LabelTokenKind>> = {
  start: 'start',
  weight: 'weight',
  dependency: 'dependency',
};

// Java identifiers, as GraphWalker's lexer accepts them: letters, digits, `$` and `_`, and Unicode letters.
const START = String.raw`\p{L}\p{Nl}\p{Sc}\p{Pc}`;
const PART = String.raw`${START}\p{Nd}\p{Mn}\p{Mc}`;
const IDENTIFIER = new RegExp(`[${START}][${PART}]*`, 'uy');
/** One character that may start an identifier, and one that may continue it. */
export const IDENTIFIER_START = new RegExp(`^[${START}]$`, 'u');
export const IDENTIFIER_PART = new RegExp(`^[${PART}]$`, 'u');
const VALUE = /(?:0|[1-9][0-9]*)?\.[0-9]+|0|[1-9][0-9]*/y;
const WHITESPACE = /[ \t\r\n\f]+/y;
const LINE_COMMENT = /[ \t\r\n\f]+\/\/[^\r\n]*/y;

/** True when the text is one keyword of the label grammar, which can therefore never be a name. */
export function isLabelKeyword(text: string): boolean {
  return text in EXACT_KEYWORDS || text.toLowerCase() in FOLDED_KEYWORDS;
}

/** The tokens of a label; throws {@link LabelSyntaxError} only for a `[` that is never closed. */
export function scanLabel(label: string): LabelToken[] {
  const tokens: LabelToken[] = [];
  const comments = new CommentEnds(label);
  let at = 0;
  while (at < label.length) {
    const skipped = skipComment(label, at, comments);
    if (skipped > at) {
      at = skipped;
      continue;
    }
    const token = scanToken(label, at);
    tokens.push(token);
    at += token.text.length;
  }
  return tokens;
}

/**
 * Where the `*\/` after an offset is. Once a search found none, none lies after any later offset either: without
 * remembering that, a label of many unclosed `/*` searched to its end from each of them: quadratic time.
 */
class CommentEnds {
  private noneAfter = Infinity;

  constructor(private readonly label: string) {}

  after(at: number): number {
    if (at >= this.noneAfter) return -1;
    const end = this.label.indexOf('*/', at);
    if (end < 0) this.noneAfter = at;
    return end;
  }
}

/** Where scanning goes on after a comment that starts at `at`, or `at` when none does. */
function skipComment(label: string, at: number, comments: CommentEnds): number {
  if (label.startsWith('/*', at)) {
    const end = comments.after(at + 2);
    // An unclosed `/*` is no comment: its characters are tokens, as for GraphWalker.
    if (end >= 0) return end + 2;
  }
  return at + (matchAt(LINE_COMMENT, label, at)?.length ?? 0);
}

function scanToken(label: string, at: number): LabelToken {
  const c = label[at];
  const punctuation = PUNCTUATION[c];
  if (punctuation !== undefined) {
    // `.5` is a number, not a dot.
    const number = c === '.' ? matchAt(VALUE, label, at) : undefined;
    return number ? { kind: 'value', text: number, offset: at } : { kind: punctuation, text: c, offset: at };
  }
  if (c === '[') return { kind: 'brackets', text: label.slice(at, closingBracket(label, at) + 1), offset: at };
  const whitespace = matchAt(WHITESPACE, label, at);
  if (whitespace) return { kind: 'whitespace', text: whitespace, offset: at };
  const word = matchAt(IDENTIFIER, label, at);
  if (word) return { kind: EXACT_KEYWORDS[word] ?? FOLDED_KEYWORDS[word.toLowerCase()] ?? 'identifier', text: word, offset: at };
  const value = matchAt(VALUE, label, at);
  if (value) return { kind: 'value', text: value, offset: at };
  const codePoint = label.codePointAt(at) ?? 0;
  return { kind: 'other', text: String.fromCodePoint(codePoint), offset: at };
}

/** The offset of the `]` that closes the `[` at `open`, counting nested pairs. */
function closingBracket(label: string, open: number): number {
  let depth = 0;
  for (let at = open; at < label.length; at++) {
    if (label[at] === '[') depth++;
    else if (label[at] === ']' && --depth === 0) return at;
  }
  throw new LabelSyntaxError(open, "the '[' that opens a guard is never closed by ']'");
}

function matchAt(pattern: RegExp, text: string, at: number): string | undefined {
  pattern.lastIndex = at;
  return pattern.exec(text)?.[0];
}
