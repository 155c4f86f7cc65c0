// The shape check of a middleware object: at defineMiddleware, and again where it is installed.
import { isFramingHeader } from '../http/framing';
import { isOwnedHeader, ownedHeaderFix } from '../http/owned-fields';
import { describeValue, isObjectSchema, wiringError } from '../contract/wiring-error';

/** What a middleware object may hold (structural: this file imports nothing of middleware.ts). */
interface MiddlewareShape {
  readonly headers?: unknown;
  readonly responseHeaders?: unknown;
  readonly intercept?: unknown;
  readonly interceptMethods?: readonly unknown[];
  readonly observe?: unknown;
}

const MIDDLEWARE_KEYS: readonly string[] = [
  'headers',
  'responseHeaders',
  'intercept',
  'interceptMethods',
  'observe',
];

/**
 * Middleware objects that passed `checkMiddleware` (true: with `strictKeys`): one object is checked
 * once, however often it is mounted.
 */
const checked = new WeakMap<object, boolean>();

/**
 * Checks a middleware object's shape, once per object: at `defineMiddleware`, or where a plain
 * object is first installed; every mistake is a `WiringError` naming `where`. `strictKeys` (a
 * literal from `defineMiddleware`) also refuses unknown keys: a typo such as `responseHeader` would
 * silently install nothing.
 */
export function checkMiddleware(where: string, given: unknown, strictKeys = false): void {
  if (typeof given !== 'object' || given === null)
    throw wiringError(
      'API_WIRING_INVALID_ARGUMENT',
      where,
      `middleware must be an object, got ${describeValue(given)}`,
      'pass { responseHeaders?, intercept?, observe? }',
    );
  const before = checked.get(given);
  if (before === true || (before === false && !strictKeys)) return;
  checkShape(where, given, strictKeys);
  checked.set(given, strictKeys);
}

function checkShape(where: string, mw: MiddlewareShape, strictKeys: boolean): void {
  if (strictKeys)
    for (const key of Object.keys(mw))
      if (!MIDDLEWARE_KEYS.includes(key))
        throw wiringError(
          'API_WIRING_UNKNOWN_OPTION',
          where,
          `unknown middleware key "${key}"`,
          `use only ${MIDDLEWARE_KEYS.join(', ')}`,
        );
  if (mw.headers !== undefined && !isObjectSchema(mw.headers))
    throw wiringError(
      'API_WIRING_NOT_A_SCHEMA',
      where,
      'headers must be an object schema (the request headers ' +
        `the hooks read), got ${describeValue(mw.headers)}`,
      "headers: Struct('Headers', { x_request_id: v.optional(v.string()) })",
    );
  const hasHook =
    mw.responseHeaders !== undefined ||
    typeof mw.intercept === 'function' ||
    typeof mw.observe === 'function';
  if (!hasHook)
    throw wiringError(
      'API_WIRING_MIDDLEWARE',
      where,
      'the middleware object has none of responseHeaders, intercept, observe',
      'add at least one hook',
    );
  if (mw.interceptMethods !== undefined && typeof mw.intercept !== 'function')
    throw wiringError(
      'API_WIRING_MIDDLEWARE',
      where,
      'interceptMethods without intercept',
      'add an intercept method or drop interceptMethods',
    );
  if (typeof mw.intercept === 'function') checkInterceptMethods(where, mw.interceptMethods);
  const rh = mw.responseHeaders;
  if (rh !== undefined && typeof rh !== 'function' && (typeof rh !== 'object' || rh === null))
    throw wiringError(
      'API_WIRING_MIDDLEWARE',
      where,
      'responseHeaders must be an object of constant headers or a method',
      'return a Record<string, string>',
    );
  if (typeof rh === 'function' && rh.constructor.name === 'AsyncFunction')
    throw wiringError(
      'API_WIRING_MIDDLEWARE',
      where,
      'responseHeaders is async; headers are computed while the response is written',
      'make it synchronous (compute what it needs in intercept or observe)',
    );
  if (rh !== undefined && typeof rh === 'object') {
    for (const [name, value] of Object.entries(rh)) {
      const lower = name.toLowerCase();
      if (isFramingHeader(lower, undefined))
        throw wiringError(
          'API_WIRING_FRAMING_HEADER',
          where,
          `responseHeaders sets "${lower}", a framing header the framework computes for every response`,
          'remove it',
        );
      if (isOwnedHeader(lower))
        throw wiringError(
          'API_WIRING_OWNED_HEADER',
          where,
          `responseHeaders sets "${lower}", a field each response sends itself ` +
            '(the hook would add a second line to every answer, errors and 404s included)',
          ownedHeaderFix(lower),
        );
      if (typeof value !== 'string' || /[\r\n\0]/.test(value))
        throw wiringError(
          'API_WIRING_INVALID_HEADER',
          where,
          `responseHeaders "${lower}" must be a string without CR, LF or NUL`,
          'give a plain string value',
        );
    }
  }
}

const KNOWN_METHODS: readonly string[] = ['GET', 'HEAD', 'POST', 'PUT', 'PATCH', 'DELETE'];

/**
 * The spec's rule: an intercept names the methods it runs for, each once, never OPTIONS. A method
 * is matched as sent on the wire (upper-case), so `'get'` or `'get '` is a mistake, not a spelling.
 */
function checkInterceptMethods(where: string, methods: readonly unknown[] | undefined): void {
  if (!Array.isArray(methods) || methods.length === 0)
    throw wiringError(
      'API_WIRING_MIDDLEWARE',
      where,
      'an intercept needs interceptMethods (the methods it runs for)',
      "add interceptMethods: ['GET', 'POST', …]",
    );
  const seen = new Set<string>();
  for (const m of methods) {
    if (typeof m !== 'string')
      throw wiringError(
        'API_WIRING_HTTP_METHOD',
        where,
        `interceptMethods lists ${describeValue(m)}, which is not a method name`,
        "use 'GET', 'HEAD', 'POST', 'PUT', 'PATCH' or 'DELETE'",
      );
    const upper = m.trim().toUpperCase();
    if (upper === 'OPTIONS')
      throw wiringError(
        'API_WIRING_HTTP_METHOD',
        where,
        'interceptMethods names OPTIONS, which the framework answers itself (CORS preflights)',
        'remove OPTIONS',
      );
    if (!KNOWN_METHODS.includes(upper))
      throw wiringError(
        'API_WIRING_HTTP_METHOD',
        where,
        `interceptMethods names ${JSON.stringify(m)}, ` + 'which is not an HTTP method an intercept runs for',
        "use 'GET', 'HEAD', 'POST', 'PUT', 'PATCH' or 'DELETE'",
      );
    if (m !== upper)
      throw wiringError(
        'API_WIRING_HTTP_METHOD',
        where,
        `interceptMethods names ${JSON.stringify(m)}; methods are matched ` +
          'as sent on the wire, in upper case, so it would never match',
        `write '${upper}'`,
      );
    if (seen.has(upper))
      throw wiringError(
        'API_WIRING_DUPLICATE',
        where,
        `interceptMethods names ${upper} twice`,
        'list each method once',
      );
    seen.add(upper);
  }
}

/**
 * A scoped intercept must be able to run: at least one of its `interceptMethods` is answered by
 * the routes it is mounted on (HEAD counts where GET is answered, as HEAD is served from GET).
 *
 * @param where - The mount, e.g. `App.includeEndpoint(Health)`.
 * @param middleware - The mount's middleware list (already shape-checked).
 * @param methods - The methods the mount's routes answer, e.g. `['GET']`.
 */
export function checkInterceptsReach(
  where: string,
  middleware: readonly { readonly intercept?: unknown; readonly interceptMethods?: readonly string[] }[],
  methods: readonly string[],
): void {
  const answered = new Set(methods);
  if (answered.has('GET')) answered.add('HEAD');
  middleware.forEach((mw, i) => {
    if (typeof mw.intercept !== 'function' || mw.interceptMethods === undefined) return;
    if (mw.interceptMethods.some((m) => answered.has(m))) return;
    throw wiringError(
      'API_WIRING_INTERCEPT_UNREACHABLE',
      where,
      `middleware[${i}] intercepts ${mw.interceptMethods.join(', ')}, but the mount ` +
        `answers only ${[...answered].join(', ')}, so the intercept would never run`,
      `list the methods it should guard (e.g. interceptMethods: ['${methods[0] ?? 'GET'}']), ` +
        `or mount it where ${mw.interceptMethods.join('/')} is answered`,
    );
  });
}

/**
 * Method names an extension gives (`wiring.addIntercept({ methods })`): each one upper-case, as
 * requests carry it, so a lower-case name never silently matches nothing.
 *
 * @param where - The call, e.g. `wiring.addIntercept`.
 * @param methods - The names given.
 */
export function checkMethodNames(where: string, methods: readonly string[]): void {
  for (const m of methods) {
    if (/^[A-Z][A-Z-]*$/.test(m)) continue;
    const upper = m.trim().toUpperCase();
    throw wiringError(
      'API_WIRING_HTTP_METHOD',
      where,
      `${JSON.stringify(m)} is not an HTTP method as requests carry it (upper case)`,
      `${/^[A-Z][A-Z-]*$/.test(upper) ? `write '${upper}'` : "use e.g. 'GET' or 'POST'"}`,
    );
  }
}
