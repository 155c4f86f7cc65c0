import type { Logger } from '@api/core';
import { compileFraming, type Codec, type Framing, type OutboundMessage } from '../framing/framing';
import type { WebSocket } from '../socket/websocket';
import { kInternals } from '../symbols';
import type { Backplane } from './backplane';
import { BoundedWriter, type Overflow } from './bounded-writer';
import { checkChannelOptions } from './channel-options';
import { Subscriber } from './subscriber';

// `attach` returns a Subscriber: its type belongs to this module's surface (tests import it here).
export type { Subscriber } from './subscriber';

/** Options of a `Channel` (defaults in brackets). */
export interface ChannelOptions {
  /**
   * Frames that may wait in a subscriber's queue. Not a count of frames in flight: frames go
   * straight to the socket while its unsent buffer (`bufferedAmount`) is under 64 KiB (or under
   * `maxBufferedBytes` when that is smaller), and only frames beyond that wait here. The bound that
   * holds is `maxBufferedBytes`. With the defaults, a client that stops reading 100-byte messages
   * is given about 64 KiB in its socket buffer (~650 messages) plus 64 queued ones; 32 KiB
   * messages reach the 1 MiB byte bound after about 32. [64]
   */
  readonly queueSize?: number;
  /**
   * A subscriber that would exceed a bound: `'close'` closes it with 1013 `channel overflow`;
   * `'drop-oldest'` discards its oldest waiting frames to make room. ['close']
   */
  readonly overflow?: Overflow;
  /**
   * The real bound, in bytes: what is held for one subscriber, its queue plus its socket's
   * unsent buffer (`bufferedAmount`); bytes the kernel already accepted are not counted. A frame
   * that would cross it applies the overflow policy. [1,048,576 (1 MiB)]
   */
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
  readonly #writer: BoundedWriter;
  readonly #backplane: Backplane | undefined;
  #subscribers = 0;
  #closed = false;

  /**
   * @param schema - the message framing: a tagged Struct (or a list / union of them), `'string'` or `'bytes'`
   * @param options - `queueSize` (64), `overflow` ('close'), `maxBufferedBytes` (1 MiB), `backplane`, `log`
   */
  constructor(schema: TFraming, options: ChannelOptions = {}) {
    this.#codec = compileFraming('Channel', schema);
    const { queueSize, maxBytes, overflow, backplane, log, onOverflow } = checkChannelOptions(options);
    this.#writer = new BoundedWriter({
      queueSize,
      maxBytes,
      overflow,
      binary: this.#codec.binary,
      onOverflow,
      detach: (subscriber) => this.#detach(subscriber),
    });
    this.#backplane = backplane;
    this.#backplane?.open((topic, frame) => this.#deliver(topic, frame), log);
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
      this.#writer.writeThroughFor(internals),
      (s) => this.#detach(s),
      (s) => this.#writer.flush(s),
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
        `Channel.attach: the socket's outbound framing (${describeCodec(outbound)}) cannot carry this channel's messages (${describeCodec(codec)}). Fix: list the channel's Structs in the endpoint's outbound (for a zod / ArkType channel, declare outbound with that very schema).`,
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
    return set ? this.#writer.send(set, frame) : 0;
  }

  #deliver(topic: string, frame: Buffer): void {
    const set = this.#topics.get(topic);
    if (set) this.#writer.send(set, frame);
  }

  #detach(subscriber: Subscriber): void {
    if (!subscriber.attached) return;
    subscriber.attached = false;
    for (const topic of [...subscriber.topics]) this.leave(subscriber, topic);
    this.#writer.discard(subscriber);
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

function describeCodec(codec: Codec): string {
  return codec.kind === 'json' ? codec.tags.join(' | ') : `'${codec.kind}'`;
}
