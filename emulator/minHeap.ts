/**
 * A binary min-heap of numbers: the finish times of unfinished single runs, so counting the runs
 * in flight costs O(log n) per finished run instead of a scan of every run.
 *
 * @example
 * ```ts
 * const heap = new MinHeap();
 * heap.push(30); heap.push(10);
 * heap.peek(); // 10
 * ```
 */
export class MinHeap {
  private readonly items: number[] = [];

  /** How many numbers the heap holds. */
  get size(): number {
    return this.items.length;
  }

  /** The smallest number, or `undefined` when empty. */
  peek(): number | undefined {
    return this.items[0];
  }

  /** Adds a number. */
  push(value: number): void {
    const items = this.items;
    items.push(value);
    let index = items.length - 1;
    while (index > 0) {
      const parent = (index - 1) >> 1;
      if (items[parent] <= value) break;
      items[index] = items[parent];
      index = parent;
    }
    items[index] = value;
  }

  /** Removes and returns the smallest number, or `undefined` when empty. */
  pop(): number | undefined {
    const items = this.items;
    const top = items[0];
    const last = items.pop();
    if (items.length === 0 || last === undefined) return top;
    let index = 0;
    for (;;) {
      const left = 2 * index + 1;
      if (left >= items.length) break;
      const right = left + 1;
      const child = right < items.length && items[right] < items[left] ? right : left;
      if (items[child] >= last) break;
      items[index] = items[child];
      index = child;
    }
    items[index] = last;
    return top;
  }

  /** Empties the heap. */
  clear(): void {
    this.items.length = 0;
  }
}
