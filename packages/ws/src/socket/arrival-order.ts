// Inbound messages whose validation may answer a promise (a Standard Schema's async refinement)
// are handed on in the order they arrived: each waits for the one before it.

/** The messages of one socket still being checked, in arrival order. */
export class ArrivalOrder {
  /** The last message still settling, until it is handed on. */
  #last: Promise<void> | undefined;
  /** Messages still being checked (they count toward the socket's read pause). */
  pending = 0;

  /**
   * Hands `decoded` (a value, or a promise of one) to `deliver` once every earlier message has
   * been handed on: at once when nothing is waiting and it is a value. `decoded` never rejects
   * (the codec answers a `Refusal` for a schema that threw).
   */
  add(decoded: unknown, deliver: (value: unknown) => void): void {
    if (this.#last === undefined && !(decoded instanceof Promise)) {
      deliver(decoded);
      return;
    }
    const before = this.#last;
    this.pending++;
    const settled: Promise<void> = Promise.all([decoded, before]).then(([value]) => {
      this.pending--;
      if (this.#last === settled) this.#last = undefined;
      deliver(value);
    });
    this.#last = settled;
  }
}
