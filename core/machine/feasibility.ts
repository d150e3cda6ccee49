import type { StepDemand, StopCondition } from '../condition.js';
import type { Graph } from '../model/graph.js';
import type { BestWalk, OneWalk } from '../model/one-walk.js';
import type { WalkScope } from '../walk-state.js';
import { abbreviate } from '../text.js';
import { AllOf, AnyOf, OnVertex, whyNever } from './conditions.js';

/** How many element ids a message lists before it says how many more there are. */
const LISTED_IDS = 5;
/** How many conditions a message about operands that cannot be met together names. */
const LISTED_LABELS = 5;

/**
 * Why conditions can never be fulfilled from the start (guards ignored), for every chain of one walk: each
 * condition's own `unreachable` (an element no walk reaches), else its {@link StepDemand} against what one
 * walk can cover ({@link OneWalk}). Under `and` one such operand is enough, and the demands of all operands
 * must also fit one walk together; under `or` every operand must fail. `walks` is asked only when a demand
 * needs it, so that conditions without one cost nothing.
 *
 * What it finds about a demand, alone or with others, it keeps: built-in conditions written alike share one
 * demand, so a string that repeats an operand a thousand times costs one judgement of it, not a thousand
 * passes over the model.
 */
export class Feasibility {
  private readonly alone = new Map<StepDemand, string | undefined>();
  private readonly together = new Map<string, string | undefined>();
  private readonly numbers = new Map<StepDemand, number>();

  constructor(
    private readonly graph: Graph,
    private readonly walks: () => OneWalk,
  ) {}

  /** Why `condition` can never be fulfilled, or undefined when some walk may fulfil it. */
  whyNever(condition: StopCondition, scope: WalkScope): string | undefined {
    return whyNever(condition, (leaf) => this.leaf(leaf, scope), (all) => this.joint(all));
  }

  private leaf(condition: StopCondition, scope: WalkScope): string | undefined {
    const why = condition.unreachable?.(scope);
    const demand = condition.demand;
    if (why !== undefined || demand === undefined) return why;
    return remembered(this.alone, demand, () => shortfall(this.graph, this.walks(), demand));
  }

  private joint(all: AllOf): string | undefined {
    const demands = demandsOf(all);
    if (demands.length < 2) return undefined;
    const key = demands.map((d) => this.numberOf(d)).join(',');
    return remembered(this.together, key, () => jointShortfall(this.graph, this.walks(), demands));
  }

  private numberOf(demand: StepDemand): number {
    return remembered(this.numbers, demand, () => this.numbers.size);
  }
}

function remembered<K, V>(map: Map<K, V>, key: K, make: () => V): V {
  if (map.has(key)) return map.get(key)!;
  const value = make();
  map.set(key, value);
  return value;
}

/** The distinct demands of the operands of an `and`, nested `and`s included, in order; an `or` asks nothing certain. */
function demandsOf(all: AllOf): StepDemand[] {
  const demands = new Set<StepDemand>();
  const pending: StopCondition[] = [all];
  while (pending.length > 0) {
    const condition = pending.pop()!;
    if (condition instanceof OnVertex) pending.push(condition.inner);
    else if (condition instanceof AllOf) for (let i = condition.operands.length - 1; i >= 0; i--) pending.push(condition.operands[i]);
    else if (!(condition instanceof AnyOf) && condition.demand !== undefined) demands.add(condition.demand);
  }
  return [...demands];
}

function shortfall(graph: Graph, walks: OneWalk, demand: StepDemand): string | undefined {
  const best = walks.best(demand);
  if (best.primary >= demand.least) return undefined;
  return (
    `${demand.label} can never be fulfilled: one walk covers at most ${best.primary} of the ` +
    `${totalOf(demand)} ${demand.what}, and ${demand.least} are needed (guards ignored). ` +
    explain(graph, walks, best, demand.elements, demand.elements)
  );
}

/**
 * The demands of an `and` on one walk: those that need all their elements (`least` = total) are joined into
 * one set that the walk must cover whole, and each other demand is checked against a walk that covers that set
 * (the most it can collect while doing so). Exact for one partial demand; with several it checks each against
 * the whole set, which refuses only what is certainly impossible. `demands` are distinct.
 */
function jointShortfall(graph: Graph, walks: OneWalk, demands: readonly StepDemand[]): string | undefined {
  const whole = new Set(demands.filter((d) => d.least >= totalOf(d)));
  const all = { elements: union(whole) };
  const start = (parts: readonly StepDemand[]) =>
    `${labels(parts)} can never be fulfilled together: no one walk covers what they need (guards ignored). `;
  const best = walks.best(all);
  if (best.primary < all.elements.length) return start([...whole]) + explain(graph, walks, best, all.elements, all.elements);
  for (const d of demands) {
    if (whole.has(d)) continue;
    const both = walks.best(all, d);
    if (both.secondary >= d.least) continue;
    const parts = demands.filter((x) => x === d || whole.has(x));
    return start(parts) + explain(graph, walks, both, d.elements, [...all.elements, ...d.elements]);
  }
  return undefined;
}

/** The elements of all the demands, each once, in order; a list that several demands share is read once. */
function union(demands: ReadonlySet<StepDemand>): number[] {
  const lists = new Set<readonly number[]>();
  for (const d of demands) lists.add(d.elements);
  const elements = new Set<number>();
  for (const list of lists) for (const e of list) elements.add(e);
  return [...elements];
}

/** `a and b and c`, or the first few and how many more. */
function labels(demands: readonly StepDemand[]): string {
  const shown = demands.slice(0, LISTED_LABELS).map((d) => d.label);
  const more = demands.length - shown.length;
  return more > 0 ? `${shown.join(', ')} and ${more} more` : shown.join(' and ');
}

/**
 * Names two elements no walk can both step on, one of `wanted` that the best walk leaves out and one it
 * covers (one always exists when the best walk falls short), and lists what the best walk leaves out.
 */
function explain(graph: Graph, walks: OneWalk, best: BestWalk, wanted: readonly number[], counted: readonly number[]): string {
  const onWalk = new Set(best.components);
  const left = wanted.filter((e) => !onWalk.has(walks.componentOf(e)));
  const covered = counted.filter((e) => onWalk.has(walks.componentOf(e)));
  // An element no walk reaches at all has no rival; the pair is about one the best walk could have had.
  const missed = left.find((e) => walks.componentOf(e) >= 0);
  const rival = missed === undefined ? -1 : walks.rival(missed, covered);
  const pair =
    rival < 0
      ? ''
      : `No walk steps on both ${graph.ids[rival]} and ${graph.ids[missed!]}, since neither can be reached from ` +
        'the other; ';
  const ids = left.slice(0, LISTED_IDS).map((e) => graph.ids[e]);
  return `${pair}the best walk leaves out ${abbreviate(ids, LISTED_IDS, left.length)}`;
}

function totalOf(demand: StepDemand): number {
  return demand.weights === undefined ? demand.elements.length : demand.weights.reduce((sum, w) => sum + w, 0);
}
