// What an app takes to run behind a load balancer: health answers, load shedding, and whether it
// trusts the proxy in front of it (`new App({ health, loadShedding, trustProxy })`).

/**
 * Liveness and readiness answers for probes (`new App({ health: true })` or with options).
 * Both are answered before anything else: never behind auth, never rate-limited or shed, and
 * while the app drains. `GET`/`HEAD` only; `200 {"status":"ok"}` or `503 {"status":"…"}`.
 */
export interface HealthOptions {
  /** The liveness path: `200` while the process serves at all. Default `/livez`. */
  readonly livePath?: string;
  /**
   * The readiness path: `200` while the app serves; `503` while it starts (`serve()` listens
   * while `wire()` runs; `app.fetch` and `app.listener` answer a probe without waiting) and from the moment
   * shutdown begins (under `serve()`: from SIGTERM, `drainDelayMs` before the server stops
   * accepting). Default `/readyz`.
   */
  readonly readyPath?: string;
  /**
   * List both probes as operations in generated documents (`@api/openapi`: tag `health`, their
   * `200`/`503` JSON answers). Default false: a probe is for the load balancer, not the API's
   * clients.
   */
  readonly document?: boolean;
}

/** The health answers an app gives, checked at construction (`health` resolved). */
export interface HealthPaths {
  readonly livePath: string;
  readonly readyPath: string;
  /** Whether generated documents list the probes (`health.document`). */
  readonly document: boolean;
}

/**
 * Load shedding (`new App({ loadShedding })`): past any limit set here, new requests get a `503`
 * Problem (`type: overloaded`) with `retry-after` before routing (health answers excepted). Each
 * is measured every `sampleIntervalMs`, off the request path; without this option nothing is
 * measured and no request pays a check.
 */
export interface LoadSheddingOptions {
  /**
   * The longest event-loop stall seen in the last interval, ms (`perf_hooks.monitorEventLoopDelay`,
   * 10 ms resolution).
   */
  readonly maxEventLoopDelayMs?: number;
  /** V8 heap in use, bytes (`process.memoryUsage().heapUsed`). */
  readonly maxHeapUsedBytes?: number;
  /** Resident set size, bytes (`process.memoryUsage.rss()`). */
  readonly maxRssBytes?: number;
  /** How often the limits are measured, ms. Default 1000. */
  readonly sampleIntervalMs?: number;
  /** The `retry-after` of a shed request, seconds. Default 5. */
  readonly retryAfterSeconds?: number;
}

/**
 * Whether the app trusts the proxy in front of it: `false` (default) reads the connection only;
 * `true` reads `X-Forwarded-For` (its first address), `X-Forwarded-Proto`, `-Host`, `-Port` and
 * `-Prefix`; a number `n` trusts the last `n` hops of `X-Forwarded-For` (the address the
 * outermost trusted proxy saw). One setting for URL building (`Location`, links) and the client's
 * address (`wiring.clientAddress`, traces, rate limits). `APP_TRUST_FORWARDED` in the environment
 * sets `true` when the option is absent.
 */
export type TrustProxy = boolean | number;
