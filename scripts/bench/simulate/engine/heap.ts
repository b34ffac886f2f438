/** A binary min-heap: the scheduler's event queue and the queues' visibility orders. */

/**
 * A binary min-heap ordered by `before`. Ties must be broken by the caller (an insertion sequence), so
 * that the order, and with it every simulation, is deterministic.
 */
export class BinaryHeap<T> {
  private readonly items: T[] = [];

  constructor(private readonly before: (a: T, b: T) => boolean) {}

  /** Number of items held (stale ones included, for callers that invalidate lazily). */
  get size(): number {
    return this.items.length;
  }

  /** The first item without removing it. */
  peek(): T | undefined {
    return this.items[0];
  }

  push(item: T): void {
    const items = this.items;
    items.push(item);
    let child = items.length - 1;
    while (child > 0) {
      const parent = (child - 1) >> 1;
      const above = items[parent] as T;
      if (!this.before(item, above)) break;
      items[child] = above;
      child = parent;
    }
    items[child] = item;
  }

  pop(): T | undefined {
    const items = this.items;
    const top = items[0];
    const last = items.pop();
    if (items.length === 0 || last === undefined) return top;
    const size = items.length;
    let parent = 0;
    for (;;) {
      const left = 2 * parent + 1;
      if (left >= size) break;
      const right = left + 1;
      const child = right < size && this.before(items[right] as T, items[left] as T) ? right : left;
      const candidate = items[child] as T;
      if (!this.before(candidate, last)) break;
      items[parent] = candidate;
      parent = child;
    }
    items[parent] = last;
    return top;
  }
}
