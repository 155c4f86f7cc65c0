/**
 * A value core's body binders deliver later, through a callback. The runner resumes from that
 * callback in the same tick as the body's last chunk, where a Promise would cost two allocations
 * and a microtask hop per request. Only core's own binders return one, and only to core's runner:
 * nothing outside core ever sees a `Later`.
 */
export class Later<T> {
  #state: 'pending' | 'ok' | 'failed' = 'pending';
  #value: unknown = undefined;
  #waiter: ((ok: boolean, value: unknown) => void) | undefined = undefined;
  #more: Array<(ok: boolean, value: unknown) => void> | undefined = undefined;

  /** A `Later` already failed with `error`. */
  static failed<T>(error: unknown): Later<T> {
    const later = new Later<T>();
    later.fail(error);
    return later;
  }

  resolve(value: T): void {
    this.#settle('ok', value);
  }

  fail(error: unknown): void {
    this.#settle('failed', error);
  }

  /** Calls `callback` once settled: at once when it already is, else from the settling call. */
  onSettled(callback: (ok: boolean, value: unknown) => void): void {
    if (this.#state !== 'pending') callback(this.#state === 'ok', this.#value);
    else if (this.#waiter === undefined) this.#waiter = callback;
    else (this.#more ??= []).push(callback);
  }

  /** A `Later` of `map(value)`; a throw from `map` fails it. */
  map<U>(map: (value: T) => U): Later<U> {
    const next = new Later<U>();
    this.onSettled((ok, value) => {
      if (!ok) return next.fail(value);
      let mapped: U;
      try {
        mapped = map(value as T);
      } catch (error) {
        return next.fail(error);
      }
      next.resolve(mapped);
    });
    return next;
  }

  #settle(state: 'ok' | 'failed', value: unknown): void {
    if (this.#state !== 'pending') return;
    this.#state = state;
    this.#value = value;
    const waiter = this.#waiter;
    const more = this.#more;
    this.#waiter = undefined;
    this.#more = undefined;
    if (waiter !== undefined) waiter(state === 'ok', value);
    if (more !== undefined) for (const callback of more) callback(state === 'ok', value);
  }
}
