// The BullMQ backend's options and the small helpers its engine uses (kept apart so the engine
// file reads as the engine).
import type { JobsOptions } from 'bullmq';
import type { RetryPolicy } from '../queue/route';

/** Where Redis is (handed to BullMQ, which connects with ioredis). */
export interface RedisConnection {
  /** Default `127.0.0.1`. */
  readonly host?: string | undefined;
  /** Default 6379. */
  readonly port?: number | undefined;
  readonly username?: string | undefined;
  readonly password?: string | undefined;
  /** Database index (default 0). */
  readonly db?: number | undefined;
  /** TLS options (as for `tls.connect`); set to use TLS. */
  readonly tls?: object | undefined;
}

/** Options of `bullmqBackend(...)`. */
export interface BullMQBackendOptions {
  /** Where Redis is. */
  readonly connection: RedisConnection;
  /** The BullMQ queue name (default `tasks`): processes that share it share the work. */
  readonly queueName?: string | undefined;
  /** Redis key prefix (BullMQ's default `bull`). */
  readonly prefix?: string | undefined;
  /** Take items in this process (default true). `false`: this process only adds. */
  readonly worker?: boolean | undefined;
  /**
   * Milliseconds a worker holds an item without renewing its lock (BullMQ `lockDuration`, default
   * 30 000). The item of a worker that died is handed to another one after this.
   */
  readonly lockDuration?: number | undefined;
  /** Milliseconds between checks for items of workers that died (BullMQ `stalledInterval`, default 30 000). */
  readonly stalledInterval?: number | undefined;
  /**
   * Failed items kept in Redis for inspection (default 1000): the newest ones, each after its last
   * attempt, in BullMQ's failed set. Completed ones are removed at once.
   */
  readonly keepFailed?: number | undefined;
  /** Milliseconds `start()` waits for Redis before it fails (default 10 000). */
  readonly connectTimeout?: number | undefined;
}

/** How long closing a worker or queue may take at shutdown before its connections are dropped. */
export const CLOSE_MS = 2_000;

/** Logs a repeating connection error at most once per 10 s per source. */
export function throttled(
  log: (message: string, error: unknown) => void,
): (message: string, error: unknown) => void {
  let last = 0;
  return (message, error) => {
    const now = Date.now();
    if (now - last < 10_000) return;
    last = now;
    log(message, error);
  };
}

/** BullMQ's `backoff` for a registered one. */
export function bullBackoff(policy: RetryPolicy): JobsOptions['backoff'] {
  const b = policy.backoff;
  if (b === undefined) return undefined;
  if (typeof b === 'number') return { type: 'fixed', delay: b };
  return b.jitter === undefined
    ? { type: b.type, delay: b.delay }
    : { type: b.type, delay: b.delay, jitter: b.jitter };
}

/** How a job's own retry options read in a message (`attempts 3, backoff …`). */
export function describeRetry(attempts: number, backoff: unknown): string {
  return `attempts ${attempts}${backoff === undefined ? '' : `, backoff ${JSON.stringify(backoff)}`}`;
}
