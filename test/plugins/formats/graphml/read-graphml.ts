import { WalkerError } from '../../../../core/errors.js';
import { graphmlFormat } from '../../../../plugins/formats/graphml/index.js';

/** Reads a GraphML text as `-m m.graphml` reads it. */
export const read = (text: string) => (graphmlFormat.read as NonNullable<typeof graphmlFormat.read>)(text, { path: 'm.graphml' });

/** The WalkerError that reading `text` is refused with; fails when the document is read. */
export function refusal(text: string): WalkerError {
  try {
    read(text);
  } catch (error) {
    if (error instanceof WalkerError) return error;
    throw error;
  }
  throw new Error('the document was read');
}
