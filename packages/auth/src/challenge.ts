// The `www-authenticate` challenge a mount's 401s carry, decided once when the authenticator is built.
import { wiringError } from '@api/core/extension';
import type { Definition } from './definition';
import type { SecurityScheme } from './security-scheme';

/** The realm a `Basic` challenge names when none is configured. */
const DEFAULT_REALM = 'api';

// A header value we can send: visible ASCII, space and tab (no CR, LF, NUL or other controls).
const HEADER_VALUE = /^[\t\x20-\x7e]+$/;

/**
 * The `www-authenticate` value every 401 of the mount carries (decided by the first advertised
 * scheme): `Bearer` for header and hybrid auth advertised as bearer, `Basic realm="…"` for basic, none for cookie auth and API-key schemes (no registered
 * HTTP scheme fits them); `wwwAuthenticate` overrides it (`false` sends none).
 */
export function challengeOf(def: Definition, scheme: SecurityScheme | undefined): string | undefined {
  if (def.challengeGiven) {
    const given = def.challenge;
    if (given === false) return undefined;
    if (typeof given !== 'string' || !HEADER_VALUE.test(given) || given.trim() !== given) {
      throw wiringError(
        'API_WIRING_INVALID_HEADER',
        def.label,
        'wwwAuthenticate must be a header value (visible ASCII, no line breaks) or false',
        `e.g. wwwAuthenticate: 'Bearer realm="api"', or false to send no challenge`,
      );
    }
    return given;
  }
  const object = scheme?.toOpenapi();
  if (object?.type === 'http' && object.scheme === 'basic') {
    const realm = def.realm === undefined ? DEFAULT_REALM : def.realm;
    // Sent as a quoted-string: no quote or backslash to escape, nothing a header cannot carry.
    if (typeof realm !== 'string' || !HEADER_VALUE.test(realm) || /["\\]/.test(realm)) {
      throw wiringError(
        'API_WIRING_INVALID_HEADER',
        def.label,
        'realm must be a non-empty string without quotes, backslashes or control characters',
        "e.g. realm: 'widgets'",
      );
    }
    return `Basic realm="${realm}"`;
  }
  if (def.realm !== undefined) {
    throw wiringError(
      'API_WIRING_AUTH_REALM',
      def.label,
      'realm is only used by a Basic challenge',
      'remove realm, or use basicAuth / openapiSecurity: SecurityScheme.httpBasic()',
    );
  }
  if (def.kind === 'cookies' || object === undefined || object.type === 'apiKey') return undefined;
  return 'Bearer';
}
