import { ErrorCodes, ModelError } from '../errors.js';

/** The encoding an XML declaration names at the start of a file: `<?xml version="1.0" encoding="ISO-8859-1"?>`. */
const DECLARED = /^<\?xml[^>]*?\sencoding\s*=\s*["']([A-Za-z][\w.:-]*)["']/;

/** Labels of ISO-8859-1 itself, which the WHATWG decoder would read as windows-1252 (C1 bytes differ). */
const LATIN1 = new Set(['iso-8859-1', 'iso8859-1', 'iso_8859-1', 'latin1', 'l1', 'us-ascii', 'ascii', 'iso-ir-100', 'cp819', 'ibm819']);

/**
 * The text of a model file's bytes. UTF-8, unless the file says otherwise: a UTF-16 byte-order mark, or an XML
 * declaration naming another encoding, as GraphML files GraphWalker wrote name `ISO-8859-1`. Such a file is
 * read in that encoding, as XML readers (GraphWalker's among them) read it; ISO-8859-1 byte for byte. An
 * encoding Node.js cannot decode is refused, naming it, rather than read as the wrong characters.
 */
export function decodeModelBytes(bytes: Uint8Array, path: string): string {
  if (bytes[0] === 0xff && bytes[1] === 0xfe) return new TextDecoder('utf-16le').decode(bytes);
  if (bytes[0] === 0xfe && bytes[1] === 0xff) return new TextDecoder('utf-16be').decode(bytes);
  // The declaration is ASCII in every encoding a file without a byte-order mark may declare.
  const start = bytes[0] === 0xef && bytes[1] === 0xbb && bytes[2] === 0xbf ? 3 : 0;
  const head = Buffer.from(bytes.subarray(start, start + 256)).toString('latin1');
  const declared = DECLARED.exec(head)?.[1].toLowerCase();
  if (declared === undefined || declared === 'utf-8' || declared === 'utf8') return Buffer.from(bytes).toString('utf8');
  if (LATIN1.has(declared)) return Buffer.from(bytes).toString('latin1');
  let decoder: InstanceType<typeof TextDecoder>;
  try {
    decoder = new TextDecoder(declared);
  } catch {
    const problem =
      `The file declares the encoding '${declared}', which Node.js cannot decode: save it as UTF-8 (and say ` +
      'encoding="UTF-8" in its XML declaration), or in an encoding such as ISO-8859-1 or windows-1252';
    throw new ModelError(problem, { source: path }, ErrorCodes.FILE);
  }
  return decoder.decode(bytes);
}
