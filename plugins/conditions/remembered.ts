import type { Graph } from '../../core/model/graph.js';

/**
 * What stop conditions work out from a graph (the vertices of a name, the edges above a dependency, the
 * requirements of a model) or from a walk's reachable elements, worked out once per owner rather than once
 * per condition. A generator string may hold thousands of operands (a sequence of `a_star(reached_vertex(…))`,
 * a long `and`), and each must cost what it adds, not another pass over the model; conditions written alike
 * also get the same lists and demands, which is what lets the load-time judges judge them once. Both owners
 * are immutable once made, so what is found stays true, and it goes with them.
 */
const found = new WeakMap<object, Map<unknown, unknown>>();

/** The value for `key` of `owner` (a {@link Graph}, a walk's reachable elements), made by `make` the first time. */
export function remembered<T>(owner: object, key: unknown, make: () => T): T {
  let values = found.get(owner);
  if (values === undefined) found.set(owner, (values = new Map()));
  const value = values.get(key) as T | undefined;
  if (value !== undefined || values.has(key)) return value as T;
  const made = make();
  values.set(key, made);
  return made;
}

/**
 * Elements that share a class (the vertices of one model with one name, say), and a per-element array of
 * class numbers shared by every set of that kind in the graph: one array per kind and graph tells at a step
 * whether the walk stands on a member, where one flag array per condition would cost the graph's size each.
 */
export interface ElementClass {
  readonly elements: readonly number[];
  readonly classOf: Int32Array;
  readonly id: number;
}

/** The classes of a graph by their key, and the class of every element (-1 for none). */
export interface Classes {
  readonly byKey: ReadonlyMap<string, ElementClass>;
  readonly classOf: Int32Array;
}

/** Sorts `elements` into classes by `keyOf` (undefined: in none), in element order. */
export function classify(graph: Graph, elements: Iterable<number>, keyOf: (element: number) => string | undefined): Classes {
  const classOf = new Int32Array(graph.size).fill(-1);
  const members = new Map<string, number[]>();
  const ids = new Map<string, number>();
  for (const e of elements) {
    const key = keyOf(e);
    if (key === undefined) continue;
    let list = members.get(key);
    if (list === undefined) {
      members.set(key, (list = []));
      ids.set(key, ids.size);
    }
    list.push(e);
    classOf[e] = ids.get(key)!;
  }
  const byKey = new Map<string, ElementClass>();
  for (const [key, elements] of members) byKey.set(key, { elements, classOf, id: ids.get(key)! });
  return { byKey, classOf };
}
