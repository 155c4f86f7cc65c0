// What an app takes: its constructor's options, `start()`'s, and every mount's (which packages
// extend by declaration merging on `@api/core`).
import type { Logger } from '../logging/logger';
import type { Middleware } from '../middleware/middleware';
import type { Transport } from '../contract/exchange';
import type { LimitsOptions, MountLimits } from '../contract/limits';
import type { MountRequirements, NeedsOptions } from './mount-requirements';
import type { HealthOptions, LoadSheddingOptions, TrustProxy } from '../contract/serving-options';

/**
 * Options every mount accepts. Packages add typed options by declaration merging (e.g.
 * `@api/auth` adds `auth`, `@api/cors` adds `cors`), so an option type-checks only when the
 * package that implements it is imported.
 */
// eslint-disable-next-line @typescript-eslint/no-unused-vars
export interface MountOptions<TRoute extends object = object> {
  /** Mount-scoped middleware: runs after route resolution, before auth. */
  readonly middleware?: readonly Middleware[];
  /** Body and multipart limits for this mount's routes. */
  readonly limits?: MountLimits;
  /**
   * A path prefix for this mount's routes (`/v1`: `Resource('/widgets')` answers at
   * `/v1/widgets`). The same class may be mounted under several prefixes; Location and Link
   * built from its operations follow the prefix of the route answering. A literal path: no
   * slots, no trailing `/`.
   */
  readonly prefix?: string;
}

/** The `options` argument of `includeResource`/`includeEndpoint`: required when the route requires some. */
export type MountArgs<TRoute extends object> =
  NeedsOptions<TRoute> extends true
    ? // eslint-disable-next-line @typescript-eslint/no-redundant-type-constituents -- unknown until registered
      [options: MountRequirements<TRoute> & MountOptions<TRoute>]
    : [options?: MountOptions<TRoute>];
/** The type of the `options` argument when one is passed. */
export type MountArg<TRoute extends object> =
  NeedsOptions<TRoute> extends true
    ? // eslint-disable-next-line @typescript-eslint/no-redundant-type-constituents -- unknown until registered
      MountRequirements<TRoute> & MountOptions<TRoute>
    : MountOptions<TRoute> | undefined;

/** Options of an app's constructor. */
export interface AppOptions<TFactory = undefined> {
  /** A prebuilt factory (tests); otherwise the app builds its factory class. */
  readonly factory?: TFactory;
  /** App-wide limit overrides. */
  readonly limits?: LimitsOptions;
  /**
   * Where the app logs (default: the console, one readable line per message). A pino logger as it
   * is (anything with `child`, called as `(obj, msg)`: the error under `err`, the request's fields
   * beside it), or any object with `info(message, fields?)`, `warn(message, error?, fields?)` and
   * `error(message, error?, fields?)`. (A pino logger type-checks as a `Logger`: its methods
   * accept a message first too.)
   */
  readonly logger?: Logger;
  /**
   * The access log: one info line per finished request (`request finished`: method, route
   * template, path, status, duration, bytes out, request id), one per closed upgraded connection
   * (`connection closed`: lifetime, close code). Turns request ids on: each response carries
   * `x-request-id` (the caller's when well-formed, else generated). Default false (then none of it
   * is on the request path).
   */
  readonly requestLog?: boolean;
  /** Environment to read `APP_BASE_URL` / `APP_TRUST_FORWARDED` from (default `process.env`). */
  readonly env?: Readonly<Record<string, string | undefined>>;
  /**
   * Liveness and readiness answers for probes: `true` for `GET /livez` and `GET /readyz`, or
   * `{ livePath, readyPath }`. Answered before anything else (never behind auth, never
   * shed); readiness is `503` while the app starts and from SIGTERM on. Default off.
   */
  readonly health?: boolean | HealthOptions;
  /**
   * Load shedding: limits on event-loop delay, heap and RSS past which new requests get a `503`
   * with `retry-after` before routing. Default off (nothing measured).
   */
  readonly loadShedding?: LoadSheddingOptions;
  /**
   * Whether the app trusts the proxy in front of it (`true`, or how many hops): forwarded headers
   * then build public URLs and tell the client's address. Default: `APP_TRUST_FORWARDED`, else false.
   */
  readonly trustProxy?: TrustProxy;
}

/** Options of `app.start()`. */
export interface StartOptions {
  /** The transport the app will be fed by (default `'node'`); `'fetch'` on a fetch-only runtime. */
  readonly transport?: Transport;
}
