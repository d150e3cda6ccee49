import type { UnitCostFlow } from './min-cost-flow.js';

/**
 * One phase of {@link UnitCostFlow.solve}: a maximum flow from the nodes with supply to the nodes with demand
 * over the admissible arcs (capacity left, reduced cost 0), found Dinic-style: breadth-first levels, then
 * depth-first augmentation along arcs that go one level up, with a current-arc pointer per node so that
 * every arc is given up at most once per level graph. Levels make zero-cost cycles harmless.
 */
export class BlockingFlow {
  private readonly level: Int32Array;
  private readonly current: Int32Array;
  private readonly queue: Int32Array;
  private readonly path: Int32Array;

  constructor(private readonly net: UnitCostFlow) {
    const n = net.nodeCount;
    this.level = new Int32Array(n);
    this.current = new Int32Array(n);
    this.queue = new Int32Array(n);
    this.path = new Int32Array(n + 1);
  }

  /** Augments until no admissible path from a supply to a demand is left. */
  saturate(): void {
    while (this.buildLevels()) {
      this.current.set(this.net.firstArc);
      for (let x = 0; x < this.net.nodeCount; x++) {
        if (this.net.excess[x] > 0 && this.level[x] === 0) this.augmentFrom(x);
      }
    }
  }

  private admissible(a: number, from: number): boolean {
    const { net } = this;
    return net.capacity[a] > 0 && this.level[net.head[a]] === this.level[from] + 1 && net.reducedCost(a, from) === 0;
  }

  /** Levels from all supplies; stops at the level of the nearest demand, as nothing beyond it is used. */
  private buildLevels(): boolean {
    const { net, level, queue } = this;
    level.fill(-1);
    let tail = 0;
    for (let v = 0; v < net.nodeCount; v++) if (net.excess[v] > 0) level[(queue[tail++] = v)] = 0;
    let limit = Infinity;
    for (let head = 0; head < tail; head++) {
      const v = queue[head];
      if (level[v] >= limit) break;
      for (let a = net.firstArc[v]; a >= 0; a = net.nextArc[a]) {
        const w = net.head[a];
        if (level[w] !== -1 || net.capacity[a] === 0 || net.reducedCost(a, v) !== 0) continue;
        level[(queue[tail++] = w)] = level[v] + 1;
        if (net.excess[w] < 0) limit = level[w];
      }
    }
    return limit !== Infinity;
  }

  private augmentFrom(x: number): void {
    const { net, path } = this;
    let depth = 0;
    let u = x;
    while (net.excess[x] > 0) {
      if (depth > 0 && net.excess[u] < 0) {
        depth = this.push(x, u, depth);
        u = depth === 0 ? x : net.head[path[depth - 1]];
        continue;
      }
      const a = this.advance(u);
      if (a >= 0) {
        path[depth++] = a;
        u = net.head[a];
        continue;
      }
      // Nothing admissible leads on from u in this level graph: retire it and back up one arc.
      this.level[u] = -1;
      if (depth === 0) return;
      u = net.head[path[--depth] ^ 1];
      this.current[u] = net.nextArc[this.current[u]];
    }
  }

  /** The first admissible arc out of `u` from its current-arc pointer on, or -1. */
  private advance(u: number): number {
    let a = this.current[u];
    while (a >= 0 && !this.admissible(a, u)) a = this.net.nextArc[a];
    this.current[u] = a;
    return a;
  }

  /** Sends what the path allows from `x` to demand `t`; returns the depth to resume from (a saturated arc's tail). */
  private push(x: number, t: number, depth: number): number {
    const { net, path } = this;
    let amount = Math.min(net.excess[x], -net.excess[t]);
    for (let k = 0; k < depth; k++) amount = Math.min(amount, net.capacity[path[k]]);
    let resume = depth;
    for (let k = 0; k < depth; k++) {
      const a = path[k];
      net.capacity[a] -= amount;
      net.capacity[a ^ 1] += amount;
      if (net.capacity[a] === 0 && resume === depth) resume = k;
    }
    net.excess[x] -= amount;
    net.excess[t] += amount;
    return resume;
  }
}
