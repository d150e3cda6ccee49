/** Items `0 .. itemCount-1` bucketed by an integer key (a compressed-sparse-row index), in item order per bucket. */
export class Grouped {
  private constructor(
    private readonly start: Int32Array,
    private readonly list: Int32Array,
  ) {}

  /** Buckets the items by `keyOf(item)`, a key below `keyCount`, or -1 to leave the item out. O(items + keys). */
  static by(keyCount: number, itemCount: number, keyOf: (item: number) => number): Grouped {
    const start = new Int32Array(keyCount + 1);
    for (let i = 0; i < itemCount; i++) {
      const k = keyOf(i);
      if (k >= 0) start[k + 1]++;
    }
    for (let k = 0; k < keyCount; k++) start[k + 1] += start[k];
    const fill = start.slice(0, keyCount);
    const list = new Int32Array(start[keyCount]);
    for (let i = 0; i < itemCount; i++) {
      const k = keyOf(i);
      if (k >= 0) list[fill[k]++] = i;
    }
    return new Grouped(start, list);
  }

  /** The items with this key (a view, no copy). */
  items(key: number): Int32Array {
    return this.list.subarray(this.start[key], this.start[key + 1]);
  }
}
