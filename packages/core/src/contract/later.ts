/**
 * Who waits on a `Later` without a closure: an object whose `settled` is called (the runner's
 * state of one run, a mapped `Later`). One per request on a body route, where a closure and its
 * context per wait cost ~80 bytes each.
 */
export interface Waiter {
  settled(ok: boolean, value: unknown): void;
}

type Callback = (ok: boolean, value: unknown) => void;

/**
 * A value core's body binders deliver later, to a waiter. The runner resumes from that call in
 * the same tick as the body's last chunk, where a Promise would cost two allocations and a
 * microtask hop per request. Only core's own binders return one, and only to core's runner:
 * nothing outside core ever sees a `Later`.
 */
export class Later<T> {
  #state: 'pending' | 'ok' | 'failed' = 'pending';
  #value: unknown = undefined;
  #waiter: Waiter | Callback | undefined = undefined;
  #more: Array<Waiter | Callback> | undefined = undefined;

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

  /** Calls `waiter` (or its `settled`) once settled: at once when it already is, else from the settling call. */
  onSettled(waiter: Waiter | Callback): void {
    if (this.#state !== 'pending') call(waiter, this.#state === 'ok', this.#value);
    else if (this.#waiter === undefined) this.#waiter = waiter;
    else (this.#more ??= []).push(waiter);
  }

  /** A `Later` of `map(value)`; a throw from `map` fails it. */
  map<U>(map: (value: T) => U): Later<U> {
    const next = new Mapped(map);
    this.onSettled(next);
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
    if (waiter !== undefined) call(waiter, state === 'ok', value);
    if (more !== undefined) for (const w of more) call(w, state === 'ok', value);
  }
}

function call(waiter: Waiter | Callback, ok: boolean, value: unknown): void {
  if (typeof waiter === 'function') waiter(ok, value);
  else waiter.settled(ok, value);
}

/** `later.map(fn)`: one object that is both the source's waiter and the mapped `Later`. */
class Mapped<T, U> extends Later<U> implements Waiter {
  readonly #map: (value: T) => U;

  constructor(map: (value: T) => U) {
    super();
    this.#map = map;
  }

  settled(ok: boolean, value: unknown): void {
    if (!ok) return this.fail(value);
    let mapped: U;
    try {
      mapped = this.#map(value as T);
    } catch (error) {
      return this.fail(error);
    }
    this.resolve(mapped);
  }
}
