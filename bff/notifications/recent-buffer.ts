import { assertCapacity } from './bounded-id-set.ts';

/**
 * The last `capacity` items in delivery order, for Last-Event-ID resume. `after(id)` returns what came
 * after `id` only when `id` is still held: otherwise continuity cannot be proven and the caller resyncs.
 */
export class RecentBuffer<T extends { id: string }> {
  readonly #capacity: number;
  #items: T[] = [];

  constructor(capacity: number) {
    assertCapacity(capacity);
    this.#capacity = capacity;
  }

  get size(): number {
    return this.#items.length;
  }

  /** Everything held, oldest first. */
  items(): readonly T[] {
    return this.#items;
  }

  push(item: T): void {
    this.#items.push(item);
    if (this.#items.length > this.#capacity) this.#items = this.#items.slice(-this.#capacity);
  }

  after(id: string): { found: true; items: T[] } | { found: false } {
    const index = this.#items.findLastIndex((item) => item.id === id);
    if (index === -1) return { found: false };
    return { found: true, items: this.#items.slice(index + 1) };
  }
}
