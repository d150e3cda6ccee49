import type { ModelFileJson } from './model/types.js';
import type { Named } from './registry.js';

/** Where a model text comes from. */
export interface ModelSource {
  /** The file the text was read from: named in messages, and formats without model names name models after it. */
  readonly path?: string;
}

/**
 * A model file format: how to recognise, read and write models in it. The JSON format is core's own; GraphML
 * and DOT come with the built-in plugins, and a plugin registers more (`registries.formats`). A format that
 * cannot be read (DOT, for pictures) leaves out `read`; one that cannot be written leaves out `write`.
 */
export interface ModelFormat extends Named {
  /** The name `walker convert -f` and the draft export take, e.g. `graphml`. */
  readonly name: string;
  readonly aliases?: readonly string[];
  /** File name endings, lower case with the dot, e.g. `.graphml`: a file so named is read in this format. */
  readonly extensions: readonly string[];
  /** The media type of the written text, e.g. `application/graphml+xml`. */
  readonly mediaType: string;
  /**
   * True when the text is in this format, judged by its content alone and cheaply (its first characters): how
   * a text without a file name (a `POST /walker/load` body) finds its format.
   */
  detect?(text: string): boolean;
  /**
   * The model file the text holds. The loader then checks and normalises it like a JSON model file, so `read`
   * only translates. Throws a `ModelError` (code `WALKER_MODEL_SYNTAX` for text that does not parse) that
   * names `source.path` and says where the text is wrong.
   */
  read?(text: string, source: ModelSource): ModelFileJson;
  /** The text of a normalised model file. */
  write?(file: ModelFileJson): string;
}
