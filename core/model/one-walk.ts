import { stronglyConnected } from './scc.js';
import type { WalkGraph } from './walk-graph.js';

/** Elements that count towards a goal, each with a weight (1 when `weights` is absent). */
export interface ElementWeights {
  readonly elements: readonly number[];
  readonly weights?: readonly number[];
}

/** The walk that collects the most of a goal: its totals and the components it passes, in walking order. */
export interface BestWalk {
  readonly primary: number;
  readonly secondary: number;
  readonly components: readonly number[];
}

/**
 * What one walk can cover, from the strongly connected components of the {@link WalkGraph} (guards ignored).
 *
 * A walk that leaves a component can never come back to it, so the components a walk passes lie on one path
 * of the condensation, a DAG; and every such path can be walked with every element of its components
 * visited (each component is strongly connected). So a set of elements can be covered by one walk exactly
 * when their components lie on one path from the start's component, and the most a walk can collect is a
 * longest path in the DAG with each component weighted by what it holds: one dynamic programme over the
 * components, O(components + arcs between them) per question, after an O(elements + arcs) condensation.
 */
export class OneWalk {
  private readonly of: Int32Array;
  private readonly count: number;
  private readonly start: number;
  /** CSR of the condensation: component c leads to `next[nextStart[c] .. nextStart[c+1]-1]`, all below c. */
  private readonly nextStart: Int32Array;
  private readonly next: Int32Array;

  constructor(walkGraph: WalkGraph) {
    const { count, of } = stronglyConnected(walkGraph, walkGraph.root >= 0 ? [walkGraph.root] : []);
    this.of = of;
    this.count = count;
    this.start = walkGraph.root >= 0 ? of[walkGraph.root] : -1;
    [this.nextStart, this.next] = condense(walkGraph, of, count);
  }

  /** The component of an element; -1 when no walk reaches it. */
  componentOf(element: number): number {
    return this.of[element];
  }

  /**
   * The walk that collects the most `primary` weight, and among those the most `secondary` weight: both
   * totals, and the components it passes from the start's on. Unreachable elements count nothing.
   */
  best(primary: ElementWeights, secondary: ElementWeights = NOTHING): BestWalk {
    if (this.start < 0) return { primary: 0, secondary: 0, components: [] };
    const own1 = this.perComponent(primary);
    const own2 = this.perComponent(secondary);
    const total1 = new Float64Array(this.count);
    const total2 = new Float64Array(this.count);
    const choice = new Int32Array(this.count).fill(-1);
    for (let c = 0; c < this.count; c++) {
      let [best1, best2] = [0, 0];
      for (let a = this.nextStart[c]; a < this.nextStart[c + 1]; a++) {
        const d = this.next[a];
        if (choice[c] < 0 || total1[d] > best1 || (total1[d] === best1 && total2[d] > best2)) {
          [best1, best2, choice[c]] = [total1[d], total2[d], d];
        }
      }
      total1[c] = own1[c] + best1;
      total2[c] = own2[c] + best2;
    }
    const components: number[] = [];
    for (let c = this.start; c >= 0; c = choice[c]) components.push(c);
    return { primary: total1[this.start], secondary: total2[this.start], components };
  }

  /**
   * The first of `others` that no walk can have together with `element`, because neither can be reached from
   * the other; -1 when there is none. O(components + arcs between them).
   */
  rival(element: number, others: readonly number[]): number {
    const home = this.of[element];
    if (home < 0) return -1;
    const related = new Uint8Array(this.count);
    related[home] = 1;
    // What follows `home` has lower numbers: one sweep downwards marks it.
    for (let c = home; c >= 0; c--) {
      if (related[c] === 1) for (let a = this.nextStart[c]; a < this.nextStart[c + 1]; a++) related[this.next[a]] = 1;
    }
    // What leads to `home` has higher numbers; only arcs to `home` or to what leads there count, hence `reaches`.
    const reaches = new Uint8Array(this.count);
    reaches[home] = 1;
    for (let c = home + 1; c < this.count; c++) {
      for (let a = this.nextStart[c]; a < this.nextStart[c + 1] && reaches[c] === 0; a++) reaches[c] = reaches[this.next[a]];
      if (reaches[c] === 1) related[c] = 1;
    }
    return others.find((e) => this.of[e] >= 0 && related[this.of[e]] === 0) ?? -1;
  }

  private perComponent(weights: ElementWeights): Float64Array {
    const own = new Float64Array(this.count);
    weights.elements.forEach((e, i) => {
      const c = this.of[e];
      if (c >= 0) own[c] += weights.weights?.[i] ?? 1;
    });
    return own;
  }
}

const NOTHING: ElementWeights = { elements: [] };

/** The arcs between different components, as a CSR over components. */
function condense(walkGraph: WalkGraph, of: Int32Array, count: number): [Int32Array, Int32Array] {
  const start = new Int32Array(count + 1);
  const arcsFrom = (node: number, visit: (c: number, d: number) => void): void => {
    const c = of[node];
    if (c < 0) return;
    for (let a = walkGraph.outStart[node]; a < walkGraph.outStart[node + 1]; a++) {
      const d = of[walkGraph.to[a]];
      if (d !== c) visit(c, d);
    }
  };
  for (let node = 0; node < walkGraph.vertexCount; node++) arcsFrom(node, (c) => start[c + 1]++);
  for (let c = 0; c < count; c++) start[c + 1] += start[c];
  const fill = start.slice(0, count);
  const next = new Int32Array(start[count]);
  for (let node = 0; node < walkGraph.vertexCount; node++) arcsFrom(node, (c, d) => (next[fill[c]++] = d));
  return [start, next];
}
