// What each authenticator factory hands to `build`, and the checks its options pass first: every
// wrong argument is a WiringError naming the factory, the option and the fix.
import { describeValue, WiringError, type ObjectSchemaLike } from '@api/core/extension';
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
  if (typeof options !== 'object' || options === null || Array.isArray(options))
    throw new WiringError(
      `${factory}: expected an options object, got ${describeValue(options)}. Fix: pass { ${parts}, user, authenticate }.`,
    );
  const o = options as Record<string, unknown>;
  for (const key of Object.keys(o))
    if (!keys.includes(key))
      throw new WiringError(
        `${factory}: unknown option "${key}". Fix: use only ${keys.join(', ')}${key === 'realm' ? ' (realm is for basicAuth and header authenticators advertised as HTTP basic)' : ''}.`,
      );
  if (!isSchema(o.user))
    throw new WiringError(
      `${factory}: "user" must be a valibot schema (the user the authenticator returns), got ${describeValue(o.user)}. Fix: user: User (gating) or user: v.nullable(User) (anonymous callers accepted).`,
    );
  if (typeof o.authenticate !== 'function')
    throw new WiringError(
      `${factory}: "authenticate" must be a function, got ${describeValue(o.authenticate)}. Fix: authenticate: ({ ${parts} }) => user ?? null.`,
    );
  for (const part of ['headers', 'cookies'] as const) {
    if (!keys.includes(part)) continue;
    if (!isObjectSchema(o[part]))
      throw new WiringError(
        `${factory}: "${part}" must be an object schema of the ${part} it reads, got ${describeValue(o[part])}. Fix: ${part}: Struct('${part === 'headers' ? 'Credentials' : 'Session'}', { ${part === 'headers' ? 'authorization' : 'session_id'}: v.string() }).`,
      );
  }
}
