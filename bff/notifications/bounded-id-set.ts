/**
 * A set of ids that remembers at most `capacity` of them, forgetting the oldest first. Dedupe by
 * notification id with a fixed memory bound per traveler.
 */
/** Throws unless `capacity` is a positive integer (a bound of a per-traveler memory). */
export function assertCapacity(capacity: number): void {
  if (!Number.isInteger(capacity) || capacity < 1)
    throw new RangeError('capacity must be a positive integer');
}

export class BoundedIdSet {
  readonly #capacity: number;
  readonly #ids = new Set<string>();

  constructor(capacity: number) {
    assertCapacity(capacity);
    this.#capacity = capacity;
  }

  get size(): number {
    return this.#ids.size;
  }

  has(id: string): boolean {
    return this.#ids.has(id);
  }

  /** Adds the id; returns false when it was already present (a duplicate). */
  add(id: string): boolean {
    if (this.#ids.has(id)) return false;
    this.#ids.add(id);
    if (this.#ids.size > this.#capacity) {
      const oldest = this.#ids.values().next();
      if (!oldest.done) this.#ids.delete(oldest.value);
    }
    return true;
  }
}
