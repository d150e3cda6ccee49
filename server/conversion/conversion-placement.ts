/**
 * Which conversions leave the event loop for the conversion thread (docs/architecture.md, "Conversions"). A
 * conversion reads or writes a whole model synchronously, so a large one would hold every other client of the
 * service; a small one stays on the loop, where it costs less than the messages to a thread. Reading GraphML
 * costs more than ten times what reading JSON costs per character, so each has its own bound
 * (docs/benchmarks.md, "Measurements behind the code"); a plugin's format is judged as dearly as GraphML.
 */

/** Characters of JSON from which a read goes to the thread. */
export const LARGE_JSON_CHARS = 1024 * 1024;

/** Characters of any other format (GraphML, a plugin's) from which a read goes to the thread. */
export const LARGE_TEXT_CHARS = 64 * 1024;

/** Characters of input from which a conversion that writes another format than JSON goes to the thread. */
export const LARGE_WRITE_CHARS = 128 * 1024;

/** Vertices and edges from which writing a model in another format than JSON goes to the thread. */
export const LARGE_WRITE_ELEMENTS = 1_000;

/** True when reading `text` in `format` (a registered format's name), and writing it in `writes` if any, is large. */
export function isLargeConversion(text: string, format: string, writes?: string): boolean {
  if (text.length >= (format === 'json' ? LARGE_JSON_CHARS : LARGE_TEXT_CHARS)) return true;
  return writes !== undefined && writes !== 'json' && text.length >= LARGE_WRITE_CHARS;
}

/** True when writing a model of `elements` vertices and edges in `format` is large. */
export function isLargeWrite(format: string, elements: number): boolean {
  return format !== 'json' && elements >= LARGE_WRITE_ELEMENTS;
}
