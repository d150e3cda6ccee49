import { ErrorCodes, ModelError } from '../../../core/errors.js';
import type { ModelFormat } from '../../../core/format.js';
import { modelFileFromDocument } from './read-models.js';
import { GraphmlSyntaxError, readGraphmlDocument } from './xml-reader.js';
import { writeGraphml } from './write-document.js';

/**
 * yEd's GraphML, as GraphWalker reads it (labels in GraphWalker's label grammar, the Start vertex, INIT:,
 * SHARED:, custom properties) and as yEd opens it. See docs/formats.md.
 */
export const graphmlFormat: ModelFormat = {
  name: 'graphml',
  aliases: ['yed'],
  extensions: ['.graphml'],
  mediaType: 'application/graphml+xml',
  // Markup, possibly after a byte-order mark and whitespace: a broken XML document is reported as such.
  detect: (text) => /^\uFEFF?\s*</.test(text),
  read(text, source) {
    let document;
    try {
      document = readGraphmlDocument(text);
    } catch (error) {
      if (!(error instanceof GraphmlSyntaxError)) throw error;
      const location = source.path === undefined ? {} : { source: source.path };
      throw new ModelError(`The GraphML document cannot be read: ${error.message}`, location, ErrorCodes.MODEL_SYNTAX);
    }
    return modelFileFromDocument(document, source.path);
  },
  write: writeGraphml,
};
