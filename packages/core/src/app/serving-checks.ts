// Construction-time checks of the options for running behind a load balancer: `health`,
// `loadShedding`, `trustProxy` (`new App({ … })`).
import { describeValue, wiringError } from '../contract/wiring-error';
import type {
  HealthOptions,
  HealthPaths,
  LoadSheddingOptions,
  TrustProxy,
} from '../contract/serving-options';
import { DEFAULT_LIVE_PATH, DEFAULT_READY_PATH } from '../runtime/health';

const HEALTH_KEYS = ['livePath', 'readyPath', 'document'];
const SHEDDING_KEYS = [
  'maxEventLoopDelayMs',
  'maxHeapUsedBytes',
  'maxRssBytes',
  'sampleIntervalMs',
  'retryAfterSeconds',
];
const LIMIT_KEYS = ['maxEventLoopDelayMs', 'maxHeapUsedBytes', 'maxRssBytes'];
const SHEDDING_EXAMPLES: Readonly<Record<string, number>> = {
  maxEventLoopDelayMs: 200,
  maxHeapUsedBytes: 1_073_741_824,
  maxRssBytes: 1_610_612_736,
  sampleIntervalMs: 1000,
  retryAfterSeconds: 5,
};
/** A static path a probe can ask for: `/` then unreserved and sub-delim characters, no slots. */
const PROBE_PATH = /^(\/[A-Za-z0-9\-._~!$&'()*+,;=:@]+)+$/;

function isRecord(value: unknown): value is Record<string, unknown> {
  return typeof value === 'object' && value !== null && !Array.isArray(value);
}

function unknownKeys(where: string, option: string, value: Record<string, unknown>, keys: string[]): void {
  for (const key of Object.keys(value))
    if (!keys.includes(key))
      throw wiringError(
        'API_WIRING_UNKNOWN_OPTION',
        where,
        `unknown ${option} option "${key}"`,
        `use only ${keys.join(', ')}`,
      );
}

/** Checks `health` (true, false, or `{ livePath, readyPath }`) and returns its paths. */
export function checkHealth(where: string, health: unknown): HealthPaths | undefined {
  if (health === undefined || health === false) return undefined;
  if (health === true) return { livePath: DEFAULT_LIVE_PATH, readyPath: DEFAULT_READY_PATH, document: false };
  if (!isRecord(health))
    throw wiringError(
      'API_WIRING_INVALID_ARGUMENT',
      where,
      `health must be true, false or an object, got ${describeValue(health)}`,
      "health: true for /livez and /readyz, or health: { livePath: '/healthz' }",
    );
  unknownKeys(where, 'health', health, HEALTH_KEYS);
  const o = health as HealthOptions;
  const paths = { livePath: o.livePath ?? DEFAULT_LIVE_PATH, readyPath: o.readyPath ?? DEFAULT_READY_PATH };
  for (const [key, path] of Object.entries(paths))
    if (typeof path !== 'string' || !PROBE_PATH.test(path))
      throw wiringError(
        'API_WIRING_INVALID_PATH',
        where,
        `health.${key} must be a static path such as "/livez", got ${describeValue(path)}`,
        `${key}: '/${key === 'livePath' ? 'livez' : 'readyz'}' (no slots, query or trailing slash)`,
      );
  if (paths.livePath === paths.readyPath)
    throw wiringError(
      'API_WIRING_INVALID_PATH',
      where,
      `health.livePath and health.readyPath are both "${paths.livePath}"`,
      'give liveness and readiness their own paths (a readiness 503 must not restart the process)',
    );
  const document = o.document ?? false;
  if (typeof document !== 'boolean')
    throw wiringError(
      'API_WIRING_INVALID_ARGUMENT',
      where,
      `health.document must be true or false, got ${describeValue(document)}`,
      'document: true lists /livez and /readyz in the OpenAPI document; leave it out to keep them unlisted',
    );
  return { ...paths, document };
}

/** Checks `loadShedding`: an object with at least one limit, each a positive number. */
export function checkLoadShedding(where: string, shedding: unknown): LoadSheddingOptions | undefined {
  if (shedding === undefined) return undefined;
  if (!isRecord(shedding))
    throw wiringError(
      'API_WIRING_INVALID_ARGUMENT',
      where,
      `loadShedding must be an object of limits, got ${describeValue(shedding)}`,
      'loadShedding: { maxEventLoopDelayMs: 200 }, or leave it out',
    );
  unknownKeys(where, 'loadShedding', shedding, SHEDDING_KEYS);
  for (const key of SHEDDING_KEYS) {
    const value = shedding[key];
    if (value === undefined) continue;
    const whole = key === 'sampleIntervalMs' || key === 'retryAfterSeconds';
    if (
      typeof value !== 'number' ||
      !Number.isFinite(value) ||
      value <= 0 ||
      (whole && !Number.isInteger(value))
    )
      throw wiringError(
        'API_WIRING_LIMIT',
        where,
        `loadShedding.${key} must be a positive ${whole ? 'whole ' : ''}number, ` +
          `got ${typeof value === 'number' ? value : describeValue(value)}`,
        `e.g. ${key}: ${SHEDDING_EXAMPLES[key]}, or leave it out`,
      );
  }
  if (!LIMIT_KEYS.some((key) => shedding[key] !== undefined))
    throw wiringError(
      'API_WIRING_LIMIT',
      where,
      'loadShedding sets no limit, so nothing would ever be shed',
      `set at least one of ${LIMIT_KEYS.join(', ')}, or leave loadShedding out`,
    );
  return shedding;
}

/** Checks `trustProxy`: true, false, or how many proxy hops to trust. */
export function checkTrustProxy(where: string, trust: unknown): TrustProxy | undefined {
  if (trust === undefined || typeof trust === 'boolean') return trust;
  if (typeof trust === 'number' && Number.isInteger(trust) && trust >= 0) return trust;
  throw wiringError(
    'API_WIRING_INVALID_ARGUMENT',
    where,
    `trustProxy must be true, false or a whole number of proxy hops, got ${describeValue(trust)}`,
    'trustProxy: 1 behind one load balancer that appends to X-Forwarded-For, or leave it out',
  );
}
