import { CloseCode } from '../socket/close-codes';
import type { SocketInternals } from '../socket/websocket';
import type { Subscriber } from './subscriber';

/** What a `Channel` does with a subscriber that falls behind. */
export type Overflow = 'close' | 'drop-oldest';

/** The bounds a `BoundedWriter` keeps for each subscriber (a `Channel`'s validated options). */
export interface WriterLimits {
  /** Frames that may wait per subscriber once its socket buffer is full. */
  readonly queueSize: number;
  /** Bytes per subscriber, its queue plus its socket's unsent buffer. */
  readonly maxBytes: number;
  /** What happens to a subscriber that would exceed a bound. */
  readonly overflow: Overflow;
  /** True when frames go out as binary frames (the channel's codec is `'bytes'`). */
  readonly binary: boolean;
  /** Told after the overflow policy applied (`ChannelOptions.onOverflow`). */
  readonly onOverflow: ((subscriber: Subscriber, action: 'closed' | 'dropped') => void) | undefined;
  /** Detaches a subscriber from its channel: the `'close'` policy calls it for the closed one. */
  readonly detach: (subscriber: Subscriber) => void;
}

const KiB = 1024;
/** Frames go straight to a socket while its buffer holds less than this (or `maxBufferedBytes`). */
const WRITE_THROUGH = 64 * KiB;
/**
 * How long a subscriber closed for overflow has to read what the kernel already holds for it
 * and answer the close, before it is cut. Only its socket buffer (≤ 64 KiB + one frame) is held
 * meanwhile: its queue is dropped at once. Kernel buffers on a fast link hold megabytes, which a
 * client that resumes needs a moment to read before it reaches the 1013.
 */
const OVERFLOW_GRACE_MS = 5000;

/**
 * How often a subscriber waiting for `'drain'` is re-checked all the same. Node's socket emits
 * `'drain'`; under Bun's `ws` layer the upgraded node socket never does (Bun's WebSocket owns
 * the connection and drains its own queue, which `bufferedAmount` reports): without this check a
 * subscriber that queued once would never be written to again.
 */
const DRAIN_CHECK_MS = 25;

const EMPTY = Buffer.alloc(0);
const TEXT = { binary: false } as const;
const BINARY = { binary: true } as const;

/**
 * The write side of a `Channel`: hands an encoded frame to each subscriber's socket, or to its
 * bounded queue while the socket is backed up, flushes that queue on `'drain'`, and applies the
 * overflow policy to a subscriber that would exceed `queueSize` frames or `maxBytes` held bytes.
 * Frames written in one tick are corked and reach each socket as one write on the next tick.
 * It never waits for a client. One per channel; the channel owns the topics.
 *
 * @example
 * const writer = new BoundedWriter({ ...limits, detach: (s) => channel.detach(s) });
 * const s = new Subscriber(ws, writer.writeThroughFor(ws), detach, (s) => writer.flush(s));
 * writer.send(new Set([s]), frame); // 1
 */
export class BoundedWriter {
  readonly #queueSize: number;
  readonly #maxBytes: number;
  readonly #overflow: Overflow;
  readonly #sendOptions: typeof TEXT | typeof BINARY;
  readonly #onOverflow: WriterLimits['onOverflow'];
  readonly #detach: (subscriber: Subscriber) => void;
  /** Sockets corked during the current tick (uncorked together on the next one). */
  readonly #corked: Subscriber[] = [];
  readonly #uncork = (): void => {
    for (const subscriber of this.#corked) {
      if (!subscriber.corked) continue;
      subscriber.corked = false;
      subscriber.ws.socket.uncork();
    }
    this.#corked.length = 0;
  };

  /** @param limits - the channel's validated bounds, overflow policy and detach hook */
  constructor(limits: WriterLimits) {
    this.#queueSize = limits.queueSize;
    this.#maxBytes = limits.maxBytes;
    this.#overflow = limits.overflow;
    this.#sendOptions = limits.binary ? BINARY : TEXT;
    this.#onOverflow = limits.onOverflow;
    this.#detach = limits.detach;
  }

  /**
   * The socket buffer size below which frames for this socket skip the queue: at least its
   * high-water mark, so a queued frame always has a `'drain'` coming.
   *
   * @param ws - the socket being attached
   */
  writeThroughFor(ws: SocketInternals): number {
    return Math.max(Math.min(WRITE_THROUGH, this.#maxBytes), ws.socket.writableHighWaterMark);
  }

  /**
   * Hands one frame to every subscriber in `set`, synchronously: written (corked) when its socket
   * has room, queued when not, or refused by the overflow policy. Returns the subscribers tried.
   *
   * @param set - the subscribers of one topic
   * @param frame - the encoded message, shared by all of them (never mutated)
   */
  send(set: Set<Subscriber>, frame: Buffer): number {
    const options = this.#sendOptions;
    let n = 0;
    for (const subscriber of set) {
      n++;
      const raw = subscriber.ws.raw;
      let buffered = raw.bufferedAmount;
      if (subscriber.corked && buffered >= subscriber.writeThrough) {
        // A long burst: hand what is corked to the OS now, so corking never makes a healthy
        // client look slow.
        subscriber.corked = false;
        subscriber.ws.socket.uncork();
        buffered = raw.bufferedAmount;
      }
      const held = subscriber.queuedBytes + buffered + frame.length;
      // Admission: the bytes held for this subscriber (queue + socket buffer + this frame) stay
      // within maxBufferedBytes, and the queue within queueSize (a frame always fits an idle socket).
      if (held > this.#maxBytes && buffered + subscriber.queuedBytes !== 0) {
        if (!this.#overflowed(subscriber, frame.length, buffered)) continue;
      } else if (subscriber.queue.length - subscriber.queueHead >= this.#queueSize) {
        if (!this.#overflowed(subscriber, frame.length, buffered)) continue;
      }
      if (subscriber.queue.length === subscriber.queueHead && buffered < subscriber.writeThrough) {
        // A burst of publishes in one tick reaches each socket as one write (one syscall), not one
        // per message: cork on the first frame, uncork on the next tick.
        if (!subscriber.corked) {
          subscriber.corked = true;
          subscriber.ws.socket.cork();
          if (this.#corked.push(subscriber) === 1) process.nextTick(this.#uncork);
        }
        raw.send(frame, options);
      } else {
        subscriber.queue.push(frame);
        subscriber.queuedBytes += frame.length;
        // Queueing means the socket holds ≥ writeThrough ≥ its high-water mark, so 'drain' follows.
        if (!subscriber.waitingDrain) waitDrain(subscriber);
      }
      const now = subscriber.queuedBytes + raw.bufferedAmount;
      if (now > subscriber.peakHeldBytes) subscriber.peakHeldBytes = now;
    }
    return n;
  }

  /** Applies the overflow policy; true when the frame may still be queued (room was made). */
  #overflowed(subscriber: Subscriber, size: number, buffered: number): boolean {
    if (this.#overflow === 'close') {
      subscriber.ws.closeWith(CloseCode.tryAgainLater, 'channel overflow', OVERFLOW_GRACE_MS);
      this.#detach(subscriber);
      this.#onOverflow?.(subscriber, 'closed');
      return false;
    }
    // drop-oldest: discard waiting frames, oldest first, until the new one fits; a frame that
    // cannot fit even then is the one dropped.
    const queue = subscriber.queue;
    while (
      subscriber.queueHead < queue.length &&
      (queue.length - subscriber.queueHead >= this.#queueSize ||
        subscriber.queuedBytes + buffered + size > this.#maxBytes)
    ) {
      const old = queue[subscriber.queueHead]!;
      queue[subscriber.queueHead++] = EMPTY;
      subscriber.queuedBytes -= old.length;
      subscriber.dropped++;
    }
    if (subscriber.queueHead === queue.length) {
      queue.length = 0;
      subscriber.queueHead = 0;
    }
    const fits = !(
      subscriber.queuedBytes + buffered + size > this.#maxBytes && buffered + subscriber.queuedBytes !== 0
    );
    if (!fits) subscriber.dropped++;
    this.#onOverflow?.(subscriber, 'dropped');
    return fits;
  }

  /**
   * Writes a subscriber's queued frames while its socket has room, and waits for the next
   * `'drain'` (or check) when frames remain (the subscriber's `flush` calls this).
   *
   * @param subscriber - whose socket drained
   */
  flush(subscriber: Subscriber): void {
    stopWaiting(subscriber);
    if (!subscriber.attached) return;
    const raw = subscriber.ws.raw;
    const options = this.#sendOptions;
    const queue = subscriber.queue;
    while (subscriber.queueHead < queue.length && raw.bufferedAmount < subscriber.writeThrough) {
      const frame = queue[subscriber.queueHead]!;
      queue[subscriber.queueHead++] = EMPTY;
      subscriber.queuedBytes -= frame.length;
      raw.send(frame, options);
    }
    if (subscriber.queueHead === queue.length) {
      queue.length = 0;
      subscriber.queueHead = 0;
      return;
    }
    // Compact now and then so the array does not grow with every frame ever queued.
    if (subscriber.queueHead > 1024 && subscriber.queueHead * 2 > queue.length) {
      queue.splice(0, subscriber.queueHead);
      subscriber.queueHead = 0;
    }
    waitDrain(subscriber);
  }

  /**
   * Drops a detached subscriber's queue and stops waiting for its socket to drain.
   *
   * @param subscriber - being detached from the channel
   */
  discard(subscriber: Subscriber): void {
    subscriber.queue.length = 0;
    subscriber.queueHead = 0;
    subscriber.queuedBytes = 0;
    stopWaiting(subscriber);
  }
}

/** Flushes `subscriber` on its socket's next `'drain'`, or at the next check, whichever is first. */
function waitDrain(subscriber: Subscriber): void {
  subscriber.waitingDrain = true;
  subscriber.ws.socket.once('drain', subscriber.flush);
  subscriber.drainCheck = setTimeout(subscriber.flush, DRAIN_CHECK_MS);
  subscriber.drainCheck.unref();
}

function stopWaiting(subscriber: Subscriber): void {
  if (!subscriber.waitingDrain) return;
  subscriber.waitingDrain = false;
  subscriber.ws.socket.off('drain', subscriber.flush);
  clearTimeout(subscriber.drainCheck);
  subscriber.drainCheck = undefined;
}
