/**
 * Disjoint sets of vertices numbered from 0: union-find with path halving and union by size, so that any
 * sequence of operations costs next to nothing per call. The sets grow on demand, for callers that number
 * vertices as they meet them and cannot say up front how many there will be.
 */
export class UnionFind {
  private parent: Int32Array;
  private size: Int32Array;
  /** Vertices 0..count-1 are in some set; the arrays may hold room for more. */
  private count = 0;

  /** Sets for vertices 0..n-1, each alone in its own set; more join as `find` meets them. */
  constructor(n = 0) {
    this.parent = new Int32Array(Math.max(n, 8));
    this.size = new Int32Array(this.parent.length);
    this.include(n - 1);
  }

  /** The representative of the set holding `v`. */
  find(v: number): number {
    if (v >= this.count) this.include(v);
    const parent = this.parent;
    while (parent[v] !== v) v = parent[v] = parent[parent[v]];
    return v;
  }

  /** True when `a` and `b` are in one set. */
  same(a: number, b: number): boolean {
    return this.find(a) === this.find(b);
  }

  /** Joins the sets of `a` and `b`; false when they were one set already. */
  union(a: number, b: number): boolean {
    let x = this.find(a);
    let y = this.find(b);
    if (x === y) return false;
    if (this.size[x] < this.size[y]) [x, y] = [y, x];
    this.parent[y] = x;
    this.size[x] += this.size[y];
    return true;
  }

  /** Makes vertices up to `v` singletons, growing the arrays by doubling. */
  private include(v: number): void {
    if (v >= this.parent.length) {
      const capacity = Math.max(v + 1, this.parent.length * 2);
      const parent = new Int32Array(capacity);
      const size = new Int32Array(capacity);
      parent.set(this.parent);
      size.set(this.size);
      this.parent = parent;
      this.size = size;
    }
    for (let u = this.count; u <= v; u++) {
      this.parent[u] = u;
      this.size[u] = 1;
    }
    this.count = Math.max(this.count, v + 1);
  }
}
