import type { StepDemand, StopCondition, StopConditionFactory, StopConditionName } from '../../core/condition.js';
import type { Graph } from '../../core/model/graph.js';
import type { WalkScope, WalkState } from '../../core/walk-state.js';
import { invalidGenerator } from '../../core/errors.js';
import { distinctNames, listNames, modelLabel, nameArgument } from './common.js';
import { classify, remembered, type Classes, type ElementClass } from './remembered.js';

/** What differs between the three reached_* conditions: where their targets come from and how messages name them. */
interface TargetKind {
  readonly name: StopConditionName;
  readonly alias: string;
  /** The target elements for `name`; undefined when there are none. */
  targets(graph: Graph, model: number, name: string): ElementClass | undefined;
  /** Why `name` names nothing, with the names that would have worked. */
  unknown(graph: Graph, model: number, name: string): string;
  /** The targets in words, for the unreachable message: "no <what> can be reached". */
  what(graph: Graph, model: number, name: string): string;
}

/**
 * A condition that is fulfilled once the walk stands on one of its targets, edge or vertex (no vertex rule:
 * `reached_edge` ends on its edge). It latches, as in GraphWalker: once reached it stays fulfilled however
 * the walk goes on, until the restart makes a fresh instance.
 */
class ReachedTarget implements StopCondition {
  private reached = false;
  readonly targets: readonly number[];

  constructor(
    private readonly target: ElementClass,
    /** One of the targets: what this asks of a walk, together with the other operands of an `and`. */
    readonly demand: StepDemand,
    private readonly describeFailure: () => string,
  ) {
    this.targets = target.elements;
  }

  isFulfilled(walk: WalkState): boolean {
    if (!this.reached && this.standsOnTarget(walk)) this.reached = true;
    return this.reached;
  }

  /**
   * 0 or 1: GraphWalker's graded distance to the nearest target would cost a shortest-path search on every
   * call. Free of side effects, so that statistics reading it never latch the condition.
   */
  fulfilment(walk: WalkState): number {
    return this.reached || this.standsOnTarget(walk) ? 1 : 0;
  }

  unreachable(scope: WalkScope): string | undefined {
    const some = remembered(scope.reachable, this.target, () => this.targets.some((t) => scope.reachable[t] === 1));
    return some ? undefined : this.describeFailure();
  }

  private standsOnTarget(walk: WalkState): boolean {
    return walk.current >= 0 && this.target.classOf[walk.current] === this.target.id;
  }
}

function reached(kind: TargetKind): StopConditionFactory {
  return {
    name: kind.name,
    aliases: [kind.alias],
    argument: 'name',
    endsOnVertex: false,
    create(argument, { graph, model }): StopCondition {
      const name = nameArgument(kind.name, argument);
      const target = kind.targets(graph, model, name);
      if (target === undefined) throw invalidGenerator(kind.unknown(graph, model, name));
      const label = `${kind.name}(${name})`;
      const demand = remembered(target, kind.name, () => ({ label, what: `targets of ${label}`, elements: target.elements, least: 1 }));
      return new ReachedTarget(target, demand, () => {
        const what = kind.what(graph, model, name);
        return `${label} can never be fulfilled: no ${what} can be reached from the start element`;
      });
    },
  };
}

/** The classes of elements of one kind by model and name: what `reached_vertex` and `reached_edge` look up. */
function byName(graph: Graph, vertices: boolean): Classes {
  return remembered(graph, vertices ? 'vertices by name' : 'edges by name', () => {
    const [from, to] = vertices ? [0, graph.vertexCount] : [graph.vertexCount, graph.size];
    const name = (e: number) => (graph.names[e] ? `${graph.modelOf[e]}:${graph.names[e]}` : undefined);
    return classify(graph, range(from, to), name);
  });
}

function* range(from: number, to: number): Iterable<number> {
  for (let i = from; i < to; i++) yield i;
}

/** `reached_vertex(name)`: the walk stands on a vertex of the model with that name. */
export const reachedVertex: StopConditionFactory = reached({
  name: 'reached_vertex',
  alias: 'reachedvertex',
  targets: (graph, model, name) => byName(graph, true).byKey.get(`${model}:${name}`),
  unknown: (graph, model, name) =>
    `reached_vertex: model '${modelLabel(graph, model)}' has no vertex named '${name}'. ` +
    `Vertices: ${listNames(distinctNames(graph, graph.models[model].vertices))}`,
  what: (graph, model, name) => `vertex named '${name}' in model '${modelLabel(graph, model)}'`,
});

/** `reached_edge(name)`: the walk stands on an edge of the model with that name. */
export const reachedEdge: StopConditionFactory = reached({
  name: 'reached_edge',
  alias: 'reachededge',
  targets: (graph, model, name) => byName(graph, false).byKey.get(`${model}:${name}`),
  unknown: (graph, model, name) =>
    `reached_edge: model '${modelLabel(graph, model)}' has no edge named '${name}'. ` +
    `Edges: ${listNames(distinctNames(graph, graph.models[model].edges))}`,
  what: (graph, model, name) => `edge named '${name}' in model '${modelLabel(graph, model)}'`,
});

/**
 * `reached_shared_state(name)`: the walk stands on a vertex with that shared state, in any model, since a
 * shared state is what joins models.
 */
export const reachedSharedState: StopConditionFactory = reached({
  name: 'reached_shared_state',
  alias: 'reachedsharedstate',
  targets: (graph, _model, name) =>
    remembered(graph, 'vertices by shared state', () =>
      classify(graph, range(0, graph.vertexCount), (v) => graph.sharedState[v]),
    ).byKey.get(name),
  unknown: (graph, model, name) =>
    `reached_shared_state: no model has a vertex with shared state '${name}' ` +
    `(asked for by the generator of model '${modelLabel(graph, model)}'). ` +
    `Shared states: ${listNames([...graph.sharedStates()])}`,
  what: (_graph, _model, name) => `vertex with shared state '${name}'`,
});
