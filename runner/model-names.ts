import type { Graph } from '../core/model/graph.js';
import { modelBaseName } from '../core/machine/step-report.js';

/** The model's name as a test module names its class: GraphWalker's `modelName`, else the model's id. */
export function classNameOf(graph: Graph, model: number): string {
  const info = graph.models[model];
  return modelBaseName(info.name) ?? info.id;
}

/**
 * What the test code of some models needs: per class name, the distinct element names, vertices first (in
 * model order), then edges. Models of one name (from several files) share a class. Unnamed elements need
 * no method.
 */
export function namesByClass(graphs: readonly Graph[]): Map<string, { vertices: string[]; edges: string[] }> {
  const classes = new Map<string, { vertices: string[]; edges: string[] }>();
  const seen = new Set<string>();
  for (const graph of graphs) {
    graph.models.forEach((_, m) => {
      const name = classNameOf(graph, m);
      if (!classes.has(name)) classes.set(name, { vertices: [], edges: [] });
    });
    for (let e = 0; e < graph.size; e++) {
      const name = graph.names[e];
      if (name === undefined || name === '') continue;
      const model = classNameOf(graph, graph.modelOf[e]);
      if (seen.has(`${model}\u0000${name}`)) continue;
      seen.add(`${model}\u0000${name}`);
      const entry = classes.get(model)!;
      (graph.isVertex(e) ? entry.vertices : entry.edges).push(name);
    }
  }
  return classes;
}
