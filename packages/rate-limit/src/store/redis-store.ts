// The Redis store: every bucket of a request charged by one Lua script, atomically, on the
// server's clock — so N processes behind a load balancer enforce one limit with one round trip.
import { createHash } from 'node:crypto';
import { Deadlines } from './deadlines';
import type { Bucket, RateLimitStore, Taken } from './store';

/**
 * The part of an `ioredis` client the store uses (structural, so @api/rate-limit does not import
 * ioredis: install it yourself, it is an optional peer dependency).
 */
export interface RedisClient {
  readonly status: string;
  evalsha(sha: string, numKeys: number, ...args: (string | number)[]): Promise<unknown>;
  eval(script: string, numKeys: number, ...args: (string | number)[]): Promise<unknown>;
  on(event: 'error', listener: (error: Error) => void): unknown;
  once(event: 'ready', listener: () => void): unknown;
  off(event: 'ready', listener: () => void): unknown;
  quit(): Promise<unknown>;
  disconnect(): void;
}

/** What `redisStore(…)` returns: a store whose `take` always answers with a promise. */
export interface RedisStore extends RateLimitStore {
  /** The prefix of its bucket keys. */
  readonly prefix: string;
  take(buckets: readonly Bucket[]): Promise<Taken>;
}

/** Options of `redisStore`. */
export interface RedisStoreOptions {
  /** Prefix of every bucket key (`<prefix><policy>:<partition>`). ['api-rl:'] */
  readonly prefix?: string;
  /**
   * A command not answered within this many milliseconds counts as Redis being down: one sweep
   * every quarter of it checks every call in flight, so a late call fails between `timeoutMs` and
   * 1.25 × `timeoutMs`. Also the longest the app's close waits for `QUIT`. [250]
   */
  readonly timeoutMs?: number;
  /** Quit the client when the app closes. [true] */
  readonly ownsClient?: boolean;
}

// KEYS: the buckets. ARGV: per bucket cost, interval, tolerance (integer µs). The clock is the
// server's (TIME), so processes with skewed clocks still share one limit. All or nothing: a bucket
// without room leaves every bucket as it was. Returns {allowed, now, tat…} (after, or before when
// refused). TATs are written with %.0f: Lua's tostring would print 1.7e+15 and lose microseconds.
const SCRIPT = `
local t = redis.call('TIME')
local now = tonumber(t[1]) * 1000000 + tonumber(t[2])
local n = #KEYS
local tats = {}
local ok = 1
for i = 1, n do
  local tat = tonumber(redis.call('GET', KEYS[i]) or '0')
  if tat < now then tat = now end
  tats[i] = tat
  if tat + tonumber(ARGV[i * 3 - 2]) * tonumber(ARGV[i * 3 - 1]) - now > tonumber(ARGV[i * 3]) then ok = 0 end
end
local out = {ok, now}
for i = 1, n do
  local tat = tats[i]
  if ok == 1 then
    tat = tat + tonumber(ARGV[i * 3 - 2]) * tonumber(ARGV[i * 3 - 1])
    if tat > now then
      redis.call('SET', KEYS[i], string.format('%.0f', tat), 'PX', math.ceil((tat - now) / 1000))
    end
  end
  out[i + 2] = tat
end
return out
`;
const SHA = createHash('sha1').update(SCRIPT).digest('hex');
/** ioredis' statuses before its first connection is up. */
const CONNECTING: ReadonlySet<string> = new Set(['wait', 'connecting', 'connect']);

/** The script's reply `{allowed, now, tat…}` as a store answer. */
function takenOf(reply: number[]): Taken {
  const tats: number[] = [];
  for (let i = 2; i < reply.length; i++) tats.push(reply[i]!);
  return { allowed: reply[0] === 1, now: reply[1]!, tats };
}

/** Raised when Redis does not answer in time. */
class RedisTimeoutError extends Error {
  override readonly name = 'RedisTimeoutError';
}

/**
 * Buckets in Redis, charged by one atomic Lua script per request (EVALSHA, loaded on first use)
 * on the server's clock: any number of processes sharing the server enforce one limit exactly.
 * While the client is not connected, or a command fails or takes longer than `timeoutMs`, the
 * store is down and the app's `onStoreDown` decides (allow or refuse); requests never wait in
 * ioredis' offline queue.
 *
 * @param client - an `ioredis` client (`new Redis(url)`)
 * @param options - `prefix` ('api-rl:'), `timeoutMs` (250), `ownsClient` (true: quit on close)
 * @example
 * import { Redis } from 'ioredis';
 * this.include(rateLimit({ store: redisStore(new Redis(process.env.REDIS_URL!)), onStoreDown: 'allow', policy }));
 */
export function redisStore(client: RedisClient, options: RedisStoreOptions = {}): RedisStore {
  const prefix = options.prefix ?? 'api-rl:';
  const timeoutMs = options.timeoutMs ?? 250;
  const owns = options.ownsClient ?? true;
  if (typeof client !== 'object' || client === null || typeof client.evalsha !== 'function')
    throw new TypeError('redisStore(client): client must be an ioredis client (new Redis(url))');
  if (!Number.isInteger(timeoutMs) || timeoutMs < 1)
    throw new TypeError(
      `redisStore: timeoutMs must be a whole number of milliseconds ≥ 1, got ${String(timeoutMs)}`,
    );

  let everReady = client.status === 'ready';
  let connecting: Promise<void> | undefined;
  /** Resolves at the client's first 'ready', rejects after timeoutMs (one wait shared by every request). */
  const firstReady = (): Promise<void> =>
    (connecting ??= new Promise<void>((resolve, reject) => {
      const ready = (): void => {
        clearTimeout(timer);
        everReady = true;
        resolve();
      };
      const timer = setTimeout(() => {
        client.off('ready', ready);
        connecting = undefined;
        reject(new RedisTimeoutError(`Redis did not connect within ${timeoutMs} ms`));
      }, timeoutMs);
      client.once('ready', ready);
    }));

  const deadlines = new Deadlines({
    timeoutMs,
    timedOut: () => new RedisTimeoutError(`Redis did not answer within ${timeoutMs} ms`),
  });

  /** One script call: the reply as `Taken`, or a rejection (an error, NOSCRIPT retried once, the timeout). */
  const call = (keys: number, args: (string | number)[]): Promise<Taken> =>
    new Promise<Taken>((resolve, reject) => {
      const waiting = deadlines.add(reject);
      const answered = (reply: unknown): void => {
        deadlines.settle(waiting);
        resolve(takenOf(reply as number[]));
      };
      const failed = (error: unknown): void => {
        // First use on this server (or after a restart without persistence): load the script.
        if (!waiting.done && error instanceof Error && error.message.startsWith('NOSCRIPT')) {
          client.eval(SCRIPT, keys, ...args).then(answered, failed);
          return;
        }
        deadlines.settle(waiting);
        reject(error instanceof Error ? error : new Error(String(error)));
      };
      client.evalsha(SHA, keys, ...args).then(answered, failed);
    });

  const store = {
    kind: 'redis',
    mayFail: true,
    prefix,
    open() {
      // ioredis emits 'error' on every failed reconnect: without a listener it prints each one.
      // The rate limiter reports outages itself (once per transition), on the requests they affect.
      client.on('error', () => undefined);
    },
    take(buckets: readonly Bucket[]): Promise<Taken> {
      if (client.status !== 'ready') {
        // The first connection is not an outage: wait for it (up to timeoutMs). Later, a client
        // that is not ready is down, and requests never wait in ioredis' offline queue.
        if (everReady || !CONNECTING.has(client.status))
          return Promise.reject(new Error(`Redis is ${client.status}`));
        return firstReady().then(() => store.take(buckets));
      }
      everReady = true;
      if (buckets.length === 1) {
        const b = buckets[0]!;
        return call(1, [prefix + b.key, b.cost, b.rate.interval, b.rate.tolerance]);
      }
      const args: (string | number)[] = [];
      for (const b of buckets) args.push(prefix + b.key);
      for (const b of buckets) args.push(b.cost, b.rate.interval, b.rate.tolerance);
      return call(buckets.length, args);
    },
    async close() {
      if (!owns) return;
      // QUIT would wait in ioredis' offline queue while disconnected: cut the connection instead.
      if (client.status !== 'ready') return client.disconnect();
      // Its answer comes after those of the calls in flight: a hung server would hold the app's
      // close forever, so the connection is cut after timeoutMs.
      let timer: ReturnType<typeof setTimeout> | undefined;
      const late = new Promise<'late'>((resolve) => (timer = setTimeout(() => resolve('late'), timeoutMs)));
      const quit = client.quit().then(
        () => 'quit' as const,
        () => 'late' as const, // it failed: cut the connection below
      );
      if ((await Promise.race([quit, late])) === 'late') client.disconnect();
      clearTimeout(timer);
    },
  };
  return store;
}
