import { describeValue, wiringError } from '../contract/wiring-error';

/** The methods a route serves (OPTIONS is answered by the framework, never routed or preflighted). */
export const ROUTE_METHODS: readonly string[] = Object.freeze([
  'GET',
  'HEAD',
  'POST',
  'PUT',
  'PATCH',
  'DELETE',
]);

const TOKEN = /^[!#$%&'*+\-.^_`|~0-9A-Za-z]+$/;
const UPPER_TOKEN = /^[A-Z][A-Z-]*$/;

/**
 * Checks one method name as a request carries it — the one rule of the framework: a method is
 * case-sensitive (RFC 9110 §9.1) and requests carry the standard ones in upper case, so `'get'`
 * would never match and is refused (suggesting `'GET'`) instead of being rewritten. With `allowed`,
 * only those methods are accepted; without, any upper-case token (an extension method). Every
 * mistake is `API_WIRING_HTTP_METHOD`.
 *
 * @param where - Who declares the method, e.g. `new CORS(options)`.
 * @param label - The option that lists it, e.g. `allowMethods`.
 * @param method - The name given.
 * @param allowed - The methods accepted here (default: any upper-case token).
 * @example
 * checkMethod('new CORS(options)', 'allowMethods', 'get', ROUTE_METHODS); // throws: write 'GET'
 */
export function checkMethod(
  where: string,
  label: string,
  method: unknown,
  allowed?: readonly string[],
): string {
  const use =
    allowed === undefined ? "use an upper-case method name, e.g. 'GET' or 'POST'" : `use ${list(allowed)}`;
  if (typeof method !== 'string' || !TOKEN.test(method.trim()))
    throw wiringError(
      'API_WIRING_HTTP_METHOD',
      where,
      `${label} lists ${typeof method === 'string' ? JSON.stringify(method) : describeValue(method)}, ` +
        'which is not an HTTP method name',
      use,
    );
  const upper = method.trim().toUpperCase();
  if (upper === 'OPTIONS' && !(allowed ?? []).includes('OPTIONS'))
    throw wiringError(
      'API_WIRING_HTTP_METHOD',
      where,
      `${label} names ${JSON.stringify(method)}: OPTIONS is answered by the framework itself (preflights included)`,
      'remove OPTIONS',
    );
  if (allowed !== undefined ? !allowed.includes(upper) : !UPPER_TOKEN.test(upper))
    throw wiringError(
      'API_WIRING_HTTP_METHOD',
      where,
      `${label} names ${JSON.stringify(method)}, which is not a method served here`,
      use,
    );
  if (method !== upper)
    throw wiringError(
      'API_WIRING_HTTP_METHOD',
      where,
      `${label} names ${JSON.stringify(method)}; methods are case-sensitive (RFC 9110 §9.1) and ` +
        'requests carry them in upper case, so it would never match',
      `write '${upper}'`,
    );
  return method;
}

/**
 * Checks a list of method names with `checkMethod`'s rule, each listed once (a repeat is
 * `API_WIRING_DUPLICATE`). The list may be empty; a caller that needs one says so itself.
 *
 * @param where - Who declares the list.
 * @param label - The option, e.g. `allowMethods`.
 * @param methods - The names given (a list, checked by the caller or the options schema).
 * @param allowed - The methods accepted here (default: any upper-case token).
 * @example
 * const methods = checkMethods('new CORS(options)', 'allowMethods', options.allowMethods, ROUTE_METHODS);
 */
export function checkMethods(
  where: string,
  label: string,
  methods: readonly unknown[],
  allowed?: readonly string[],
): readonly string[] {
  const seen = new Set<string>();
  for (const m of methods) {
    const method = checkMethod(where, label, m, allowed);
    if (seen.has(method))
      throw wiringError(
        'API_WIRING_DUPLICATE',
        where,
        `${label} names ${method} twice`,
        'list each method once',
      );
    seen.add(method);
  }
  return [...seen];
}

function list(methods: readonly string[]): string {
  const quoted = methods.map((m) => `'${m}'`);
  return quoted.length < 2
    ? (quoted[0] ?? 'no method')
    : `${quoted.slice(0, -1).join(', ')} or ${quoted.at(-1)}`;
}
