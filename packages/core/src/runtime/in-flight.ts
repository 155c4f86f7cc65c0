import { setMaxListeners } from 'node:events';
import type { Duplex } from 'node:stream';
import { ServiceUnavailableError } from '../errors';
import type { BindingExchange } from '../binding/binders';
import { Uploads } from '../binding/uploads';
import type { CoreExchange } from './exchange';
import type { WireResponse } from '../contract/wire';
import type { RequestControl } from './request-control';

/**
 * Shutdown accounting: what is in flight (requests until their response closes, sockets taken
 * over by upgrade routes until they close, requests still reading their body) and the signal that
 * tells long responses to end. The runtime is one (it extends this class: the counters sit on the
 * object every request already holds, no extra hop); `lifecycle/shutdown.ts` drives the phases.
 */
export class InFlight {
  /** True once shutdown began: responses carry `connection: close`. */
  draining = false;
  readonly #shutdown = new AbortController();
  /** Requests whose `signal` is live: aborted at the shutdown cap. */
  readonly signalled = new Set<RequestControl>();
  /** True once the shutdown cap was reached. */
  capped = false;
  /** Set by `markUnready()` (SIGTERM under `serve()`): readiness answers 503 before draining begins. */
  #unready = false;
  /** Requests whose response has not closed yet. */
  inFlight = 0;
  /** Sockets taken over by upgrade routes, until they close. */
  readonly upgraded = new Set<Duplex>();
  /** Requests still reading their body (answered 503 by `refuseReading` when shutdown hits its cap). */
  readonly reading = new Uploads<BindingExchange>();
  #idle: (() => void) | undefined;

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

  /** Resolves when no request is in flight and no upgraded socket is open. */
  whenIdle(): Promise<void> {
    if (this.#isIdle()) return Promise.resolve();
    return new Promise((resolve) => (this.#idle = resolve));
  }

  /** Answers every request still uploading its body 503 (the shutdown cap was reached); node then closes them. */
  refuseReading(): void {
    for (const ex of this.reading.takeAll()) {
      ex.closeAfter = true;
      ex.fail(new ServiceUnavailableError());
    }
  }

  /** Destroys every upgraded socket still open (the shutdown cap was reached). */
  destroyUpgraded(): void {
    for (const socket of this.upgraded) socket.destroy();
  }

  /** Counts a request in flight until its response closes. */
  track(res: WireResponse): void {
    this.inFlight++;
    // 'on', not 'once': no wrapper per request; the response object is dropped after 'close' anyway.
    res.on('close', this.#onClose);
  }

  /**
   * An upgrade route took the connection over: the socket is tracked (shutdown waits for it)
   * instead of the request.
   */
  adopt(ex: CoreExchange, socket: Duplex): void {
    ex.res.off('close', this.#onClose);
    this.inFlight--;
    this.upgraded.add(socket);
    socket.once('close', () => {
      this.upgraded.delete(socket);
      this.#checkIdle();
    });
  }

  #isIdle(): boolean {
    return this.inFlight === 0 && this.upgraded.size === 0;
  }

  #checkIdle(): void {
    if (this.#idle !== undefined && this.#isIdle()) {
      const idle = this.#idle;
      this.#idle = undefined;
      idle();
    }
  }

  readonly #onClose = (): void => {
    this.inFlight--;
    this.#checkIdle();
  };
}
