import { describeValue, wiringError } from '../contract/wiring-error';

/**
 * A case-insensitive, immutable view of headers that keeps the as-sent names and order.
 * Behaves like a read-only `Map<string, string>` (first value per name) plus multi-value access.
 *
 * @example
 * rawHeaders.get('X-Checksum'); rawHeaders.getlist('x-checksum'); rawHeaders.multiItems();
 */
export class RawHeadersView implements Iterable<[string, string]> {
  readonly #flat: readonly string[];
  #index: Map<string, number[]> | undefined;

  /** @param flat alternating names and values, as `IncomingMessage.rawHeaders` */
  constructor(flat: readonly string[]) {
    if (!Array.isArray(flat))
      throw wiringError(
        'API_WIRING_INVALID_ARGUMENT',
        'new RawHeadersView(flat)',
        'expected alternating names and values (an array, as ' +
          `IncomingMessage.rawHeaders), got ${describeValue(flat)}`,
        "new RawHeadersView(['X-Id', '1'])",
      );
    this.#flat = flat;
    Object.freeze(this);
  }

  #lookup(): Map<string, number[]> {
    if (this.#index) return this.#index;
    const index = new Map<string, number[]>();
    for (let i = 0; i < this.#flat.length; i += 2) {
      const key = this.#flat[i]!.toLowerCase();
      const list = index.get(key);
      if (list) list.push(i);
      else index.set(key, [i]);
    }
    this.#index = index;
    return index;
  }

  /** The first value sent for `key` (any case), or `fallback`. */
  get(key: string): string | undefined;
  get<T>(key: string, fallback: T): string | T;
  get<T>(key: string, fallback?: T): string | T | undefined {
    const at = this.#lookup().get(key.toLowerCase());
    return at ? this.#flat[at[0]! + 1]! : fallback;
  }
  /** Every value sent for `key`, in order. */
  getlist(key: string): string[] {
    return (this.#lookup().get(key.toLowerCase()) ?? []).map((i) => this.#flat[i + 1]!);
  }
  has(key: string): boolean {
    return this.#lookup().has(key.toLowerCase());
  }
  /** Distinct header names as first sent. */
  keys(): string[] {
    return [...this.#lookup().values()].map((at) => this.#flat[at[0]!]!);
  }
  /** The first value of each distinct header. */
  values(): string[] {
    return [...this.#lookup().values()].map((at) => this.#flat[at[0]! + 1]!);
  }
  /** `[name, firstValue]` per distinct header, names as first sent. */
  items(): [string, string][] {
    return [...this.#lookup().values()].map((at) => [this.#flat[at[0]!]!, this.#flat[at[0]! + 1]!]);
  }
  /** Every `[name, value]` pair as sent, repeats included. */
  multiItems(): [string, string][] {
    const out: [string, string][] = [];
    for (let i = 0; i < this.#flat.length; i += 2) out.push([this.#flat[i]!, this.#flat[i + 1]!]);
    return out;
  }
  get size(): number {
    return this.#lookup().size;
  }
  [Symbol.iterator](): Iterator<[string, string]> {
    return this.items()[Symbol.iterator]();
  }
}
