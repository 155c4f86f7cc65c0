// The Redis store's timeouts: one interval for every call in flight instead of a timer per call.
// Calls join a FIFO list stamped with the tick at which they expire; a sweep every quarter of the
// timeout advances the tick and fails the calls whose tick has come. Nothing per call but the list
// node: no clock read, no timer to arm and clear. The interval runs only while calls are waiting.

/** One call waiting for its answer (a list node). */
export interface Waiting {
  /** Fails the call (the timeout). */
  readonly fail: (error: Error) => void;
  /** The sweep tick at which the call expires. */
  expires: number;
  /** True once it was answered or failed: the sweep passes it by. */
  done: boolean;
  next: Waiting | undefined;
}

/** What a `Deadlines` needs: the timeout and the error a late call fails with. */
export interface DeadlineOptions {
  /** A call not settled within this many milliseconds fails (at most a quarter more, + timer lag). */
  readonly timeoutMs: number;
  /** The error of a call that timed out. */
  readonly timedOut: () => Error;
}

/**
 * Timeouts shared by every call in flight. A call added at tick `t` fails at tick `t + ticks`
 * where `(ticks − 1) × period ≥ timeoutMs`: never before `timeoutMs`, at most one period (a
 * quarter of the timeout, rounded up) after it, plus the event loop's lag. Calls settle in any
 * order; answered ones are unlinked from the head as they come (Redis answers one connection in
 * order), so the list holds about what is in flight.
 */
export class Deadlines {
  /** Milliseconds between sweeps. */
  readonly period: number;
  /** Sweeps a call waits at most. */
  readonly ticks: number;
  #tick = 0;
  #head: Waiting | undefined;
  #tail: Waiting | undefined;
  #timer: ReturnType<typeof setInterval> | undefined;
  readonly #timedOut: () => Error;

  constructor(options: DeadlineOptions) {
    this.period = Math.max(1, Math.ceil(options.timeoutMs / 4));
    this.ticks = Math.ceil(options.timeoutMs / this.period) + 1;
    this.#timedOut = options.timedOut;
  }

  /** Starts the clock of a call: `fail` runs once it is due, unless `settle(call)` ran first. */
  add(fail: (error: Error) => void): Waiting {
    const call: Waiting = { fail, expires: this.#tick + this.ticks, done: false, next: undefined };
    if (this.#tail === undefined) this.#head = call;
    else this.#tail.next = call;
    this.#tail = call;
    if (this.#timer === undefined) {
      this.#timer = setInterval(() => this.#sweep(), this.period);
      // A call in flight keeps the process alive through its socket; the sweep alone must not.
      this.#timer.unref();
    }
    return call;
  }

  /** The call was answered (or failed otherwise): it no longer times out. */
  settle(call: Waiting): void {
    call.done = true;
    let head = this.#head;
    while (head !== undefined && head.done) head = head.next;
    this.#head = head;
    if (head === undefined) this.#tail = undefined;
  }

  /** Calls not yet settled. */
  get pending(): number {
    let n = 0;
    for (let c = this.#head; c !== undefined; c = c.next) if (!c.done) n++;
    return n;
  }

  #sweep(): void {
    const tick = ++this.#tick;
    let head = this.#head;
    while (head !== undefined && (head.done || head.expires <= tick)) {
      if (!head.done) {
        head.done = true;
        head.fail(this.#timedOut());
      }
      head = head.next;
    }
    // Calls behind a later one that is still waiting stay linked until it settles or expires:
    // every call in the list expires no earlier than the ones before it.
    this.#head = head;
    if (head === undefined) {
      this.#tail = undefined;
      this.#stop();
    }
  }

  #stop(): void {
    if (this.#timer !== undefined) clearInterval(this.#timer);
    this.#timer = undefined;
  }
}
