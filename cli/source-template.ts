/**
 * GraphWalker's `source` templates: `HEADER<{{ … }}>HEADER`, a body, `FOOTER<{{ … }}>FOOTER`. The header is
 * printed once, the body once per name with every `{LABEL}` replaced by it, the footer once, each followed by
 * a line break, as GraphWalker prints them. The markers are matched as GraphWalker's pattern matches them
 * (greedily: the header runs to the last `}}>HEADER`, the body to the last `FOOTER<{{`).
 */

const PARTS = /HEADER<\{\{([\s\S]+)\}\}>HEADER([\s\S]+)FOOTER<\{\{([\s\S]+)\}\}>FOOTER/;

/** A template's three parts. */
export interface SourceTemplate {
  readonly header: string;
  readonly body: string;
  readonly footer: string;
}

/**
 * Reads a template's text as GraphWalker reads it, line by line (so `\r\n` counts as `\n`, and the last line
 * ends with one). Undefined when the markers are missing, which GraphWalker would expand to blank lines.
 */
export function parseSourceTemplate(text: string): SourceTemplate | undefined {
  const lines = text.split(/\r\n|\r|\n/);
  if (lines[lines.length - 1] === '') lines.pop();
  const match = PARTS.exec(lines.map((line) => `${line}\n`).join(''));
  return match === null ? undefined : { header: match[1], body: match[2], footer: match[3] };
}

/** The text a template makes of one model's element names: each name once, sorted as Java sorts strings. */
export function expandSourceTemplate(template: SourceTemplate, names: Iterable<string>): string {
  // The name goes in as it is: `$` in a name is no group reference (Java's replaceAll would read one).
  const bodies = [...new Set(names)].sort().map((name) => `${template.body.split('{LABEL}').join(name)}\n`);
  return `${template.header}\n${bodies.join('')}${template.footer}\n`;
}
