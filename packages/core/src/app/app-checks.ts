// Construction-time checks of an app: its options, and what `include` does with an async setup.
import { describeValue, WiringError, wiringError } from '../contract/wiring-error';
import { closestName } from '../checks/closest-name';

/** The keys `new App(options)` reads (`AppOptions`). */
const APP_OPTIONS = [
  'logger',
  'requestLog',
  'limits',
  'env',
  'factory',
  'health',
  'loadShedding',
  'trustProxy',
] as const;
import { checkHealth, checkLoadShedding, checkTrustProxy } from './serving-checks';
import type { HealthPaths, LoadSheddingOptions, TrustProxy } from '../contract/serving-options';

/** The checked options for running behind a load balancer. */
export interface ServingOptions {
  readonly health: HealthPaths | undefined;
  readonly loadShedding: LoadSheddingOptions | undefined;
  readonly trustProxy: TrustProxy | undefined;
}

/**
 * Checks `new App(options)`: an object with only the `AppOptions` keys (a misspelled
 * `requestlog` would otherwise turn nothing on), each of the right kind; `limits` is checked by
 * `mergeLimits`. A subclass with options of its own takes them out before `super(options)`.
 */
export function checkAppOptions(appName: string, options: unknown): ServingOptions {
  const where = `new ${appName}(options)`;
  if (typeof options !== 'object' || options === null || Array.isArray(options))
    throw wiringError(
      'API_WIRING_INVALID_ARGUMENT',
      where,
      `options must be an object, got ${describeValue(options)}`,
      'pass { logger, requestLog, limits, env, health, loadShedding, trustProxy, factory } or nothing',
    );
  const o = options as Record<string, unknown>;
  for (const key of Object.keys(o)) {
    if ((APP_OPTIONS as readonly string[]).includes(key)) continue;
    const guess = closestName(key, APP_OPTIONS);
    throw wiringError(
      'API_WIRING_UNKNOWN_OPTION',
      where,
      `unknown option "${key}"${guess ? ` (did you mean ${guess}?)` : ''}`,
      `use only ${APP_OPTIONS.join(', ')}; a subclass with options of its own takes them out ` +
        'first: const { mine, ...appOptions } = options; super(appOptions)',
    );
  }
  const serving: ServingOptions = {
    health: checkHealth(where, o.health),
    loadShedding: checkLoadShedding(where, o.loadShedding),
    trustProxy: checkTrustProxy(where, o.trustProxy),
  };
  const logger = o.logger;
  if (logger !== undefined) {
    const l = logger as Record<string, unknown> | null;
    const missing =
      typeof logger !== 'object' || l === null
        ? ['info', 'warn', 'error']
        : ['info', 'warn', 'error'].filter((m) => typeof l[m] !== 'function');
    if (missing.length > 0)
      throw wiringError(
        'API_WIRING_INVALID_ARGUMENT',
        where,
        'logger must have info, warn and error methods (' +
          (typeof logger === 'object' && logger !== null
            ? `missing ${missing.join(', ')}`
            : `got ${describeValue(logger)}`) +
          ')',
        'pass a pino logger, or { info(message, fields?), warn(message, error?, ' +
          'fields?), error(message, error?, fields?) }, or leave it out for the console',
      );
  }
  const requestLog = o.requestLog;
  if (requestLog !== undefined && typeof requestLog !== 'boolean')
    throw wiringError(
      'API_WIRING_INVALID_ARGUMENT',
      where,
      `requestLog must be true or false, got ${describeValue(requestLog)}`,
      'requestLog: true for one log line per finished request, or leave it out',
    );
  const env = o.env;
  if (env !== undefined) {
    if (typeof env !== 'object' || env === null || Array.isArray(env))
      throw wiringError(
        'API_WIRING_ENV',
        where,
        `env must be an object of variable → string, got ${describeValue(env)}`,
        "env: { APP_BASE_URL: 'https://api.example' }, or leave it out for process.env",
      );
    for (const [name, value] of Object.entries(env))
      if (value !== undefined && typeof value !== 'string')
        throw wiringError(
          'API_WIRING_ENV',
          where,
          `env variable ${name} must be a string, got ${describeValue(value)}`,
          'pass strings, as process.env holds them',
        );
  }
  return serving;
}

/** True for a promise or any other thenable (what an async `setup` returns). */
export function isThenable(value: unknown): value is PromiseLike<unknown> {
  return (
    (typeof value === 'object' || typeof value === 'function') &&
    value !== null &&
    typeof (value as { then?: unknown }).then === 'function'
  );
}

/** A rejected async extension setup as a startup failure: a `WiringError` naming the extension. */
export function includeFailure(where: string, error: unknown): WiringError {
  if (error instanceof WiringError) return error;
  const reason = error instanceof Error ? error.message : String(error);
  return wiringError(
    'API_WIRING_SETUP_FAILED',
    where,
    `the extension's async setup failed: ${reason}`,
    'correct what the cause reports (error.cause), then start again',
    { cause: error },
  );
}

/** Checks `app.start(options)`: an object whose `transport`, if given, is `'node'` or `'fetch'`. */
export function checkStartOptions(appName: string, options: unknown): 'node' | 'fetch' | undefined {
  const where = `${appName}.start(options)`;
  if (typeof options !== 'object' || options === null || Array.isArray(options))
    throw wiringError(
      'API_WIRING_INVALID_ARGUMENT',
      where,
      `options must be an object, got ${describeValue(options)}`,
      "start({ transport: 'fetch' }) or start()",
    );
  for (const key of Object.keys(options))
    if (key !== 'transport')
      throw wiringError('API_WIRING_UNKNOWN_OPTION', where, `unknown option "${key}"`, 'use only transport');
  const transport = (options as { transport?: unknown }).transport;
  if (transport === undefined || transport === 'node' || transport === 'fetch') return transport;
  throw wiringError(
    'API_WIRING_INVALID_ARGUMENT',
    where,
    `transport must be 'node' or 'fetch', got ${describeValue(transport)}`,
    "'node' for serve() (node:http, also Bun and Deno), " +
      "'fetch' for app.fetch on a fetch-only runtime (workerd)",
  );
}

/** An app started for one transport, asked to run on the other. */
export function transportMismatch(appName: string, started: string, asked: string): WiringError {
  return asked === 'node'
    ? wiringError(
        'API_WIRING_APP_STATE',
        appName,
        "started for the fetch transport (by app.fetch, or start({ transport: 'fetch' })), so " +
          'serve() cannot run it on node:http (extensions that need Node were wired for fetch)',
        'serve(app) before any app.fetch call; app.fetch also answers on an app serve() started',
      )
    : wiringError(
        'API_WIRING_APP_STATE',
        appName,
        'already started for node:http (serve() or start()), asked to start for the fetch transport',
        "call start({ transport: 'fetch' }) first, before serve() or start(); or " +
          'use app.fetch on it as it is (on Node it answers through the same routes)',
      );
}
