/**
 * The elements not yet visited, in element-index order (vertices, then edges), with O(1) removal: a doubly
 * linked list over typed arrays. Listing costs O(unvisited), independent of the model's size.
 */
export class UnvisitedList {
  private readonly next: Int32Array;
  private readonly prev: Int32Array;
  /** The sentinel: next[head] is the first unvisited element, prev[head] the last. */
  private readonly head: number;

  constructor(size: number) {
    this.head = size;
    this.next = new Int32Array(size + 1);
    this.prev = new Int32Array(size + 1);
    this.reset();
  }

  /** Every element unvisited again. */
  reset(): void {
    const n = this.head;
    for (let i = 0; i <= n; i++) {
      this.next[i] = i === n ? (n === 0 ? n : 0) : i + 1;
      this.prev[i] = i === 0 ? n : i - 1;
    }
    this.prev[n] = n === 0 ? n : n - 1;
  }

  /** Takes an element out of the list; it must be in it. */
  remove(element: number): void {
    const p = this.prev[element];
    const n = this.next[element];
    this.next[p] = n;
    this.prev[n] = p;
  }

  /** The unvisited elements in index order. */
  *[Symbol.iterator](): IterableIterator<number> {
    for (let e = this.next[this.head]; e !== this.head; e = this.next[e]) yield e;
  }
}
