/**
 * Element properties as GraphML data: a value of a key declared with `attr.type`. Strings, numbers and booleans
 * have a GraphML type; other JSON values (objects, lists, null) go to walker's data key instead.
 */
import { isXmlText } from './xml-text.js';

/** The `attr.type` a property value is written with, or undefined for a value GraphML has no type for. */
export function propertyType(value: unknown): 'string' | 'double' | 'boolean' | undefined {
  if (typeof value === 'string') return isXmlText(value) ? 'string' : undefined;
  if (typeof value === 'number') return Number.isFinite(value) ? 'double' : undefined;
  if (typeof value === 'boolean') return 'boolean';
  return undefined;
}

/**
 * The value of a data element as its key's `attr.type` says; trimmed text, as GraphWalker reads it, for
 * `string` and for text that is not of the declared type.
 */
export function decodeProperty(text: string, attrType: string | undefined): unknown {
  const trimmed = text.trim();
  switch (attrType) {
    case 'boolean':
      if (/^true$/i.test(trimmed)) return true;
      if (/^false$/i.test(trimmed)) return false;
      return trimmed;
    case 'int':
    case 'long':
    case 'float':
    case 'double': {
      const number = trimmed === '' ? Number.NaN : Number(trimmed);
      return Number.isFinite(number) ? number : trimmed;
    }
    default:
      return trimmed;
  }
}

/** What a reader makes of the value once written, or undefined when it is not written as GraphML data. */
export function propertyView(value: unknown): unknown {
  const type = propertyType(value);
  if (type === undefined) return undefined;
  return decodeProperty(String(value), type);
}
