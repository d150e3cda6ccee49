/**
 * The scanner of the generator language. It is driven by the parser rather than run ahead of it, because an
 * argument (`v.X`, `100%`, `'a name'`) is spelled with characters that mean nothing elsewhere: the parser asks
 * for an argument exactly where one may stand, and for an ordinary token everywhere else.
 */
import { GeneratorSyntaxError } from '../errors.js';

/** The kinds of token outside argument position; `other` is a character of the language that starts no token. */
export type TokenKind = 'name' | 'and' | 'or' | 'open' | 'close' | 'end' | 'other';

/** One token: its text as written and its 1-based column; `end` stands one past the last character. */
export interface Token {
  readonly kind: TokenKind;
  readonly text: string;
  readonly column: number;
  /** 0-based offset just after the token, where scanning continues. */
  readonly end: number;
}

/** An argument with quotes and `%` removed and escapes resolved; `column` is where it starts as written. */
export interface ArgumentToken {
  readonly value: string;
  readonly column: number;
}

// Sticky expressions match exactly at lastIndex and leave it at the match's end, which lets the scanner find a
// run without slicing first or making a match object.
const WHITESPACE = /[ \t\r\n\f]*/y;
const NAME = /[A-Za-z_][A-Za-z0-9_-]*/y;
const BARE_ARGUMENT = /[A-Za-z0-9_.:$-]+/y;
const WHOLE_BARE_ARGUMENT = /^[A-Za-z0-9_.:$-]+$/;
const NUMBER = /^[0-9]+$/;
const KEYWORD = /^(?:and|or)$/i;
// Characters the language uses somewhere; any other character is reported as itself, wherever it stands.
const LANGUAGE_CHARACTER = /^[0-9.:$%'"-]$/;
const PRINTABLE = /^[\p{L}\p{N}\p{P}\p{S}]$/u;

/** True when an argument can be written without quotes. */
export function isBareArgument(text: string): boolean {
  return WHOLE_BARE_ARGUMENT.test(text);
}

/** True for `and` / `or` in any letter case: operators, so never names. */
export function isKeyword(text: string): boolean {
  return KEYWORD.test(text);
}

/** Reads tokens from one generator string on the parser's demand. */
export class Scanner {
  private offset = 0;
  private peeked: Token | undefined;

  constructor(readonly input: string) {}

  /** The next ordinary token, without consuming it. */
  peek(): Token {
    this.peeked ??= this.scan(this.skipWhitespace(this.offset));
    return this.peeked;
  }

  /** The next ordinary token, consumed. */
  take(): Token {
    const token = this.peek();
    this.offset = token.end;
    this.peeked = undefined;
    return token;
  }

  /** An argument if one starts here (consumed), else undefined and nothing consumed. */
  readArgument(): ArgumentToken | undefined {
    this.peeked = undefined;
    const start = this.skipWhitespace(this.offset);
    const first = this.input[start];
    if (first === '"' || first === "'") return this.quoted(start, first);
    const end = endOfMatch(BARE_ARGUMENT, this.input, start);
    if (end === undefined) return undefined;
    const bare = this.input.slice(start, end);
    this.offset = end;
    // GraphWalker accepts `edge_coverage(100%)`; the sign adds nothing to the number.
    if (this.input[end] === '%' && NUMBER.test(bare)) this.offset++;
    return { value: bare, column: start + 1 };
  }

  /** A syntax error at a 0-based offset of the input. */
  errorAt(offset: number, problem: string): GeneratorSyntaxError {
    return new GeneratorSyntaxError(this.input, offset + 1, problem);
  }

  private skipWhitespace(from: number): number {
    return endOfMatch(WHITESPACE, this.input, from) ?? from;
  }

  private scan(start: number): Token {
    const first = this.input[start];
    if (first === undefined) return token('end', '', start, start);
    if (first === '(') return token('open', first, start, start + 1);
    if (first === ')') return token('close', first, start, start + 1);
    if (first === '&' || first === '|') return this.symbolicOperator(start, first);
    const end = endOfMatch(NAME, this.input, start);
    if (end !== undefined) {
      const name = this.input.slice(start, end);
      return token(isKeyword(name) ? keywordKind(name) : 'name', name, start, end);
    }
    if (LANGUAGE_CHARACTER.test(first)) return token('other', first, start, start + 1);
    throw this.errorAt(start, `unexpected character ${describeCharacter(this.input, start)}`);
  }

  private symbolicOperator(start: number, first: '&' | '|'): Token {
    if (this.input[start + 1] !== first) {
      const word = first === '&' ? 'and' : 'or';
      throw this.errorAt(start, `expected '${first}${first}' or '${word}', not a single '${first}'`);
    }
    return token(first === '&' ? 'and' : 'or', first + first, start, start + 2);
  }

  /**
   * A quoted argument: found by a scan that allocates nothing, then its escapes resolved in one copy. A
   * string part per escape made the collector's work grow faster than the input once the parts outgrew the
   * young generation (docs/benchmarks.md, "The generator language's quoted arguments").
   */
  private quoted(start: number, quote: string): ArgumentToken {
    const { input } = this;
    const quoteCode = quote.charCodeAt(0);
    let escaped = false;
    for (let at = start + 1; at < input.length; at++) {
      const c = input.charCodeAt(at);
      if (c === quoteCode) {
        const body = input.slice(start + 1, at);
        this.offset = at + 1;
        // A backslash takes the next character literally, whatever it is: \" \' \\ and no other meanings.
        return { value: escaped ? unescaped(body) : body, column: start + 1 };
      }
      if (c === BACKSLASH) {
        escaped = true;
        at++;
      }
    }
    throw this.errorAt(input.length, 'expected the quoted string to be closed');
  }
}

const BACKSLASH = 0x5c;
/** Code units per String.fromCharCode call: well under any engine's limit on arguments. */
const CHUNK = 4096;

/**
 * A quoted body with each backslash dropped and the character after it kept. Copied as code units: past some
 * thousands of escapes in one string, each character of a global regular-expression replace cost several times
 * as much (docs/benchmarks.md, "The generator language's quoted arguments").
 */
function unescaped(body: string): string {
  const codes = new Uint16Array(body.length);
  let length = 0;
  for (let at = 0; at < body.length; at++) {
    const c = body.charCodeAt(at);
    codes[length++] = c === BACKSLASH ? body.charCodeAt(++at) : c;
  }
  let text = '';
  for (let from = 0; from < length; from += CHUNK) text += String.fromCharCode(...codes.subarray(from, Math.min(from + CHUNK, length)));
  return text;
}

function token(kind: TokenKind, text: string, start: number, end: number): Token {
  return { kind, text, column: start + 1, end };
}

function keywordKind(word: string): 'and' | 'or' {
  return word.toLowerCase() === 'and' ? 'and' : 'or';
}

/** Where a sticky pattern's match at `at` ends; undefined when it does not match there. No match object is made. */
function endOfMatch(pattern: RegExp, text: string, at: number): number | undefined {
  pattern.lastIndex = at;
  return pattern.test(text) ? pattern.lastIndex : undefined;
}

/** A character as a user can recognise it: itself in quotes, or its code point when it is invisible. */
function describeCharacter(text: string, at: number): string {
  const codePoint = text.codePointAt(at) ?? 0;
  const character = String.fromCodePoint(codePoint);
  if (PRINTABLE.test(character)) return `'${character}'`;
  return `U+${codePoint.toString(16).toUpperCase().padStart(4, '0')}`;
}
