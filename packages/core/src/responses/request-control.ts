// A request's cancellation and deadline: the `signal` binding source and `limits.deadlineMs`.
// Only plans that bind `signal` or have a deadline create one (decided at wiring).
import { setMaxListeners } from 'node:events';
import { DeadlineExceededError } from '../errors';
import type { Logger } from '../logging/logger';
import type { RouteInfo } from '../contract/route-info';
import type { WireResponse } from '../contract/wire';

/** What a request's control reads of its exchange (`CoreExchange` is one). */
export interface ControlledExchange {
  readonly res: WireResponse;
  readonly method: string;
  readonly path: string;
  readonly route: RouteInfo | undefined;
  readonly requestId: string;
  readonly log: Logger;
  readonly runtime: CapWatch;
  /** The exchange's control, when its plan has one. */
  control: RequestControl | undefined;
  fail(error: unknown): void;
}

/**
 * The runtime's side of the shutdown cap: the requests whose signal is live (a set, so a request
 * joins and leaves in O(1) however many are in flight), aborted together when the cap is reached.
 */
export interface CapWatch {
  /** True once the cap was reached. */
  readonly capped: boolean;
  readonly signalled: Set<RequestControl>;
}

/** What a deadline is named in logs and in the signal's reason. */
const TIMEOUT = 'TimeoutError';

/**
 * One request's cancellation: its `AbortSignal` (made when a binder asks for it) and its deadline
 * timer. The signal aborts when the response closes before it was complete (the client left, or
 * the answer was cut), when the deadline passes before the head went out, and at the shutdown
 * cap. A deadline that passes answers `503` once (`DeadlineExceededError`); from then on the
 * route's late result and late failures are dropped, logged once. Everything it holds is let go
 * when the response closes.
 */
export class RequestControl {
  readonly ex: ControlledExchange;
  readonly deadlineMs: number | undefined;
  /** True once the deadline answered: what the route produces later is dropped. */
  expired = false;
  #controller: AbortController | undefined = undefined;
  #timer: NodeJS.Timeout | undefined = undefined;
  #lateLogged = false;
  /** The response closed: nothing is watched any more. */
  #done = false;

  constructor(ex: ControlledExchange, deadlineMs: number | undefined) {
    this.ex = ex;
    this.deadlineMs = deadlineMs;
    // Event-driven, not polled: node emits 'close' on the response the moment its socket closes.
    ex.res.on('close', this.#closed);
    if (deadlineMs !== undefined) this.#timer = setTimeout(deadlinePassed, deadlineMs, this);
  }

  /** The request's signal, made on first use. */
  get signal(): AbortSignal {
    let controller = this.#controller;
    if (controller === undefined) {
      controller = this.#controller = new AbortController();
      // Handlers pass it on to many listeners (queries, fetches, timers): no listener cap warning.
      setMaxListeners(0, controller.signal);
      const runtime = this.ex.runtime;
      if (this.#done) {
        if (!this.ex.res.writableFinished) controller.abort(abortError('the client went away'));
      } else if (runtime.capped) controller.abort(CAP_REACHED());
      else runtime.signalled.add(this);
    }
    return controller.signal;
  }

  /** Aborts the signal (when one was made) with `reason`. */
  abort(reason: DOMException): void {
    const controller = this.#controller;
    if (controller !== undefined && !controller.signal.aborted) controller.abort(reason);
  }

  /**
   * The route produced something after its deadline answered (`error`: it failed): dropped, and
   * logged once with the route and the request id.
   */
  late(error: unknown): void {
    if (this.#lateLogged) return;
    this.#lateLogged = true;
    const ex = this.ex;
    ex.log.warn(
      `${ex.method} ${ex.path}: the ${error === undefined ? 'result' : 'failure'} came after the ` +
        `deadline (${this.deadlineMs} ms) had answered 503; dropped`,
      error,
      { route: ex.route?.path, requestId: ex.requestId, deadlineMs: this.deadlineMs },
    );
  }

  readonly #closed = (): void => {
    this.#done = true;
    clearTimeout(this.#timer);
    this.#timer = undefined;
    if (this.#controller !== undefined) this.ex.runtime.signalled.delete(this);
    // Closed before the whole answer went out: the client left (or the answer was cut).
    if (!this.ex.res.writableFinished) this.abort(abortError('the client went away'));
  };

  /** The shutdown cap was reached (the runtime calls it on every live signal). */
  capReached(): void {
    this.abort(CAP_REACHED());
  }
}

/** The deadline passed: answers 503 unless the head is out (a stream past its head runs on). */
function deadlinePassed(control: RequestControl): void {
  const ex = control.ex;
  if (ex.res.headersSent || ex.res.writableEnded) return;
  ex.fail(new DeadlineExceededError());
  control.expired = true;
  control.abort(new DOMException(`the deadline of ${control.deadlineMs} ms passed`, TIMEOUT));
}

const CAP_REACHED = (): DOMException => abortError('the shutdown cap was reached');

function abortError(message: string): DOMException {
  return new DOMException(message, 'AbortError');
}

/** The `signal` source's binder: the request's signal (its plan made the control). */
export function signalOf(ex: object): AbortSignal {
  return (ex as { readonly control: RequestControl }).control.signal;
}

/**
 * Wraps an operation's handler on a route with a deadline: a handler whose binding finished
 * after the deadline answered is not run (its result would be dropped).
 */
export function skipWhenExpired<TEx extends object>(
  invoke: (input: Record<string, unknown>, ex: TEx) => unknown,
): (input: Record<string, unknown>, ex: TEx) => unknown {
  return (input, ex) => {
    const control = (ex as { readonly control?: RequestControl | undefined }).control;
    if (control?.expired === true) {
      control.late(undefined);
      return LATE;
    }
    return invoke(input, ex);
  };
}

/** Wraps an operation's writer on a route with a deadline: a value that comes after it is dropped. */
export function dropWhenExpired<TEx extends object, TOut>(
  write: (value: unknown, ex: TEx) => TOut,
): (value: unknown, ex: TEx) => TOut | undefined {
  return (value, ex) => {
    if (value === LATE) return undefined;
    const control = (ex as { readonly control?: RequestControl | undefined }).control;
    if (control?.expired === true) {
      control.late(undefined);
      return undefined;
    }
    return write(value, ex);
  };
}

/** What a skipped handler "returns": the writer drops it. */
const LATE: unique symbol = Symbol('late');
