/**
 * The lenient parts of reading model JSON, and precise syntax-error positions. `JSON.parse` does the parsing;
 * this file only runs when it fails, so none of it is on the path of a well-formed file.
 */

const SLASH = 0x2f;
const STAR = 0x2a;
const QUOTE = 0x22;
const BACKSLASH = 0x5c;
const NEWLINE = 0x0a;
const RETURN = 0x0d;

/**
 * The text with `//` and `/* *\/` comments outside strings replaced by spaces (line breaks kept), so that
 * positions in the result are positions in the input.
 */
export function blankComments(text: string): string {
  let out = '';
  let copied = 0;
  for (let i = 0; i < text.length; i++) {
    const c = text.charCodeAt(i);
    if (c === QUOTE) i = stringEnd(text, i) - 1;
    else if (c === SLASH && (text.charCodeAt(i + 1) === SLASH || text.charCodeAt(i + 1) === STAR)) {
      const end = commentEnd(text, i);
      // An unclosed comment stays, so that parsing fails and the syntax check points at it.
      if (end === undefined) break;
      out += text.slice(copied, i) + text.slice(i, end).replace(/[^\r\n]/g, ' ');
      copied = end;
      i = end - 1;
    }
  }
  return copied === 0 ? text : out + text.slice(copied);
}

/** Index just after the comment that starts at `start`, or undefined for a block comment that is not closed. */
function commentEnd(text: string, start: number): number | undefined {
  if (text.charCodeAt(start + 1) === SLASH) {
    const end = text.indexOf('\n', start);
    return end < 0 ? text.length : end;
  }
  const end = text.indexOf('*/', start + 2);
  return end < 0 ? undefined : end + 2;
}

/** Index just after the string that starts at the quote at `start` (the text length when unclosed). */
function stringEnd(text: string, start: number): number {
  for (let i = start + 1; i < text.length; i++) {
    const c = text.charCodeAt(i);
    if (c === BACKSLASH) i++;
    else if (c === QUOTE || c === NEWLINE || c === RETURN) return i + 1;
  }
  return text.length;
}

/** Where a JSON text goes wrong: the 0-based offset and what was expected there. */
export interface JsonSyntaxProblem {
  offset: number;
  problem: string;
}

type Expect = 'value' | 'valueOrClose' | 'key' | 'keyOrClose' | 'colon' | 'commaOrClose' | 'end';

const OBJECT = 1;
const ARRAY = 2;
const LITERAL = /true|false|null/y;
const NUMBER = /-?(?:0|[1-9]\d*)(?:\.\d+)?(?:[eE][+-]?\d+)?/y;
const HEX4 = /[0-9a-fA-F]{4}/y;
const TOKEN = /"[^"\n]{0,20}"?|[^\s,:[\]{}"]{1,20}/y;
const ESCAPES = '"\\/bfnrt';
/** What a state expects, for messages at the end of the text. */
const WANTED: Record<Exclude<Expect, 'commaOrClose'>, string> = {
  value: 'a value',
  valueOrClose: "a value or ']'",
  key: 'a property name',
  keyOrClose: "a property name or '}'",
  colon: "':'",
  end: 'nothing more',
};

/**
 * Finds the first syntax error of a JSON text in which comments count as white space, or undefined when there
 * is none. A state machine with an explicit stack, so that deep nesting cannot overflow the call stack.
 */
export function findJsonSyntaxError(text: string): JsonSyntaxProblem | undefined {
  return new SyntaxScanner(text).run();
}

class SyntaxScanner {
  private pos = 0;
  private readonly stack: number[] = [];
  private problem: JsonSyntaxProblem | undefined;

  constructor(private readonly text: string) {}

  run(): JsonSyntaxProblem | undefined {
    let expect: Expect | undefined = 'value';
    while (expect !== undefined) {
      if (!this.skipSpace()) return this.problem;
      if (this.pos >= this.text.length) {
        if (expect !== 'end') this.fail(this.ending(expect));
        return this.problem;
      }
      expect = this.step(expect);
    }
    return this.problem;
  }

  /** Consumes one token; returns what may follow, or undefined after recording a problem. */
  private step(expect: Expect): Expect | undefined {
    const c = this.text[this.pos];
    const top = this.stack[this.stack.length - 1];
    if (expect === 'value' || expect === 'valueOrClose') {
      if (c === ']' && top === ARRAY) return expect === 'value' ? this.trailingComma(']') : this.close();
      return this.value(c);
    }
    if (expect === 'key' || expect === 'keyOrClose') {
      if (c === '}') return expect === 'key' ? this.trailingComma('}') : this.close();
      if (c === '"') return this.string() ? 'colon' : undefined;
      return this.fail(`expected a property name in double quotes, found ${this.found()}`);
    }
    if (expect === 'colon') {
      if (c === ':') return this.advance('value');
      return this.fail(`expected ':' after a property name, found ${this.found()}`);
    }
    if (expect === 'commaOrClose') {
      if (c === ',') return this.advance(top === OBJECT ? 'key' : 'value');
      if (c === (top === OBJECT ? '}' : ']')) return this.close();
      const after = top === OBJECT ? 'a property value' : 'an array item';
      return this.fail(`expected ${this.wanted(expect)} after ${after}, found ${this.found()}`);
    }
    return this.fail(`unexpected ${this.found()} after the end of the JSON value`);
  }

  private value(c: string): Expect | undefined {
    if (c === '{' || c === '[') {
      this.stack.push(c === '{' ? OBJECT : ARRAY);
      return this.advance(c === '{' ? 'keyOrClose' : 'valueOrClose');
    }
    if (c === '"') return this.string() ? this.afterValue() : undefined;
    const pattern = c === '-' || (c >= '0' && c <= '9') ? NUMBER : LITERAL;
    pattern.lastIndex = this.pos;
    if (pattern.test(this.text)) {
      this.pos = pattern.lastIndex;
      return this.afterValue();
    }
    if (pattern === NUMBER) return this.fail(`expected a number, found ${this.found()}`);
    return this.fail(`expected a value (object, array, string, number, true, false or null), found ${this.found()}`);
  }

  /** Scans the string at the current quote; false after recording a problem. */
  private string(): boolean {
    const text = this.text;
    for (let i = this.pos + 1; i < text.length; i++) {
      const c = text.charCodeAt(i);
      if (c === QUOTE) {
        this.pos = i + 1;
        return true;
      }
      if (c < 0x20) return this.rejectAt(i, 'a line break or control character inside a string must be escaped (\\n)');
      if (c !== BACKSLASH) continue;
      HEX4.lastIndex = i + 2;
      const escape = text[i + 1] ?? '';
      if (escape === 'u' ? !HEX4.test(text) : !ESCAPES.includes(escape) || escape === '') {
        return this.rejectAt(i, `invalid escape '\\${escape}' in a string`);
      }
      i += escape === 'u' ? 5 : 1;
    }
    return this.rejectAt(this.pos, 'a string is not closed with a double quote');
  }

  /** Skips white space and comments; false (with a problem) at an unclosed block comment. */
  private skipSpace(): boolean {
    const text = this.text;
    while (this.pos < text.length) {
      const c = text.charCodeAt(this.pos);
      if (c === 0x20 || c === 0x09 || c === NEWLINE || c === RETURN) this.pos++;
      else if (c === SLASH && (text.charCodeAt(this.pos + 1) === SLASH || text.charCodeAt(this.pos + 1) === STAR)) {
        const end = commentEnd(text, this.pos);
        if (end === undefined) return this.rejectAt(this.pos, 'a /* comment is not closed with */');
        this.pos = end;
      } else return true;
    }
    return true;
  }

  private afterValue(): Expect {
    return this.stack.length ? 'commaOrClose' : 'end';
  }

  private close(): Expect {
    this.stack.pop();
    this.pos++;
    return this.afterValue();
  }

  private advance(next: Expect): Expect {
    this.pos++;
    return next;
  }

  private trailingComma(close: string): undefined {
    return this.fail(`a comma cannot come right before '${close}'; remove it`);
  }

  /** The problem when the text ends while `expect` still waits for something. */
  private ending(expect: Expect): string {
    if (expect === 'value' && this.stack.length === 0) return 'the text is empty; expected a JSON object';
    return `the text ends early, expected ${this.wanted(expect)}`;
  }

  private wanted(expect: Expect): string {
    const top = this.stack[this.stack.length - 1];
    if (expect === 'commaOrClose') return top === OBJECT ? "',' or '}'" : "',' or ']'";
    return WANTED[expect];
  }

  /** The text at the current position, for messages: a short token, or one character. */
  private found(): string {
    if (this.pos >= this.text.length) return 'the end of the text';
    TOKEN.lastIndex = this.pos;
    const token = TOKEN.exec(this.text)?.[0] ?? this.text[this.pos];
    return `'${token}'`;
  }

  private fail(problem: string): undefined {
    return this.failAt(this.pos, problem);
  }

  private failAt(offset: number, problem: string): undefined {
    this.problem = { offset, problem };
    return undefined;
  }

  private rejectAt(offset: number, problem: string): false {
    this.problem = { offset, problem };
    return false;
  }
}

/** 1-based line and column of an offset; a column counts UTF-16 code units, as editors mostly do. */
export function lineAndColumn(text: string, offset: number): { line: number; column: number } {
  let line = 1;
  let lineStart = 0;
  for (let i = text.indexOf('\n'); i >= 0 && i < offset; i = text.indexOf('\n', i + 1)) {
    line++;
    lineStart = i + 1;
  }
  return { line, column: offset - lineStart + 1 };
}
