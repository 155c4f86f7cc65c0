/** What an `Uploads` list holds: each item keeps its own place in it (-1 when not listed). */
export interface Upload {
  readingAt: number;
}

/**
 * The requests still reading their body (shutdown answers them 503 at its cap). A list whose
 * items keep their own place, so listing and unlisting allocate nothing and cost a few
 * instructions; a `Set` spent ~140 ns and ~140 bytes on each body request (a fresh object's
 * identity hash, then a rehash as the set shrank back).
 */
export class Uploads<T extends Upload = Upload> {
  readonly #items: T[] = [];

  get size(): number {
    return this.#items.length;
  }

  add(item: T): void {
    if (item.readingAt >= 0) return;
    item.readingAt = this.#items.length;
    this.#items.push(item);
  }

  /** Unlists `item` (its place goes to the last item). */
  delete(item: T): void {
    const items = this.#items;
    const at = item.readingAt;
    if (at < 0 || items[at] !== item) return;
    item.readingAt = -1;
    const last = items.pop()!;
    if (last === item) return;
    items[at] = last;
    last.readingAt = at;
  }

  /** Unlists every item and returns them (a copy: answering one may unlist others). */
  takeAll(): T[] {
    const all = this.#items.splice(0);
    for (const item of all) item.readingAt = -1;
    return all;
  }
}
