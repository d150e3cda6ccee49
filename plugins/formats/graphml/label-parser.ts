/**
 * The parser of yEd labels, after GraphWalker's YEdVertexParser and YEdEdgeParser: every field optional, each
 * at most once, in any order. Recursive descent over the tokens of label-lexer.ts; an action runs to its `;`
 * and a requirement tag to the next `,` or the end of the label, as in GraphWalker's grammar.
 *
 * Edge:   `name [guard] / action; action; weight=0.3 dependency=2 BLOCKED REQTAG: key1, key2`
 * Vertex: `name SHARED: state INIT: action; BLOCKED REQTAG: key`, or `Start` alone.
 */
import { shorten } from '../../../core/text.js';
import { LabelSyntaxError, scanLabel, type LabelToken, type LabelTokenKind } from './label-lexer.js';

export interface EdgeLabel {
  name?: string;
  guard?: string;
  actions?: string[];
  blocked?: true;
  requirements?: string[];
  weight?: number;
  dependency?: number;
}

export interface VertexLabel {
  /** The label is `Start`: the vertex marks the edge the walk starts on. */
  start?: true;
  name?: string;
  sharedState?: string;
  /** `INIT:` actions, which GraphWalker makes actions of the model. */
  init?: string[];
  blocked?: true;
  requirements?: string[];
}

/** Parses an edge label; throws {@link LabelSyntaxError} saying where and what is wrong. */
export function parseEdgeLabel(label: string): EdgeLabel {
  return new LabelParser(label, 'edge').edge();
}

/** Parses a vertex label; throws {@link LabelSyntaxError} saying where and what is wrong. */
export function parseVertexLabel(label: string): VertexLabel {
  return new LabelParser(label, 'vertex').vertex();
}

const EDGE_FIELDS = "a name, a [guard], '/' actions, weight=, dependency=, BLOCKED or REQTAG:";
const VERTEX_FIELDS = 'a name, SHARED:, INIT:, BLOCKED or REQTAG:';

class LabelParser {
  private readonly tokens: LabelToken[];
  private at = 0;
  private readonly seen = new Set<string>();

  constructor(
    private readonly label: string,
    private readonly kind: 'edge' | 'vertex',
  ) {
    this.tokens = scanLabel(label);
  }

  edge(): EdgeLabel {
    const out: EdgeLabel = {};
    for (let token = this.next(); token !== undefined; token = this.next()) {
      switch (token.kind) {
        case 'identifier':
          out.name = this.once('name', token, () => this.names());
          break;
        case 'brackets':
          out.guard = this.once('guard', token, () => this.take().text.slice(1, -1));
          break;
        case 'slash':
          out.actions = this.once('actions', token, () => this.actions(this.take()));
          break;
        case 'weight':
          out.weight = this.once('weight', token, () => this.number(false));
          break;
        case 'dependency':
          out.dependency = this.once('dependency', token, () => this.number(true));
          break;
        default:
          this.common(token, out);
      }
    }
    return out;
  }

  vertex(): VertexLabel {
    const first = this.next();
    if (first?.kind === 'start') {
      this.take();
      const extra = this.next();
      if (extra !== undefined) throw this.error(extra, `a Start vertex has nothing but 'Start' in its label, found ${describe(extra)}`);
      return { start: true };
    }
    const out: VertexLabel = {};
    for (let token = first; token !== undefined; token = this.next()) {
      switch (token.kind) {
        case 'identifier':
          out.name = this.once('name', token, () => this.names());
          break;
        case 'shared':
          out.sharedState = this.once('shared', token, () => this.sharedState());
          break;
        case 'init':
          out.init = this.once('init', token, () => this.init());
          break;
        default:
          this.common(token, out);
      }
    }
    return out;
  }

  /** The fields both kinds share: BLOCKED and REQTAG. */
  private common(token: LabelToken, out: EdgeLabel | VertexLabel): void {
    if (token.kind === 'blocked') {
      out.blocked = this.once('blocked', token, () => (this.take(), true as const));
    } else if (token.kind === 'reqtag') {
      out.requirements = this.once('reqtag', token, () => this.requirements());
    } else {
      const fields = this.kind === 'edge' ? EDGE_FIELDS : VERTEX_FIELDS;
      throw this.error(token, `expected ${fields}, found ${describe(token)}`);
    }
  }

  /** Reads a field that may appear once only. */
  private once<T>(field: string, token: LabelToken, read: () => T): T {
    if (this.seen.has(field)) throw this.error(token, `${describe(token)} starts a second ${FIELD_NAMES[field]}; a label has one at most`);
    this.seen.add(field);
    return read();
  }

  /** `a.b;c`: dotted identifiers joined by `;`, with no space in between. */
  private names(): string {
    let text = this.dotted();
    while (this.peekKind(0) === 'semicolon' && this.peekKind(1) === 'identifier') {
      this.take();
      text += `;${this.dotted()}`;
    }
    return text;
  }

  private dotted(): string {
    let text = this.take().text;
    while (this.peekKind(0) === 'dot') {
      this.take();
      if (this.peekKind(0) !== 'identifier') throw this.error(this.tokens[this.at], `expected a name after '.' in '${shorten(text, 40)}.'`);
      text += `.${this.take().text}`;
    }
    return text;
  }

  /** `SHARED: name` */
  private sharedState(): string {
    this.take();
    this.expect('colon', "':' after SHARED");
    const name = this.skipWhitespace();
    if (name?.kind !== 'identifier') throw this.error(name, "expected the name of the shared state after 'SHARED:'");
    return this.take().text;
  }

  /** `INIT: action; action;` */
  private init(): string[] {
    const init = this.take();
    this.expect('colon', "':' after INIT");
    this.skipWhitespace();
    return this.actions(init);
  }

  /**
   * `action; action;`: every action runs to its `;`, whitespace and all. After the first, a further action
   * starts only where no other field does, so that `/ x++; weight=0.5` keeps its weight.
   */
  private actions(opener: LabelToken): string[] {
    const actions: string[] = [];
    for (;;) {
      const end = this.indexOf('semicolon');
      if (end < 0 || end === this.at || (actions.length > 0 && this.startsField())) break;
      actions.push(this.textUpTo(end + 1));
    }
    if (actions.length === 0) {
      const where = this.tokens[this.at] ?? opener;
      throw this.error(where, `expected actions after '${opener.text}', each ending with ';'`);
    }
    return actions;
  }

  /** `REQTAG: a, b` or `REQTAG = a`: tags run to the next `,` or to the end of the label. */
  private requirements(): string[] {
    const reqtag = this.take();
    this.skipWhitespace();
    const separator = this.tokens[this.at];
    if (separator?.kind !== 'colon' && separator?.kind !== 'assign') {
      throw this.error(separator ?? reqtag, "expected ':' or '=' after REQTAG");
    }
    this.take();
    const tags: string[] = [];
    for (;;) {
      const start = this.tokens[this.at] ?? separator;
      const comma = this.indexOf('comma');
      const tag = this.textUpTo(comma < 0 ? this.tokens.length : comma).trim();
      if (tag === '') throw this.error(start, 'expected a requirement tag (REQTAG: tag1, tag2)');
      tags.push(tag);
      if (comma < 0) return tags;
      this.take();
    }
  }

  /** `weight = 0.5`, `dependency=80`. */
  private number(whole: boolean): number {
    const keyword = this.take();
    this.expect('assign', `'=' after ${keyword.text}`);
    const value = this.skipWhitespace();
    if (value?.kind !== 'value') throw this.error(value ?? keyword, `expected a number after '${keyword.text}='`);
    if (whole && value.text.includes('.')) throw this.error(value, `${keyword.text} is a whole number from 0 to 100, got ${value.text}`);
    this.take();
    return Number(value.text);
  }

  /** True when the tokens from here start another field than an action. */
  private startsField(): boolean {
    let i = this.at;
    while (this.tokens[i]?.kind === 'whitespace') i++;
    const token = this.tokens[i];
    if (token === undefined) return false;
    if (['blocked', 'reqtag', 'brackets', 'slash'].includes(token.kind)) return true;
    let j = i + 1;
    while (this.tokens[j]?.kind === 'whitespace') j++;
    const after = this.tokens[j]?.kind;
    if (token.kind === 'weight' || token.kind === 'dependency') return after === 'assign';
    return (token.kind === 'shared' || token.kind === 'init') && after === 'colon';
  }

  private expect(kind: LabelTokenKind, what: string): void {
    const token = this.skipWhitespace();
    if (token?.kind !== kind) throw this.error(token ?? this.tokens[this.at - 1], `expected ${what}`);
    this.take();
  }

  /** The next token that is not whitespace, consuming the whitespace before it. */
  private skipWhitespace(): LabelToken | undefined {
    while (this.tokens[this.at]?.kind === 'whitespace') this.at++;
    return this.tokens[this.at];
  }

  private next(): LabelToken | undefined {
    return this.skipWhitespace();
  }

  private take(): LabelToken {
    return this.tokens[this.at++];
  }

  private peekKind(ahead: number): LabelTokenKind | undefined {
    return this.tokens[this.at + ahead]?.kind;
  }

  private indexOf(kind: LabelTokenKind): number {
    for (let i = this.at; i < this.tokens.length; i++) if (this.tokens[i].kind === kind) return i;
    return -1;
  }

  /** The text of the tokens from here up to (not including) `end`, consumed; skipped comments are left out. */
  private textUpTo(end: number): string {
    let text = '';
    for (; this.at < end; this.at++) text += this.tokens[this.at].text;
    return text;
  }

  private error(token: LabelToken | undefined, problem: string): LabelSyntaxError {
    return new LabelSyntaxError(token?.offset ?? this.label.length, problem);
  }
}

const FIELD_NAMES: Readonly<Record<string, string>> = {
  name: 'name',
  guard: 'guard',
  actions: "list of actions ('/')",
  weight: 'weight',
  dependency: 'dependency',
  blocked: 'BLOCKED',
  reqtag: 'REQTAG',
  shared: 'SHARED',
  init: 'INIT',
};

function describe(token: LabelToken): string {
  if (token.kind === 'whitespace') return 'whitespace';
  return `'${shorten(token.text, 41)}'`;
}
