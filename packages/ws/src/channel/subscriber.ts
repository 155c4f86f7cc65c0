import type { SocketInternals } from '../socket/websocket';

/** Counters of one subscriber (for tests, metrics and the curious). */
export interface SubscriberStats {
  /** Frames waiting in its queue. */
  readonly queued: number;
  /** Bytes waiting in its queue. */
  readonly queuedBytes: number;
  /** Bytes in its socket's buffer, not yet handed to the OS. */
  readonly bufferedAmount: number;
  /** The most bytes ever held for it at once (queue plus socket buffer). */
  readonly peakHeldBytes: number;
  /** Frames discarded by `drop-oldest`. */
  readonly dropped: number;
}

/** A socket attached to a channel: join and leave topics through the channel; dispose to detach. */
export class Subscriber implements Disposable, AsyncDisposable {
  /** @internal */
  readonly ws: SocketInternals;
  /** @internal */
  readonly topics = new Set<string>();
  /** @internal */
  readonly queue: Buffer[] = [];
  /** @internal */
  queueHead = 0;
  /** @internal */
  queuedBytes = 0;
  /** @internal */
  peakHeldBytes = 0;
  /** @internal */
  dropped = 0;
  /** @internal */
  attached = true;
  /** @internal */
  waitingDrain = false;
  /** @internal the re-check while waiting for `'drain'` (Bun's upgraded socket never emits it) */
  drainCheck: NodeJS.Timeout | undefined = undefined;
  /** @internal corked until the next tick (a publish burst goes out as one write) */
  corked = false;
  /** @internal frames go straight to the socket while its buffer is below this */
  readonly writeThrough: number;
  readonly #detach: (subscriber: Subscriber) => void;
  /** @internal flushes the queue when the socket drains (one function per subscriber). */
  readonly flush: () => void;
  /** @internal */
  readonly onClose: () => void;

  /** @internal Built by `Channel.attach`. */
  constructor(
    ws: SocketInternals,
    writeThrough: number,
    detach: (subscriber: Subscriber) => void,
    flush: (subscriber: Subscriber) => void,
  ) {
    this.ws = ws;
    this.writeThrough = writeThrough;
    this.#detach = detach;
    this.flush = () => flush(this);
    this.onClose = () => detach(this);
  }

  /** The topics this subscriber is in. */
  get joined(): ReadonlySet<string> {
    return this.topics;
  }

  /** Its queue and buffer counters. */
  get stats(): SubscriberStats {
    return {
      queued: this.queue.length - this.queueHead,
      queuedBytes: this.queuedBytes,
      bufferedAmount: this.ws.raw.bufferedAmount,
      peakHeldBytes: this.peakHeldBytes,
      dropped: this.dropped,
    };
  }

  /** Leaves every topic and stops delivery. Idempotent; also happens when the socket closes. */
  detach(): void {
    this.#detach(this);
  }

  [Symbol.dispose](): void {
    this.detach();
  }

  [Symbol.asyncDispose](): Promise<void> {
    this.detach();
    return Promise.resolve();
  }
}
