import type { PathGenerator, PathGeneratorFactory } from '../../core/generator.js';
import type { ConditionExpr } from '../../core/language/ast.js';
import type { Graph } from '../../core/model/graph.js';
import type { WalkState } from '../../core/walk-state.js';
import { invalidGenerator } from '../../core/errors.js';

const CONDITION_NAMES = new Set(['predefined_path', 'predefinedpath']);

/**
 * `predefined_path` (`predefinedpath`): walks the model's `predefinedPathEdgeIds` in order. At a vertex the
 * next path edge must leave from there and be open; otherwise there is no way on (-1, which the machine
 * reports as a dead end) rather than a silent detour, because a predefined path is a test script.
 *
 * When the model starts on an edge that is also the first path edge, the machine has already stepped on it,
 * so the generator continues after it (GraphWalker files differ on whether the path lists the start edge).
 */
export const predefinedPathGenerator: PathGeneratorFactory = {
  name: 'predefined_path',
  aliases: ['predefinedpath'],
  create({ graph, model, conditionExpr }) {
    const info = graph.models[model];
    if (info.predefinedPath.length === 0) {
      throw invalidGenerator(`The model '${info.id}' has no predefinedPathEdgeIds; predefined_path needs them`);
    }
    if (!isPredefinedPathCondition(conditionExpr)) {
      throw invalidGenerator(
        `The generator predefined_path of model '${info.id}' needs the stop condition predefined_path, ` +
          'as in predefined_path(predefined_path): the path itself says where the walk ends',
      );
    }
    if (!pathOfEdges(graph, info.predefinedPath)) {
      throw invalidGenerator(`The predefinedPathEdgeIds of model '${info.id}' name an element that is not one of its edges`);
    }
    return new PredefinedPath(graph, info.predefinedPath, info.startElement);
  },
};

/** Paths already checked: a sequence of many predefined_path generators checks its model's path once. */
const checkedPaths = new WeakMap<readonly number[], boolean>();

function pathOfEdges(graph: Graph, path: readonly number[]): boolean {
  let edgesOnly = checkedPaths.get(path);
  if (edgesOnly === undefined) checkedPaths.set(path, (edgesOnly = path.every((e) => e >= graph.vertexCount)));
  return edgesOnly;
}

function isPredefinedPathCondition(expr: ConditionExpr): boolean {
  return expr.kind === 'call' && CONDITION_NAMES.has(expr.name.toLowerCase());
}

class PredefinedPath implements PathGenerator {
  private index: number;

  constructor(
    private readonly graph: Graph,
    private readonly path: readonly number[],
    startElement: number,
  ) {
    this.index = path[0] === startElement ? 1 : 0;
  }

  nextEdge(walk: WalkState, vertex: number): number {
    if (this.index >= this.path.length) return -1;
    const e = this.path[this.index];
    if (this.graph.source[e] !== vertex || !walk.openEdges(vertex).includes(e)) return -1;
    this.index++;
    return e;
  }
}
