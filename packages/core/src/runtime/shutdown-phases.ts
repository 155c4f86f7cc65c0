import { setMaxListeners } from 'node:events';
import type { RequestControl } from '../responses/request-control';

/**
 * Where shutdown stands, as the request path reads it: draining (responses say `connection:
 * close`), the cap (requests' own signals abort), readiness, and the app's shutdown signal. The
 * runtime is one (through `InFlight`); `lifecycle/shutdown.ts` drives the phases.
 */
export class ShutdownPhases {
  /** True once shutdown began: responses carry `connection: close`. */
  draining = false;
  readonly #shutdown = new AbortController();
  /** Requests whose `signal` is live: aborted at the shutdown cap. */
  readonly signalled = new Set<RequestControl>();
  /** True once the shutdown cap was reached. */
  capped = false;
  /** Set by `markUnready()` (SIGTERM under `serve()`): readiness answers 503 before draining begins. */
  #unready = false;

  constructor() {
    // One listener per open stream: thousands of SSE clients are normal, not a leak.
    setMaxListeners(0, this.#shutdown.signal);
  }

  /** True while the app serves and neither shutdown nor `markUnready()` began: readiness answers 200. */
  get ready(): boolean {
    return !this.draining && !this.#unready;
  }

  /** Readiness answers 503 from now on (the app still serves: a load balancer takes it out first). */
  markUnready(): void {
    this.#unready = true;
  }

  /** The shutdown cap was reached: the requests' own signals abort. */
  reachCap(): void {
    this.capped = true;
    for (const control of this.signalled) control.capReached();
    this.signalled.clear();
  }

  /** Aborted by `beginShutdown()`; every open stream may listen (no listener cap). */
  get shutdownSignal(): AbortSignal {
    return this.#shutdown.signal;
  }

  /** The first shutdown phase: new responses say `connection: close`, long responses are told to end. */
  beginShutdown(): void {
    if (this.draining) return;
    this.draining = true;
    this.#shutdown.abort();
  }
}
