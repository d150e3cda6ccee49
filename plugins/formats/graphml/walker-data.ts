/**
 * walker's own GraphML data key (`attr.name="walker"`, on nodes, edges and graphs): a JSON object holding the
 * exact values that yEd's labels and GraphML's typed data cannot carry, so that a model written as GraphML reads
 * back as it was. yEd keeps the key and shows it among an element's custom properties. A `null` says that a
 * field is absent where the reader would otherwise take a value from elsewhere (the file name for a model's
 * name, a Start vertex for its start element).
 */
import type { EdgeJson, ModelJson, VertexJson } from '../../../core/model/types.js';

export const WALKER_KEY = 'walker';

/** Beside a vertex: its fields that its label and data keys do not show exactly. */
export type VertexExtras = Partial<Pick<VertexJson, 'name' | 'sharedState' | 'actions' | 'requirements' | 'properties'>> & {
  /** Where walker placed a vertex that had no position of its own (no numeric `x` and `y`). */
  layout?: [number, number];
};

/** Beside an edge: its fields that its label and data keys do not show exactly. */
export type EdgeExtras = Partial<
  Pick<EdgeJson, 'name' | 'guard' | 'actions' | 'requirements' | 'properties' | 'weight' | 'dependency'>
>;

/** The fields of a model that GraphML has no place for, on its graph (one model) or its group node (several). */
export type ModelExtras = Partial<Omit<ModelJson, 'vertices' | 'edges' | 'name' | 'startElementId'>> & {
  name?: string | null;
  startElementId?: string | null;
};

/** On the document's graph: the model file's own fields, and the model's when the file holds one model. */
export interface GraphExtras {
  file?: { name?: string; seed?: number };
  model?: ModelExtras;
}

/** Reads the JSON of a walker data key; `where` names the element in the message of a broken one. */
export function parseExtras(text: string, where: string): Record<string, unknown> {
  let value: unknown;
  try {
    value = JSON.parse(text);
  } catch (error) {
    throw new Error(`the walker data of ${where} is not JSON (${(error as Error).message}): leave walker's key as walker wrote it, or remove it`, { cause: error });
  }
  if (typeof value !== 'object' || value === null || Array.isArray(value)) {
    throw new Error(`the walker data of ${where} must be a JSON object, not ${JSON.stringify(value)?.slice(0, 40)}`);
  }
  return value as Record<string, unknown>;
}

/** The data key's text: JSON whose every character an XML document can hold. */
export function stringifyExtras(extras: object): string {
  // JSON.stringify leaves U+FFFE and U+FFFF as they are, and XML cannot hold them.
  return JSON.stringify(extras).replace(/[\uFFFE\uFFFF]/g, (c) => `\\u${c.charCodeAt(0).toString(16)}`);
}

/** Sets a member as an own property, so that a key such as `__proto__` stays data. */
export function setOwn(target: Record<string, unknown>, key: string, value: unknown): void {
  Object.defineProperty(target, key, { value, enumerable: true, writable: true, configurable: true });
}
