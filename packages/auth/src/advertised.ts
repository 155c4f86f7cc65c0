// How an authenticator is advertised in OpenAPI: the security schemes a client may use (one of
// them), decided once when the authenticator is built.
import { BaseHTTPError, type ErrorClass } from '@api/core';
import { describeValue, wiringError } from '@api/core/extension';
import type { Definition } from './definition';
import { SecurityScheme } from './security-scheme';

/** The schemes a document lists for an authenticator, or why it cannot list any. */
export interface Advertised {
  /** Alternatives: a client sends the credential of one of them. Empty when undescribed. */
  readonly security: readonly SecurityScheme[];
  /** Why `security` is empty: the authenticator needs `openapiSecurity` to be documented. */
  readonly undescribed: string | undefined;
}

/**
 * The documented schemes: `openapiSecurity` when given (one scheme, or a list of alternatives);
 * otherwise header auth as its header scheme (bearer, or basic for `basicAuth`), a cookie
 * authenticator as an API key in its one cookie, and a hybrid one as both alternatives. A cookie
 * authenticator reading several cookies cannot be described (which one is the credential?): it
 * is advertised as nothing, and @api/openapi asks for `openapiSecurity`.
 *
 * @param def - the authenticator's definition
 */
export function advertised(def: Definition): Advertised {
  if (def.schemeGiven) return { security: givenSchemes(def), undescribed: undefined };
  const header = def.headerScheme();
  if (def.kind === 'headers') return { security: [header], undescribed: undefined };
  const names = Object.keys(def.cookies?.entries ?? {});
  if (names.length !== 1)
    return {
      security: [],
      undescribed: `${def.label} reads ${names.length} cookies (${names.join(', ')}), and an OpenAPI API key is one cookie`,
    };
  const cookie = SecurityScheme.apiKey({ name: names[0]!, location: 'cookie' });
  return { security: def.kind === 'cookies' ? [cookie] : [header, cookie], undescribed: undefined };
}

function givenSchemes(def: Definition): readonly SecurityScheme[] {
  const given = def.scheme;
  if (given instanceof SecurityScheme) return [given];
  if (Array.isArray(given) && given.length > 0 && given.every((s) => s instanceof SecurityScheme)) {
    const names = given.map((s: SecurityScheme) => s.schemeName);
    if (new Set(names).size === names.length) return Object.freeze([...given]);
    throw wiringError(
      'API_WIRING_DUPLICATE',
      def.label,
      `openapiSecurity lists two schemes named "${names.find((n, i) => names.indexOf(n) !== i)}"`,
      'give each alternative its own schemeName',
    );
  }
  throw wiringError(
    'API_WIRING_INVALID_ARGUMENT',
    def.label,
    'openapiSecurity is not a SecurityScheme (or a non-empty list of them, the alternatives a client may use)',
    'use SecurityScheme.httpBearer(), SecurityScheme.httpBasic() or SecurityScheme.apiKey({ name, location }), or leave it out for the default',
  );
}

/**
 * The `raises` option: error classes `authenticate` may throw (documented on every operation of
 * the mount, beside the 401 the authenticator raises itself).
 *
 * @param label - the factory, for the error
 * @param given - the option's value
 */
export function checkRaises(label: string, given: unknown): readonly ErrorClass[] {
  if (given === undefined) return [];
  const ok =
    Array.isArray(given) &&
    given.every(
      (c) => typeof c === 'function' && (c as { prototype?: unknown }).prototype instanceof BaseHTTPError,
    );
  if (!ok)
    throw wiringError(
      'API_WIRING_NOT_AN_ERROR_CLASS',
      label,
      `raises must be a list of HTTP error classes (what authenticate throws), got ${Array.isArray(given) ? 'a list holding something else' : describeValue(given)}`,
      'e.g. raises: [InvalidTokenError], with class InvalidTokenError extends HTTPError.define({ … }) {}',
    );
  return Object.freeze([...(given as ErrorClass[])]);
}
