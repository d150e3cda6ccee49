import { createScanner, ParseErrorCode, ScanError, SyntaxKind, visit, type JSONVisitor } from 'jsonc-parser';
import { shorten } from '../text.js';

/**
 * The lenient parts of reading model JSON, and the first syntax error in words someone editing the file
 * understands, both on jsonc-parser. They run only after `JSON.parse` has failed, so none of it is on the path
 * of a well-formed file.
 */

/**
 * The text with `//` and `/* *\/` comments replaced by spaces (line breaks kept, so that positions in the
 * result are positions in the input), or undefined when a block comment is not closed: jsonc-parser's own
 * `stripComments` would blank that one too, and the file would load although its end is missing.
 */
export function blankComments(text: string): string | undefined {
  // Two searches for plain characters cost a fraction of a scan, which a broken file without comments skips.
  if (!text.includes('//') && !text.includes('/*')) return text;
  const scanner = createScanner(text, false);
  const parts: string[] = [];
  let copied = 0;
  for (let kind = scanner.scan(); kind !== SyntaxKind.EOF; kind = scanner.scan()) {
    if (kind !== SyntaxKind.LineCommentTrivia && kind !== SyntaxKind.BlockCommentTrivia) continue;
    if (scanner.getTokenError() === ScanError.UnexpectedEndOfComment) return undefined;
    const start = scanner.getTokenOffset();
    const end = start + scanner.getTokenLength();
    parts.push(text.slice(copied, start), text.slice(start, end).replace(/[^\r\n]/g, ' '));
    copied = end;
  }
  if (parts.length === 0) return text;
  parts.push(text.slice(copied));
  return parts.join('');
}

/** Where a JSON text goes wrong: 1-based line and column (UTF-16 code units) and what is wrong there. */
export interface JsonSyntaxProblem {
  line: number;
  column: number;
  problem: string;
}

/**
 * How deep arrays and objects may nest before the search stops. jsonc-parser recurses once per level and would
 * overflow the call stack a few thousand levels down; a model file needs five or six.
 */
export const MAX_JSON_NESTING = 1000;

/**
 * Finds the first syntax error of a JSON text in which `//` and `/* *\/` comments count as white space and a
 * trailing comma is an error, or undefined when there is none.
 */
export function findJsonSyntaxError(text: string): JsonSyntaxProblem | undefined {
  const search = new FirstError(text);
  try {
    visit(text, search.visitor(), { allowTrailingComma: false, disallowComments: false });
  } catch (stop) {
    if (stop !== STOP) throw stop;
  }
  return search.problem;
}

const STOP = Symbol('first syntax error found');
const OBJECT = 1;
const ARRAY = 2;

/** The last token that shapes what may come next; a finished value or a closed container is `value`. */
type Last = 'none' | '{' | '[' | ',' | ':' | 'name' | 'value';
/** What may stand next: a property name, a value, ':', ',' or the container's end, or nothing (after the root). */
type Expecting = 'key' | 'value' | 'colon' | 'comma' | 'end';

/** Follows the tokens jsonc-parser reports, to know at the first error what the text should have had there. */
class FirstError {
  problem: JsonSyntaxProblem | undefined;
  private readonly containers: number[] = [];
  private last: Last = 'none';

  constructor(private readonly text: string) {}

  visitor(): JSONVisitor {
    return {
      onObjectBegin: (_offset: number, _length: number, line: number, character: number) =>
        this.open(OBJECT, line, character),
      onArrayBegin: (_offset: number, _length: number, line: number, character: number) =>
        this.open(ARRAY, line, character),
      // jsonc-parser also ends a container at the end of the text or at a stray token, before reporting it.
      onObjectEnd: (offset: number) => this.close(offset, '}'),
      onArrayEnd: (offset: number) => this.close(offset, ']'),
      onObjectProperty: () => {
        this.last = 'name';
      },
      onSeparator: (separator: string) => {
        this.last = separator === ',' ? ',' : ':';
      },
      onLiteralValue: () => {
        this.last = 'value';
      },
      onError: (code: ParseErrorCode, offset: number, length: number, line: number, character: number) => {
        const { at, problem } = this.describe(code, offset, length);
        this.stop(line, character + at - offset, problem);
      },
    };
  }

  private open(kind: number, line: number, character: number): void {
    if (this.containers.length === MAX_JSON_NESTING) {
      this.stop(line, character, `arrays and objects nest more than ${MAX_JSON_NESTING} deep here; a model file needs a few levels`);
    }
    this.containers.push(kind);
    this.last = kind === OBJECT ? '{' : '[';
  }

  private close(offset: number, bracket: string): void {
    if (this.text[offset] !== bracket) return;
    this.containers.pop();
    this.last = 'value';
  }

  private stop(line: number, character: number, problem: string): never {
    this.problem = { line: line + 1, column: character + 1, problem };
    throw STOP;
  }

  /** The error at the token `offset`/`length`, and where exactly it is (inside a string, the bad character). */
  private describe(code: ParseErrorCode, offset: number, length: number): { at: number; problem: string } {
    const token = this.text.slice(offset, offset + length);
    const expecting = this.expecting();
    // A broken string or number where none may stand is first of all in the wrong place.
    const inPlace = expecting === 'value' || (expecting === 'key' && token.startsWith('"'));
    const scanned = scanProblem(code, token, this.text[offset + length], inPlace);
    if (scanned !== undefined) return { at: offset + scanned.index, problem: scanned.problem };
    if (offset >= this.text.length) return { at: offset, problem: this.ending(expecting) };
    return { at: offset, problem: this.unexpected(expecting, token) };
  }

  /** What may come next, from the last token and the innermost open container. */
  private expecting(): Expecting {
    const top = this.containers[this.containers.length - 1];
    if (this.last === 'name') return 'colon';
    if (this.last === 'value') return top === undefined ? 'end' : 'comma';
    return top === OBJECT && (this.last === '{' || this.last === ',') ? 'key' : 'value';
  }

  private ending(expecting: Expecting): string {
    if (this.last === 'none') return 'the text is empty; expected a JSON object';
    const close = this.containers[this.containers.length - 1] === OBJECT ? '}' : ']';
    const wanted: Record<Expecting, string> = {
      key: this.last === '{' ? "a property name or '}'" : 'a property name',
      value: this.last === '[' ? "a value or ']'" : 'a value',
      colon: "':'",
      comma: `',' or '${close}'`,
      end: 'nothing more',
    };
    return `the text ends early, expected ${wanted[expecting]}`;
  }

  /** A token that may not stand where it stands. */
  private unexpected(expecting: Expecting, token: string): string {
    const found = quoted(token);
    const inObject = this.containers[this.containers.length - 1] === OBJECT;
    if (this.last === ',' && token === (inObject ? '}' : ']')) return `a comma cannot come right before '${token}'; remove it`;
    switch (expecting) {
      case 'end':
        return `unexpected ${found} after the end of the JSON value`;
      case 'colon':
        return `expected ':' after a property name, found ${found}`;
      case 'key':
        return `expected a property name in double quotes, found ${found}`;
      case 'comma':
        return inObject
          ? `expected ',' or '}' after a property value, found ${found}`
          : `expected ',' or ']' after an array item, found ${found}`;
      default:
        if (/^[-\d]/.test(token)) return `expected a number, found ${found}`;
        return `expected a value (object, array, string, number, true, false or null), found ${found}`;
    }
  }
}

/** A valid escape, or (group 1) the first thing a JSON string may not hold. */
// eslint-disable-next-line no-control-regex -- JSON forbids the raw control characters in a string
const STRING_PART = /\\(?:["\\/bfnrt]|u[0-9a-fA-F]{4})|(\\[^]|[\u0000-\u001f])/g;

/**
 * The problems the scanner finds inside one token: strings, numbers, comments. jsonc-parser reports a string's
 * problems at its opening quote; the index given here is that of the offending character in the token.
 */
function scanProblem(
  code: ParseErrorCode,
  token: string,
  next: string | undefined,
  inPlace: boolean,
): { index: number; problem: string } | undefined {
  switch (code) {
    case ParseErrorCode.UnexpectedEndOfComment:
      return { index: 0, problem: 'a /* comment is not closed with */' };
    case ParseErrorCode.UnexpectedEndOfNumber:
    case ParseErrorCode.InvalidNumberFormat:
      return inPlace ? { index: 0, problem: `a number needs digits after '.' and 'e', found ${quoted(token)}` } : undefined;
    case ParseErrorCode.UnexpectedEndOfString:
    case ParseErrorCode.InvalidCharacter:
    case ParseErrorCode.InvalidEscapeCharacter:
    case ParseErrorCode.InvalidUnicode:
      return inPlace ? stringProblem(token, next) : undefined;
    default:
      return undefined;
  }
}

function stringProblem(token: string, next: string | undefined): { index: number; problem: string } {
  for (const part of token.matchAll(STRING_PART)) {
    const fault = part[1];
    if (fault === undefined) continue;
    if (fault.length === 1) return { index: part.index, problem: CONTROL_CHARACTER };
    return { index: part.index, problem: `invalid escape '${fault}' in a string` };
  }
  // The scanner ends a string at a line break; the break is the mistake, not a missing quote.
  if (next === '\n' || next === '\r') return { index: token.length, problem: CONTROL_CHARACTER };
  return { index: 0, problem: 'a string is not closed with a double quote' };
}

const CONTROL_CHARACTER = 'a line break or control character inside a string must be escaped (\\n)';

/** A token for a message, cut short when long. */
function quoted(token: string): string {
  return `'${shorten(token, 25)}'`;
}
