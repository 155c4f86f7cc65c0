/**
 * A FIFO of (route, item) pairs in one growable circular array: O(1) push and shift without
 * `Array.prototype.shift` (which copies the whole array on large queues) and without a wrapper
 * object per item. The capacity doubles when full; the queue's `maxsize` is enforced by the
 * caller, not here.
 */
export class Ring<TRoute, TItem> {
  // Interleaved slots: [route0, item0, route1, item1, …]; `#head` and `#size` count pairs.
  #slots: unknown[];
  #mask: number;
  #head = 0;
  #size = 0;

  /** @param initial - The initial capacity in pairs (rounded up to a power of two). */
  constructor(initial = 16) {
    let capacity = 4;
    while (capacity < initial) capacity *= 2;
    this.#slots = new Array<unknown>(capacity * 2);
    this.#mask = capacity - 1;
  }

  /** Number of pairs held. */
  get size(): number {
    return this.#size;
  }

  /** Appends a pair at the tail. */
  push(route: TRoute, item: TItem): void {
    if (this.#size > this.#mask) this.#grow();
    const at = ((this.#head + this.#size) & this.#mask) * 2;
    this.#slots[at] = route;
    this.#slots[at + 1] = item;
    this.#size++;
  }

  /** The route of the head pair (call only when `size > 0`). */
  headRoute(): TRoute {
    return this.#slots[this.#head * 2] as TRoute;
  }

  /** The item of the head pair (call only when `size > 0`). */
  headItem(): TItem {
    return this.#slots[this.#head * 2 + 1] as TItem;
  }

  /** Removes the head pair (call only when `size > 0`); its slots are cleared for the GC. */
  dropHead(): void {
    const at = this.#head * 2;
    this.#slots[at] = undefined;
    this.#slots[at + 1] = undefined;
    this.#head = (this.#head + 1) & this.#mask;
    this.#size--;
  }

  /** Removes every pair. */
  clear(): void {
    while (this.#size > 0) this.dropHead();
    this.#head = 0;
  }

  #grow(): void {
    const capacity = this.#mask + 1;
    const next = new Array<unknown>(capacity * 4);
    for (let i = 0; i < this.#size; i++) {
      const from = ((this.#head + i) & this.#mask) * 2;
      next[i * 2] = this.#slots[from];
      next[i * 2 + 1] = this.#slots[from + 1];
    }
    this.#slots = next;
    this.#mask = capacity * 2 - 1;
    this.#head = 0;
  }
}
