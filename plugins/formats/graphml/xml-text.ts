/**
 * Text in an XML document as the writer puts it there: escaped so that a parser gives back exactly the same
 * characters. A parser turns a line break `\r\n` into `\n` and, in an attribute, a tab or line break into a
 * space; character references survive both, so those characters are written as references.
 */

// Outside XML 1.0's Char production: what a document cannot hold at all, escaped or not.
const NOT_XML_CHAR = /[^\t\n\r\u0020-\uD7FF\uE000-\uFFFD\u{10000}-\u{10FFFF}]/u;

/** True when an XML 1.0 document can hold the text. */
export function isXmlText(text: string): boolean {
  return !NOT_XML_CHAR.test(text);
}

/** The first character of the text that no XML 1.0 document can hold, as `U+0001`; undefined when there is none. */
export function firstNonXmlCharacter(text: string): string | undefined {
  const found = NOT_XML_CHAR.exec(text)?.[0];
  return found === undefined ? undefined : `U+${(found.codePointAt(0) as number).toString(16).toUpperCase().padStart(4, '0')}`;
}

const TEXT_ESCAPES: Readonly<Record<string, string>> = { '&': '&amp;', '<': '&lt;', '>': '&gt;', '\r': '&#13;' };
const ATTRIBUTE_ESCAPES: Readonly<Record<string, string>> = {
  ...TEXT_ESCAPES,
  '"': '&quot;',
  '\t': '&#9;',
  '\n': '&#10;',
};

/** Character data: `&`, `<`, `>` and carriage returns escaped. */
export function escapeText(text: string): string {
  return text.replace(/[&<>\r]/g, (c) => TEXT_ESCAPES[c]);
}

/** An attribute value in double quotes. */
export function escapeAttribute(text: string): string {
  return text.replace(/[&<>"\r\n\t]/g, (c) => ATTRIBUTE_ESCAPES[c]);
}
