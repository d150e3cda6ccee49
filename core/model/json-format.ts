import type { ModelFormat } from '../format.js';
import { parseModelText } from './load.js';
import type { ModelFileJson } from './types.js';

/**
 * GraphWalker's JSON model file, core's own format. Reading is lenient as GraphWalker's (comments, a byte-order
 * mark; see `parseModelText`); writing gives the normalised file, indented, as `walker convert` prints it.
 */
export const jsonFormat: ModelFormat = {
  name: 'json',
  extensions: ['.json'],
  mediaType: 'application/json',
  // An object or a list, possibly after a byte-order mark, whitespace or a comment.
  detect: (text) => /^\uFEFF?\s*[{[/]/.test(text),
  read: (text, source) => parseModelText(text, source.path) as ModelFileJson,
  write: (file) => `${JSON.stringify(file, null, 2)}\n`,
};
