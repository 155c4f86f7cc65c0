import { randomBytes } from 'node:crypto';
import type { Logger } from '@api/core';
import type { Backplane } from './backplane';

/**
 * The part of an `ioredis` client the backplane uses (structural, so @api/ws does not import
 * ioredis: install it yourself, it is an optional peer dependency).
 */
export interface RedisConnection {
  readonly status: string;
  publish(channel: string, message: Buffer): Promise<number>;
  subscribe(channel: string): Promise<unknown>;
  unsubscribe(channel: string): Promise<unknown>;
  duplicate(): RedisConnection;
  on(event: 'messageBuffer', listener: (channel: Buffer, message: Buffer) => void): unknown;
  on(event: 'error', listener: (error: Error) => void): unknown;
  on(event: 'ready', listener: () => void): unknown;
  quit(): Promise<unknown>;
  disconnect(): void;
}

/** Options of `redisBackplane`. */
export interface RedisBackplaneOptions {
  /** Prefix of the Redis pub/sub channels (`<prefix><topic>`); one per `Channel`. ['api-ws:'] */
  readonly prefix?: string;
  /** The connection to subscribe on. [`redis.duplicate()`] */
  readonly subscriber?: RedisConnection;
}

const ORIGIN_BYTES = 8;

/**
 * A Redis pub/sub backplane for a `Channel`: a message published in one process reaches the
 * subscribers of every process exactly once (each process delivers its own messages locally and
 * skips their echo from Redis by an origin id). Each topic is its own Redis channel, subscribed
 * while the process has a subscriber in it. While Redis is unreachable, publishing stays local
 * and one warning is logged per outage; `ioredis` reconnects and resubscribes by itself.
 *
 * The backplane owns the connections: `Channel.close()` closes them.
 *
 * @param redis - an `ioredis` client (`new Redis(url)`), used to publish
 * @param options - `prefix` ('api-ws:'), `subscriber` (default `redis.duplicate()`)
 * @example
 * import Redis from 'ioredis';
 * const chat = new Channel(ChatMessage, { backplane: redisBackplane(new Redis(process.env.REDIS_URL), { prefix: 'chat:' }) });
 */
export function redisBackplane(redis: RedisConnection, options: RedisBackplaneOptions = {}): Backplane {
  const prefix = options.prefix ?? 'api-ws:';
  const prefixBytes = Buffer.byteLength(prefix);
  const origin = randomBytes(ORIGIN_BYTES);
  let subscriber: RedisConnection | undefined;
  let log: Logger | undefined;
  let down = false;
  let closed = false;
  const warn = (what: string, error?: unknown): void => {
    if (down || closed) return;
    down = true;
    log?.warn(`redis backplane (${prefix}): ${what}; delivering to this process's subscribers only`, error);
  };
  const up = (): void => {
    if (!down || closed) return;
    down = false;
    log?.info(`redis backplane (${prefix}): connected; fan-out across processes resumed`);
  };
  const end = async (connection: RedisConnection | undefined): Promise<void> => {
    if (!connection) return;
    // QUIT would wait in ioredis' offline queue while disconnected: cut the connection instead.
    if (connection.status !== 'ready') connection.disconnect();
    else await connection.quit().catch(() => connection.disconnect());
  };
  return {
    open(deliver, logger) {
      log = logger;
      const sub = options.subscriber ?? redis.duplicate();
      subscriber = sub;
      redis.on('error', (error) => warn('Redis is unreachable', error));
      sub.on('error', (error) => warn('Redis is unreachable', error));
      redis.on('ready', up);
      sub.on('messageBuffer', (channel, message) => {
        // Our own message, echoed by Redis: local subscribers already have it.
        if (message.length < ORIGIN_BYTES || message.compare(origin, 0, ORIGIN_BYTES, 0, ORIGIN_BYTES) === 0)
          return;
        deliver(channel.toString('utf8', prefixBytes), message.subarray(ORIGIN_BYTES));
      });
    },
    subscribe(topic) {
      subscriber?.subscribe(prefix + topic).catch((error: unknown) => warn('SUBSCRIBE failed', error));
    },
    unsubscribe(topic) {
      if (closed) return;
      subscriber?.unsubscribe(prefix + topic).catch((error: unknown) => warn('UNSUBSCRIBE failed', error));
    },
    publish(topic, frame) {
      if (closed) return;
      if (redis.status !== 'ready') {
        // Never queue in ioredis' offline queue: that would grow without bound during an outage.
        warn(`Redis is ${redis.status}`);
        return;
      }
      redis
        .publish(prefix + topic, Buffer.concat([origin, frame]))
        .catch((error: unknown) => warn('PUBLISH failed', error));
    },
    async close() {
      if (closed) return;
      closed = true;
      await Promise.all([end(subscriber), end(redis)]);
    },
  };
}
