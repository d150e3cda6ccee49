/**
 * A binary min-heap of (key, value) pairs kept in typed arrays, so that Dijkstra on a 50,000-edge model
 * allocates nothing per push. There is no decrease-key: callers push again and skip stale pops, which is
 * simpler and, on sparse graphs, as fast.
 */
export class MinHeap {
  private keys: Float64Array;
  private values: Int32Array;
  private count = 0;
  /** The key of the value that {@link pop} returned last. */
  lastKey = 0;

  constructor(capacity = 64) {
    this.keys = new Float64Array(Math.max(4, capacity));
    this.values = new Int32Array(Math.max(4, capacity));
  }

  get size(): number {
    return this.count;
  }

  clear(): void {
    this.count = 0;
  }

  push(key: number, value: number): void {
    if (this.count === this.keys.length) this.grow();
    let i = this.count++;
    while (i > 0) {
      const parent = (i - 1) >> 1;
      if (this.keys[parent] <= key) break;
      this.keys[i] = this.keys[parent];
      this.values[i] = this.values[parent];
      i = parent;
    }
    this.keys[i] = key;
    this.values[i] = value;
  }

  /** Removes the entry with the smallest key and returns its value (its key is then in {@link lastKey}). */
  pop(): number {
    const value = this.values[0];
    this.lastKey = this.keys[0];
    const last = --this.count;
    if (last > 0) this.siftDown(this.keys[last], this.values[last], last);
    return value;
  }

  private siftDown(key: number, value: number, size: number): void {
    let i = 0;
    for (;;) {
      let child = 2 * i + 1;
      if (child >= size) break;
      if (child + 1 < size && this.keys[child + 1] < this.keys[child]) child++;
      if (this.keys[child] >= key) break;
      this.keys[i] = this.keys[child];
      this.values[i] = this.values[child];
      i = child;
    }
    this.keys[i] = key;
    this.values[i] = value;
  }

  private grow(): void {
    const keys = new Float64Array(this.keys.length * 2);
    const values = new Int32Array(this.values.length * 2);
    keys.set(this.keys);
    values.set(this.values);
    this.keys = keys;
    this.values = values;
  }
}
