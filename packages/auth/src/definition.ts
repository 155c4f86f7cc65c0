// What each authenticator factory hands to `build`, and the checks its options pass first: every
// wrong argument is a WiringError naming the factory, the option and the fix.
import {
  checkKnownKeys,
  describeValue,
  isPlainObject,
  wiringError,
  type ObjectSchemaLike,
} from '@api/core/extension';
import type { AuthKind, MaybePromise, UserSchema } from './types';
import type { SecurityScheme } from './security-scheme';

/** An authenticator's definition, as its factory resolved it. */
export interface Definition {
  readonly kind: AuthKind;
  readonly label: string;
  readonly user: UserSchema;
  readonly headers: ObjectSchemaLike | undefined;
  readonly cookies: ObjectSchemaLike | undefined;
  readonly authenticate: (input: { headers?: unknown; cookies?: unknown }) => MaybePromise<unknown>;
  /** Whether `openapiSecurity` was given at all (given as undefined/null is a WiringError). */
  readonly schemeGiven: boolean;
  readonly scheme: unknown;
  /** The scheme of the header half when `openapiSecurity` is not given: bearer (basic for `basicAuth`). */
  readonly headerScheme: () => SecurityScheme;
  /** The `raises` option as given (checked by `checkRaises`). */
  readonly raises: unknown;
  /** Whether `wwwAuthenticate` was given at all, and its value. */
  readonly challengeGiven: boolean;
  readonly challenge: unknown;
  /** The `realm` of a basic challenge (`basicAuth({ realm })`). */
  readonly realm: unknown;
  /** Origins the default cross-origin protection trusts (cookie and hybrid authenticators). */
  readonly trustedOrigins: unknown;
}

const COMMON = ['user', 'authenticate', 'openapiSecurity', 'wwwAuthenticate', 'raises'];
/** The option keys of each factory. */
export const OPTION_KEYS = {
  headers: [...COMMON, 'headers', 'realm'],
  cookies: [...COMMON, 'cookies', 'trustedOrigins'],
  hybrid: [...COMMON, 'headers', 'cookies', 'trustedOrigins'],
} as const satisfies Record<AuthKind, readonly string[]>;

function isSchema(value: unknown): value is { readonly kind: 'schema'; readonly type: string } {
  return typeof value === 'object' && value !== null && (value as { kind?: unknown }).kind === 'schema';
}

function isObjectSchema(value: unknown): value is ObjectSchemaLike {
  return isSchema(value) && typeof (value as { entries?: unknown }).entries === 'object';
}

/**
 * Checks a factory's options object before anything reads it: an object with known keys, a
 * valibot `user` schema, `authenticate` a function, and the object schemas the kind reads.
 */
export function checkOptions(factory: string, kind: AuthKind, options: unknown): void {
  const keys: readonly string[] = OPTION_KEYS[kind];
  const parts = kind === 'headers' ? 'headers' : kind === 'cookies' ? 'cookies' : 'headers, cookies';
  if (!isPlainObject(options))
    throw wiringError(
      'API_WIRING_INVALID_ARGUMENT',
      factory,
      `expected an options object, got ${describeValue(options)}`,
      `pass { ${parts}, user, authenticate }`,
    );
  const o = options;
  checkKnownKeys(
    factory,
    o,
    keys,
    'realm' in o && !keys.includes('realm')
      ? 'realm is for basicAuth and header authenticators advertised as HTTP basic'
      : undefined,
  );
  if (!isSchema(o.user))
    throw wiringError(
      'API_WIRING_NOT_A_SCHEMA',
      factory,
      `"user" must be a valibot schema (the user the authenticator returns), got ${describeValue(o.user)}`,
      'user: User (gating) or user: v.nullable(User) (anonymous callers accepted)',
    );
  if (typeof o.authenticate !== 'function')
    throw wiringError(
      'API_WIRING_INVALID_ARGUMENT',
      factory,
      `"authenticate" must be a function, got ${describeValue(o.authenticate)}`,
      `authenticate: ({ ${parts} }) => user ?? null`,
    );
  for (const part of ['headers', 'cookies'] as const) {
    if (!keys.includes(part)) continue;
    if (!isObjectSchema(o[part]))
      throw wiringError(
        'API_WIRING_NOT_A_SCHEMA',
        factory,
        `"${part}" must be an object schema of the ${part} it reads, got ${describeValue(o[part])}`,
        `${part}: Struct('${part === 'headers' ? 'Credentials' : 'Session'}', { ${part === 'headers' ? 'authorization' : 'session_id'}: v.string() })`,
      );
  }
}
