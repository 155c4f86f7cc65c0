// @api/rate-limit — rate limits (GCRA) per app, mount or operation, on a memory or Redis store,
// with the IETF draft's RateLimit-Policy / RateLimit fields; through core's extension point only.
import type { Operation } from '@api/core';
import type { PerOperation, RateLimitGroup } from './policy/mount-option';
import type { RateLimit as RateLimitPolicy } from './policy/policy';

export { RateLimit, byUser, type KeySpec, type RateLimitOptions, type UserKey } from './policy/policy';
export {
  PerOperation,
  RateLimitGroup,
  perOperation,
  rateLimits,
  type OperationLimit,
} from './policy/mount-option';
export { rateLimit, defaultSkip, type RateLimitSetup, type RateLimiter } from './extension/rate-limit';
export type { RateLimitStats, StoreDownMode } from './extension/store-health';
export { memoryStore, type MemoryStoreOptions } from './store/memory-store';
export { redisStore, type RedisClient, type RedisStore, type RedisStoreOptions } from './store/redis-store';
export type { Bucket, RateLimitStore, Taken } from './store/store';
export { rateOf, type Rate, type Standing } from './gcra/gcra';
export { addressPartition } from './key/client-address';

/** The operation names of a mounted route class (its fields holding operations). */
type OperationNames<TRoute> = {
  [K in keyof TRoute]-?: NonNullable<TRoute[K]> extends Operation<infer _S> ? K : never;
}[keyof TRoute] &
  string;

declare module '@api/core' {
  interface MountOptions<TRoute extends object> {
    /**
     * The mount's rate limit, replacing the app default: a policy, `rateLimits(a, b)`,
     * `perOperation({ create: policy })` (names checked against the mounted class), or `false`.
     */
    readonly rateLimit?: RateLimitPolicy | RateLimitGroup | PerOperation<OperationNames<TRoute>> | false;
  }
}
