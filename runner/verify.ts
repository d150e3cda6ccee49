import type { Graph } from '../core/model/graph.js';
import { namesByClass } from './model-names.js';
import type { TestSuite } from './test-suite.js';

/** What a test module lacks for one model: its class, or some methods. */
export interface MissingCode {
  readonly model: string;
  /** True when the module has no class (or object) of the model's name. */
  readonly classMissing: boolean;
  /** The element names without a method, vertices first. */
  readonly methods: readonly string[];
}

/**
 * Checks a test module against models as `run` would call it: every model with named elements needs its
 * class, and the class a method per distinct vertex and edge name. Lists what is missing, per model, in the
 * models' order; empty when nothing is.
 */
export function verifyTestCode(suite: TestSuite, graphs: readonly Graph[]): MissingCode[] {
  const missing: MissingCode[] = [];
  for (const [model, { vertices, edges }] of namesByClass(graphs)) {
    const names = [...vertices, ...edges];
    if (names.length === 0) continue;
    if (!suite.hasModel(model)) {
      missing.push({ model, classMissing: true, methods: names });
      continue;
    }
    const methods = names.filter((name) => suite.lookup(model, name) === undefined);
    if (methods.length > 0) missing.push({ model, classMissing: false, methods });
  }
  return missing;
}
