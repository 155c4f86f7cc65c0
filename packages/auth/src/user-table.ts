// The spec's user table, checked per route at wiring: the authenticator's user schema against the
// `user` each operation (or source-declaring extension route) declares.
import { structInfo, wiringError, type RouteInfo } from '@api/core/extension';
import type { UserSchema } from './types';

/** True for a nullable (anonymous-accepting) user schema. */
export function isNullable(schema: UserSchema): boolean {
  const t = (schema as { type: string }).type;
  return t === 'nullable' || t === 'nullish';
}

/** The schema under nullable/nullish/optional wrappers (what two declarations must share). */
export function coreSchema(schema: UserSchema): unknown {
  let s = schema as { type: string; wrapped?: unknown };
  while ((s.type === 'nullable' || s.type === 'nullish' || s.type === 'optional') && s.wrapped)
    s = s.wrapped as typeof s;
  return s;
}

/** `User` or `v.nullable(User)`, as wiring messages name a user schema. */
export function schemaName(schema: UserSchema): string {
  const s = coreSchema(schema) as { type: string };
  const name = structInfo(s)?.name ?? s.type;
  return isNullable(schema) ? `v.nullable(${name})` : name;
}

/**
 * Fails wiring when `route` declares a `user` the authenticator cannot give it: a gating one with
 * a nullable declaration (or the reverse), an anonymous-accepting one with no declaration, or a
 * different user schema.
 */
export function checkUserTable(route: RouteInfo, user: UserSchema): void {
  // Operations, and extension routes that declare their sources (a WebSocket handler), follow the table.
  if (route.kind !== 'operation' && route.spec === undefined) return;
  const where = `${route.owner}.${route.operation}`;
  const anonymous = isNullable(user);
  const declared = route.spec?.user;
  if (declared === undefined) {
    if (anonymous) {
      throw wiringError(
        'API_WIRING_SOURCE',
        where,
        `the mount's authenticator accepts anonymous callers (${schemaName(user)}) but the operation declares no user`,
        `declare user: ${schemaName(user)} so the handler sees who called (null for anonymous), or use a gating authenticator`,
      );
    }
    return;
  }
  if (isNullable(declared) !== anonymous) {
    throw wiringError(
      'API_WIRING_SOURCE',
      where,
      anonymous
        ? `declares user: ${schemaName(declared)}, but the authenticator accepts anonymous callers and may pass null`
        : `declares user: ${schemaName(declared)}, but the authenticator gates (it never passes null)`,
      anonymous
        ? `declare user: ${schemaName(user)}`
        : `declare user: ${schemaName(user)}, or make the authenticator's user nullable to accept anonymous callers`,
    );
  }
  if (coreSchema(declared) !== coreSchema(user)) {
    throw wiringError(
      'API_WIRING_SOURCE',
      where,
      `declares user: ${schemaName(declared)}, but the authenticator returns ${schemaName(user)}`,
      `declare user: ${schemaName(user)}, or mount an authenticator that returns ${schemaName(declared)}`,
    );
  }
}
