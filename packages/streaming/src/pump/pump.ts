import type { Logger } from '@api/core/extension';
import { isAsyncIterable } from './stream-source';

/**
 * What a pump writes to: core's `ResponseSink` on the wire (every byte through core, and through
 * the route's body transform), a small fake in unit tests.
 */
export interface StreamTarget {
  write(chunk: string | Uint8Array): boolean;
  end(): void;
  /** Ends the connection without the terminating chunk (what was written still goes out). */
  cut(): void;
  /** Sends the head now, before any body (node:http otherwise holds it until the first write). */
  flushHeaders?(): void;
  /** Bytes accepted by `write` and not yet handed to the kernel. */
  readonly writableLength: number;
  on(event: 'close' | 'drain', listener: () => void): unknown;
  off(event: 'close' | 'drain', listener: () => void): unknown;
}

/** How a pump encodes, pings and reports. */
export interface PumpOptions {
  /** Turns one item into its wire chunk; throws when the item cannot be sent. */
  readonly encode: (item: unknown) => string | Uint8Array;
  /** Idle milliseconds before `ping` is written; undefined: never. */
  readonly keepaliveMs?: number | undefined;
  /** The keepalive chunk (SSE: `: ping\n\n`). */
  readonly ping?: string | undefined;
  readonly log: Logger;
  /** `GET /path`, for log lines. */
  readonly label: string;
  /**
   * What `open()` awaits of a lifecycle generator: its setup alone (`'setup'`: SSE, so an
   * EventSource opens even when nothing is due yet), or its setup and first item (`'first-item'`,
   * the default). A plain async iterable always has its first item awaited.
   */
  readonly gate?: 'setup' | 'first-item' | undefined;
}

type Phase = 'new' | 'opening' | 'streaming' | 'done';

/**
 * Moves one stream's items to one response, and owns everything that can leak on the way:
 *
 * - `open()` runs the lifecycle generator's setup and pulls the first item (with the `'setup'`
 *   gate, a lifecycle generator's setup alone) before anything is sent, so its failure can still
 *   become a normal error response (teardown runs first);
 * - `run()` writes item by item and awaits `drain` whenever a write returns false, so a slow
 *   client never makes the server buffer the stream;
 * - a client disconnect (the target's `close` before we ended it) calls the iterator's
 *   `return()` and runs teardown at once — even while the source is busy producing (or waiting
 *   for) an item: that step is left behind, never awaited; nothing is written after;
 * - a mid-stream failure is logged once and the connection is cut without the terminating
 *   chunk; a teardown failure is logged and the body still ends properly;
 * - `stop()` (graceful shutdown: the exchange's `shutdownSignal`) ends the stream properly after
 *   running teardown; a teardown still running when shutdown closes the connection is logged;
 * - the keepalive timer is reset by every write, skips while the socket has unflushed data or
 *   a write waits for `drain`, and is cleared whenever the stream ends.
 *
 * No path waits on a client that left or on a source that never answers: `done` resolves when
 * the response is over, whatever the source does.
 */
export class Pump {
  readonly #target: StreamTarget;
  readonly #options: PumpOptions;
  #phase: Phase = 'new';
  #inner: AsyncIterator<unknown> | undefined;
  #lifecycle: AsyncIterator<unknown> | undefined;
  #first: string | Uint8Array | undefined;
  #innerDone = false;
  /** The client went away before we ended the response. */
  #gone = false;
  /** Graceful shutdown asked us to end. */
  #stopping = false;
  /** We are ending or cutting the response ourselves: its `close` is expected. */
  #ending = false;
  /** A `next()` is in flight (the source is producing, or waiting for, an item). */
  #nextPending = false;
  /**
   * A `next()` was in flight when the stream had to stop: that step holds the iterator (its
   * `return()` settles only after the step, which may never come), so it is left behind and
   * teardown does not wait for it.
   */
  #abandoned = false;
  #needDrain = false;
  #drainWaiter: (() => void) | undefined;
  #timer: NodeJS.Timeout | undefined;
  #finishing: Promise<void> | undefined;
  #settled = false;
  #resolveDone!: () => void;
  /** Resolves once the response is over (ended, cut, or the client left) and teardown ran. */
  readonly #done = new Promise<void>((resolve) => (this.#resolveDone = resolve));

  /**
   * @param target - the response to write to; the pump listens to its `close` and `drain`
   * @param options - encoder, keepalive and logging
   */
  constructor(target: StreamTarget, options: PumpOptions) {
    this.#target = target;
    this.#options = options;
    target.on('close', this.#onClose);
    target.on('drain', this.#onDrain);
  }

  /** Resolves once the response is over (ended, cut, or the client left) and teardown ran. */
  get done(): Promise<void> {
    return this.#done;
  }

  /**
   * Opens the source: runs a lifecycle generator's setup, pulls the first item and encodes it
   * (with the `'setup'` gate, a lifecycle generator's first item is left to `run()`, where its
   * failure is a mid-stream failure). Resolves true when the response should start, false when
   * the client left meanwhile (the pump has then torn down). Rejects with the source's (or the
   * encoder's) error after running teardown, so the caller can render a normal error response.
   *
   * @param source - the response's `stream`
   */
  async open(source: unknown): Promise<boolean> {
    this.#phase = 'opening';
    try {
      if (!isAsyncIterable(source))
        throw new TypeError(
          'a streaming response needs an async iterable `stream` (or a lifecycle async generator)',
        );
      const outer = source[Symbol.asyncIterator]();
      this.#inner = outer;
      let step = await this.#next(outer);
      if (this.#finishing) return false; // the client left while setup ran
      if (!step.done && isAsyncIterable(step.value)) {
        // A lifecycle generator: setup ran, it yielded the stream; teardown follows its yield.
        this.#lifecycle = outer;
        const inner = step.value[Symbol.asyncIterator]();
        this.#inner = inner;
        if (this.#options.gate === 'setup') return true;
        step = await this.#next(inner);
        if (this.#finishing) return false;
      }
      if (step.done) this.#innerDone = true;
      else this.#first = this.#options.encode(step.value);
    } catch (error) {
      // After the client left, nobody is there to answer: teardown already ran.
      if (this.#finishing) return false;
      await this.#finish();
      this.#settle();
      throw error;
    }
    return true;
  }

  /**
   * Streams every item after the response head was sent; resolves once the response ended
   * (properly, cut, or because the client left) and teardown ran. Never rejects.
   */
  run(): Promise<void> {
    if (this.#phase === 'opening') {
      this.#phase = 'streaming';
      void this.#run();
    }
    return this.#done;
  }

  /**
   * Graceful shutdown: stops pulling, runs teardown and ends the response with its terminating
   * chunk. A stream still opening is ended right after its head is sent. Resolves when done.
   */
  stop(): Promise<void> {
    const first = !this.#stopping;
    this.#stopping = true;
    if (this.#phase === 'new' || this.#phase === 'opening') return Promise.resolve();
    if (first && this.#phase === 'streaming' && !this.#finishing) {
      if (this.#nextPending) {
        // The source is waiting for an item: leave that step behind and end now.
        this.#abandoned = true;
        void this.#complete();
      } else this.#wakeDrain();
    }
    return this.#done;
  }

  /** Tears down an opened source whose response could not start; writes nothing. */
  async discard(): Promise<void> {
    await this.#finish();
    this.#settle();
  }

  async #run(): Promise<void> {
    try {
      if (this.#first !== undefined) {
        const first = this.#first;
        this.#first = undefined;
        if (!this.#gone) this.#write(first);
      } else if (!this.#innerDone && !this.#gone) {
        // Opened on setup alone (SSE): nothing to write yet, but the client must see the head
        // now (an EventSource opens on it). With a first item, the head goes out with it.
        this.#target.flushHeaders?.();
      }
      if (this.#options.keepaliveMs !== undefined) {
        this.#timer = setTimeout(this.#onIdle, this.#options.keepaliveMs);
        this.#timer.unref();
      }
      const inner = this.#inner!;
      while (!this.#innerDone) {
        if (this.#needDrain) await this.#drained();
        if (this.#gone || this.#stopping) break;
        // Inlined (not #next): one promise per item fewer on the hot path.
        this.#nextPending = true;
        let step: IteratorResult<unknown>;
        try {
          step = await inner.next();
        } finally {
          this.#nextPending = false;
        }
        // Woken while the source worked: whoever woke us (disconnect, shutdown) finishes.
        if (this.#finishing) return;
        if (step.done) {
          this.#innerDone = true;
          break;
        }
        const chunk = this.#options.encode(step.value);
        // 'close' may land between the item's arrival and this continuation.
        if (this.#gone) break;
        this.#write(chunk);
      }
    } catch (error) {
      if (this.#finishing) return; // the source failed after we stopped waiting for it
      this.#options.log.error(`error streaming response for ${this.#options.label}`, error);
      this.#cut();
      await this.#finish();
      this.#settle();
      return;
    }
    await this.#complete();
  }

  /** Teardown, then the terminating chunk (unless the client left). */
  async #complete(): Promise<void> {
    await this.#finish();
    if (!this.#gone && !this.#ending) {
      this.#ending = true;
      this.#target.end();
    }
    this.#settle();
  }

  #settle(): void {
    if (this.#settled) return;
    this.#settled = true;
    this.#resolveDone();
  }

  /** One `next()`, with the in-flight flag the wake-ups read. */
  async #next(iterator: AsyncIterator<unknown>): Promise<IteratorResult<unknown>> {
    this.#nextPending = true;
    try {
      return await iterator.next();
    } finally {
      this.#nextPending = false;
    }
  }

  /**
   * Ends the connection without the terminating chunk, so the client knows the body is
   * incomplete; what was written before still reaches it (the target's `cut`).
   */
  #cut(): void {
    this.#ending = true;
    this.#target.cut();
  }

  #drained(): Promise<void> {
    if (!this.#needDrain || this.#gone) return Promise.resolve();
    return new Promise<void>((resolve) => (this.#drainWaiter = resolve));
  }

  #wakeDrain(): void {
    const drained = this.#drainWaiter;
    this.#drainWaiter = undefined;
    drained?.();
  }

  #write(chunk: string | Uint8Array): void {
    if (!this.#target.write(chunk)) this.#needDrain = true;
    this.#timer?.refresh();
  }

  readonly #onClose = (): void => {
    if (this.#ending) return;
    if (this.#stopping && this.#finishing && !this.#settled)
      // Shutdown asked this stream to end, and its connection closed (the shutdown cap reached,
      // or the client left) while teardown still runs: say so, the process may exit before it ends.
      this.#options.log.warn(
        `stream teardown for ${this.#options.label} still running when its connection closed during shutdown; shutdown goes on without it`,
      );
    this.#gone = true;
    clearTimeout(this.#timer);
    if (this.#nextPending) {
      // The source is busy (or waiting): don't wait for it; tear down now.
      this.#abandoned = true;
      void this.#finish().then(() => this.#settle());
    } else this.#wakeDrain();
  };

  readonly #onDrain = (): void => {
    this.#needDrain = false;
    this.#wakeDrain();
  };

  readonly #onIdle = (): void => {
    if (this.#phase !== 'streaming' || this.#gone || this.#ending) return;
    // Unflushed bytes, or a write still waiting for 'drain', mean the connection is not idle, and
    // a ping would only queue behind them. Both: Node 24 can report writableLength 0 while an
    // 8 MiB write still waits for the socket (the bytes sit in libuv's queue, not the stream's).
    if (this.#needDrain || this.#target.writableLength > 0) this.#timer?.refresh();
    else this.#write(this.#options.ping ?? '');
  };

  /** Teardown, once: the iterator's `return()`, then the lifecycle generator's code after its yield. */
  #finish(): Promise<void> {
    return (this.#finishing ??= this.#teardown());
  }

  async #teardown(): Promise<void> {
    this.#phase = 'done';
    clearTimeout(this.#timer);
    this.#timer = undefined;
    this.#target.off('drain', this.#onDrain);
    const inner = this.#inner;
    if (inner && !this.#innerDone && typeof inner.return === 'function') {
      try {
        const closing = inner.return();
        if (this.#abandoned) closing.catch((error: unknown) => this.#teardownFailed(error));
        else await closing;
      } catch (error) {
        this.#teardownFailed(error);
      }
    }
    const lifecycle = this.#lifecycle;
    if (lifecycle) {
      try {
        const after = await lifecycle.next();
        if (!after.done) {
          this.#options.log.warn(
            `stream lifecycle generator for ${this.#options.label} yielded more than once; it must yield its stream exactly once (closed it)`,
          );
          await lifecycle.return?.();
        }
      } catch (error) {
        this.#teardownFailed(error);
      }
    }
  }

  #teardownFailed(error: unknown): void {
    this.#options.log.error(`error tearing down stream for ${this.#options.label}`, error);
  }
}
