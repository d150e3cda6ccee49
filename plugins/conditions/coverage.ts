import type { StepDemand, StopCondition, StopConditionFactory, StopConditionName } from '../../core/condition.js';
import type { Graph, ModelInfo } from '../../core/model/graph.js';
import type { WalkScope, WalkState } from '../../core/walk-state.js';
import { abbreviate } from '../../core/text.js';
import {
  coverageFulfilment,
  FULFILLED,
  leastForCoverage,
  listIds,
  MAX_LISTED_IDS,
  modelLabel,
  percentageArgument,
  unreachableOf,
} from './common.js';
import { remembered } from './remembered.js';

/** What differs between edge and vertex coverage. */
interface ElementKind {
  readonly name: StopConditionName;
  readonly alias: string;
  /** Plural noun for messages. */
  readonly noun: string;
  elements(model: ModelInfo): readonly number[];
  /** Distinct elements of this kind visited in the model: kept by the machine, so O(1). */
  visited(walk: WalkState, model: number): number;
}

/** A coverage condition over the edges or the vertices of the condition's own model. */
function elementCoverage(kind: ElementKind): StopConditionFactory {
  return {
    name: kind.name,
    aliases: [kind.alias],
    argument: 'integer',
    endsOnVertex: true,
    create(argument, { graph, model }): StopCondition {
      const percent = percentageArgument(kind.name, argument);
      const elements = kind.elements(graph.models[model]);
      const total = elements.length;
      const progress = (walk: WalkState) => coverageFulfilment(kind.visited(walk, model), total, percent);
      return {
        isFulfilled: (walk) => progress(walk) >= FULFILLED,
        fulfilment: (walk) => Math.min(1, progress(walk)),
        demand: remembered(elements, percent, () => {
          const what = `${kind.noun} of model '${modelLabel(graph, model)}'`;
          return demandOf(`${kind.name}(${percent})`, what, elements, undefined, leastForCoverage(total, percent));
        }),
        unreachable(scope: WalkScope) {
          const missing = unreachableOf(scope, elements);
          if (coverageFulfilment(total - missing.length, total, percent) >= FULFILLED) return undefined;
          return (
            `${kind.name}(${percent}) can never be fulfilled: ${missing.length} of ${total} ${kind.noun} of ` +
            `model '${modelLabel(graph, model)}' cannot be reached from the start element ` +
            `(${listIds(graph, missing)})`
          );
        },
      };
    },
  };
}

/** `edge_coverage(p)`: at least p % of the model's edges visited. A model without edges is covered at once. */
export const edgeCoverage: StopConditionFactory = elementCoverage({
  name: 'edge_coverage',
  alias: 'edgecoverage',
  noun: 'edges',
  elements: (m) => m.edges,
  visited: (walk, model) => walk.visitedEdges(model),
});

/** `vertex_coverage(p)`: at least p % of the model's vertices visited. A model without vertices is covered at once. */
export const vertexCoverage: StopConditionFactory = elementCoverage({
  name: 'vertex_coverage',
  alias: 'vertexcoverage',
  noun: 'vertices',
  elements: (m) => m.vertices,
  visited: (walk, model) => walk.visitedVertices(model),
});

/**
 * `requirement_coverage(p)`: at least p % of the model's requirements have a result (passed or failed, as in
 * GraphWalker: a failed requirement has been tested). A model without requirements is covered at once.
 */
export const requirementCoverage: StopConditionFactory = {
  name: 'requirement_coverage',
  aliases: ['requirementcoverage'],
  argument: 'integer',
  endsOnVertex: true,
  create(argument, { graph, model }): StopCondition {
    const percent = percentageArgument('requirement_coverage', argument);
    const progress = (walk: WalkState) => {
      const r = walk.requirements(model);
      return coverageFulfilment(r.passed + r.failed, r.total, percent);
    };
    return {
      isFulfilled: (walk) => progress(walk) >= FULFILLED,
      fulfilment: (walk) => Math.min(1, progress(walk)),
      demand: requirementDemand(graph, model, percent),
      unreachable: (scope) => unreachableRequirements(scope, graph, model, percent),
    };
  },
};

/** The elements of a model that carry requirements, each weighing as many as it carries, and their total. */
interface Carriers {
  readonly elements: readonly number[];
  readonly weights: readonly number[];
  readonly total: number;
}

function carriersOf(graph: Graph, model: number): Carriers {
  return remembered(graph.models[model], 'requirements', () => {
    const info = graph.models[model];
    const elements = [...info.vertices, ...info.edges].filter((e) => graph.requirements[e].length > 0);
    const weights = elements.map((e) => graph.requirements[e].length);
    return { elements, weights, total: weights.reduce((sum, w) => sum + w, 0) };
  });
}

/** The elements that carry requirements, each weighing as many as it carries. */
function requirementDemand(graph: Graph, model: number, percent: number): StepDemand | undefined {
  const carriers = carriersOf(graph, model);
  return remembered(carriers, percent, () => {
    const what = `requirements of model '${modelLabel(graph, model)}'`;
    const { elements, weights, total } = carriers;
    return demandOf(`requirement_coverage(${percent})`, what, elements, weights, leastForCoverage(total, percent));
  });
}

/** A demand, or none when nothing is needed (a goal of 0 %, or nothing to cover). */
function demandOf(
  label: string,
  what: string,
  elements: readonly number[],
  weights: readonly number[] | undefined,
  least: number,
): StepDemand | undefined {
  return least === 0 ? undefined : { label, what, elements, weights, least };
}

/**
 * As in GraphWalker (and in `walk.requirements(model).total`) each requirement of each element counts once,
 * so the same key on two elements is two requirements; one that sits on an unreachable element can never get
 * a result.
 */
function unreachableRequirements(scope: WalkScope, graph: Graph, model: number, percent: number): string | undefined {
  const carriers = carriersOf(graph, model);
  const total = carriers.total;
  const stuck = remembered(scope.reachable, carriers, () => {
    const keys: string[] = [];
    for (const e of carriers.elements) if (scope.reachable[e] !== 1) for (const key of graph.requirements[e]) keys.push(`${key} on ${graph.ids[e]}`);
    return keys;
  });
  if (coverageFulfilment(total - stuck.length, total, percent) >= FULFILLED) return undefined;
  return (
    `requirement_coverage(${percent}) can never be fulfilled: ${stuck.length} of ${total} requirements of ` +
    `model '${modelLabel(graph, model)}' sit on elements that cannot be reached from the start element ` +
    `(${abbreviate(stuck.slice(0, MAX_LISTED_IDS), MAX_LISTED_IDS, stuck.length)})`
  );
}
