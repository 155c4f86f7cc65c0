import { consoleLogger, type Logger } from '@api/core';
import { compileFraming, type Codec, type Framing, type OutboundMessage } from '../framing/framing';
import { CloseCode } from '../socket/close-codes';
import type { SocketInternals, WebSocket } from '../socket/websocket';
import { kInternals } from '../symbols';
import type { Backplane } from './backplane';

/** What a `Channel` does with a subscriber that falls behind. */
export type Overflow = 'close' | 'drop-oldest';

/** Options of a `Channel` (defaults in brackets). */
export interface ChannelOptions {
  /** Frames that may wait per subscriber once its socket buffer is full. [64] */
  readonly queueSize?: number;
  /**
   * A subscriber that would exceed a bound: `'close'` closes it with 1013 `channel overflow`;
   * `'drop-oldest'` discards its oldest waiting frames to make room. ['close']
   */
  readonly overflow?: Overflow;
  /** Bytes per subscriber, its queue plus its socket's unsent buffer. [1 MiB] */
  readonly maxBufferedBytes?: number;
  /** Fan-out past this process (e.g. `redisBackplane(redis)`); local delivery works without it. */
  readonly backplane?: Backplane;
  /** Where backplane warnings go. [console] */
  readonly log?: Logger;
  /**
   * Called when a subscriber crosses a bound, after the policy applied: `'closed'` once (it is
   * closing with 1013), or `'dropped'` for each publish that had to drop frames. For logs and
   * metrics; it must not throw. [none]
   */
  readonly onOverflow?: (subscriber: Subscriber, action: 'closed' | 'dropped') => void;
}

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
 * A typed broadcast channel with bounded per-subscriber queues. `publish` validates and encodes
 * a message once and hands the same bytes to every subscriber of the topic, synchronously; it
 * never waits for a client. A subscriber whose socket cannot keep up is bounded by `queueSize`
 * frames and by `maxBufferedBytes` (its queue plus its socket's unsent buffer): past either it is
 * closed with 1013 (`overflow: 'close'`) or loses its oldest waiting frames (`'drop-oldest'`).
 *
 * @example
 * const chat = new Channel(ChatMessage, { queueSize: 64 });
 * // in a handler:
 * using subscriber = chat.attach(websocket);
 * chat.join(subscriber, 'lobby');
 * for await (const { text } of websocket) chat.publish('lobby', { type: 'ChatMessage', text, from: user.name });
 */
export class Channel<TFraming extends Framing = Framing> {
  readonly #codec: Codec;
  readonly #topics = new Map<string, Set<Subscriber>>();
  readonly #queueSize: number;
  readonly #overflow: Overflow;
  readonly #maxBytes: number;
  readonly #backplane: Backplane | undefined;
  readonly #onOverflow: ((subscriber: Subscriber, action: 'closed' | 'dropped') => void) | undefined;
  #subscribers = 0;
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
  #closed = false;

  /**
   * @param schema - the message framing: a tagged Struct (or a list / union of them), `'string'` or `'bytes'`
   * @param options - `queueSize` (64), `overflow` ('close'), `maxBufferedBytes` (1 MiB), `backplane`, `log`
   */
  constructor(schema: TFraming, options: ChannelOptions = {}) {
    this.#codec = compileFraming('Channel', schema);
    const queueSize = options.queueSize ?? 64;
    const maxBytes = options.maxBufferedBytes ?? 1024 * KiB;
    const overflow = options.overflow ?? 'close';
    if (!Number.isInteger(queueSize) || queueSize < 1)
      throw new RangeError(`Channel: queueSize must be a whole number ≥ 1, got ${String(queueSize)}`);
    if (!Number.isInteger(maxBytes) || maxBytes < 1)
      throw new RangeError(`Channel: maxBufferedBytes must be a whole number ≥ 1, got ${String(maxBytes)}`);
    if (overflow !== 'close' && overflow !== 'drop-oldest')
      throw new RangeError(`Channel: overflow is 'close' or 'drop-oldest', got ${JSON.stringify(overflow)}`);
    this.#queueSize = queueSize;
    this.#maxBytes = maxBytes;
    this.#overflow = overflow;
    this.#backplane = options.backplane;
    this.#onOverflow = options.onOverflow;
    this.#backplane?.open((topic, frame) => this.#deliver(topic, frame), options.log ?? consoleLogger);
  }

  /** Subscribers currently attached. */
  get size(): number {
    return this.#subscribers;
  }

  /** Topics with at least one subscriber. */
  get topics(): number {
    return this.#topics.size;
  }

  /** Subscribers of one topic. */
  subscribers(topic: string): number {
    return this.#topics.get(topic)?.size ?? 0;
  }

  /**
   * Attaches a socket for the connection's lifetime. The result is disposable (`using` /
   * `await using`); when the socket closes it detaches by itself and leaves every topic.
   *
   * @param websocket - a socket whose outbound framing carries this channel's messages
   */
  attach<TIn>(websocket: WebSocket<TIn, OutboundMessage<TFraming>>): Subscriber {
    if (this.#closed) throw new Error('Channel: closed; attach before shutdown');
    const internals = websocket[kInternals];
    this.#checkFraming(internals.outbound);
    const subscriber = new Subscriber(
      internals,
      // Straight to the socket below this; at least its high-water mark, so 'drain' always follows.
      Math.max(Math.min(WRITE_THROUGH, this.#maxBytes), internals.socket.writableHighWaterMark),
      (s) => this.#detach(s),
      (s) => this.#flush(s),
    );
    if (websocket.closed) {
      subscriber.attached = false;
      return subscriber;
    }
    internals.closeListeners.add(subscriber.onClose);
    this.#subscribers++;
    return subscriber;
  }

  #checkFraming(outbound: Codec): void {
    const codec = this.#codec;
    const fits =
      outbound.kind === codec.kind &&
      (codec.kind !== 'json' ||
        codec.tags.every((tag) => outbound.members.get(tag) === codec.members.get(tag)));
    if (!fits)
      throw new TypeError(
        `Channel.attach: the socket's outbound framing (${describeCodec(outbound)}) cannot carry this channel's messages (${describeCodec(codec)}). Fix: list the channel's Structs in the endpoint's outbound.`,
      );
  }

  /**
   * Adds a subscriber to a topic (no-op when already in it or detached).
   *
   * @param subscriber - from `attach`
   * @param topic - any string
   */
  join(subscriber: Subscriber, topic: string): void {
    if (!subscriber.attached || subscriber.topics.has(topic)) return;
    let set = this.#topics.get(topic);
    if (!set) {
      set = new Set();
      this.#topics.set(topic, set);
      this.#backplane?.subscribe(topic);
    }
    set.add(subscriber);
    subscriber.topics.add(topic);
  }

  /**
   * Removes a subscriber from a topic (no-op when not in it).
   *
   * @param subscriber - from `attach`
   * @param topic - the topic to leave
   */
  leave(subscriber: Subscriber, topic: string): void {
    if (!subscriber.topics.delete(topic)) return;
    const set = this.#topics.get(topic);
    if (!set) return;
    set.delete(subscriber);
    if (set.size === 0) {
      this.#topics.delete(topic);
      this.#backplane?.unsubscribe(topic);
    }
  }

  /**
   * Publishes a message to every subscriber of a topic (and, with a backplane, to every other
   * process). Synchronous: it validates and encodes once, hands the bytes to each socket or
   * queue, and returns the number of local subscribers reached. Nothing is encoded when the
   * topic has no subscribers and there is no backplane. Throws a `TypeError` for a message
   * that does not match the channel's schema.
   *
   * @param topic - the topic
   * @param message - a message of the channel's framing
   */
  publish(topic: string, message: OutboundMessage<TFraming>): number {
    const set = this.#topics.get(topic);
    if (!set && !this.#backplane) return 0;
    const encoded = this.#codec.encode(message);
    // Bytes are copied once: frames may wait in queues, and the caller may reuse its array.
    const frame = typeof encoded === 'string' ? Buffer.from(encoded, 'utf8') : Buffer.from(encoded);
    this.#backplane?.publish(topic, frame);
    return set ? this.#send(set, frame) : 0;
  }

  #deliver(topic: string, frame: Buffer): void {
    const set = this.#topics.get(topic);
    if (set) this.#send(set, frame);
  }

  #send(set: Set<Subscriber>, frame: Buffer): number {
    const options = this.#codec.binary ? BINARY : TEXT;
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
        if (!subscriber.waitingDrain) {
          subscriber.waitingDrain = true;
          subscriber.ws.socket.once('drain', subscriber.flush);
        }
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

  #flush(subscriber: Subscriber): void {
    subscriber.waitingDrain = false;
    if (!subscriber.attached) return;
    const raw = subscriber.ws.raw;
    const options = this.#codec.binary ? BINARY : TEXT;
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
    subscriber.waitingDrain = true;
    subscriber.ws.socket.once('drain', subscriber.flush);
  }

  #detach(subscriber: Subscriber): void {
    if (!subscriber.attached) return;
    subscriber.attached = false;
    for (const topic of [...subscriber.topics]) this.leave(subscriber, topic);
    subscriber.queue.length = 0;
    subscriber.queueHead = 0;
    subscriber.queuedBytes = 0;
    if (subscriber.waitingDrain) {
      subscriber.waitingDrain = false;
      subscriber.ws.socket.off('drain', subscriber.flush);
    }
    subscriber.ws.closeListeners.delete(subscriber.onClose);
    this.#subscribers--;
  }

  /**
   * Stops the channel: closes its backplane (the channel keeps working locally until then).
   * Sockets stay open; the WebSocket mount closes them on shutdown.
   */
  async close(): Promise<void> {
    if (this.#closed) return;
    this.#closed = true;
    await this.#backplane?.close();
  }
}

const EMPTY = Buffer.alloc(0);
const TEXT = { binary: false } as const;
const BINARY = { binary: true } as const;

function describeCodec(codec: Codec): string {
  return codec.kind === 'json' ? codec.tags.join(' | ') : `'${codec.kind}'`;
}
