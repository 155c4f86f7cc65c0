// @api/auth — authenticators as a typed mount option, through core's public extension point only.
import type { MountRequirement } from '@api/core';
import type { CrossOriginProtection } from './cross-origin';
import type { AuthFor, DeclaredUsers } from './types';
import './wiring-codes';

export { auth, basicAuth, bearerAuth, cookieAuth, hybridAuth } from './authenticator';
export type {
  AnyGating,
  AuthFacts,
  AuthFor,
  AuthKind,
  AuthOptions,
  AnyAuthenticator,
  Authenticator,
  CookieAuthOptions,
  HybridAuthOptions,
  IsNullable,
  TypedAuthenticator,
  UserSchema,
} from './types';
export { SecurityScheme, type ApiKeyLocation, type SecuritySchemeObject } from './security-scheme';
export {
  compileCrossOriginCheck,
  CrossOriginProtection,
  CrossOriginRequestError,
  csrf,
  type CrossOriginCheck,
  type CsrfOptions,
} from './cross-origin';

declare module '@api/core' {
  interface MountOptions<TRoute extends object> {
    /**
     * One authentication policy for the whole mount (every method, before the body is read).
     * Its user schema must match every operation's `user` declaration.
     */
    readonly auth?: AuthFor<TRoute>;
    /**
     * Cross-origin request protection for the mount's unsafe methods: on by default where a
     * cookie or hybrid authenticator guards them; `csrf(…)` puts it on any mount (a login route)
     * or trusts extra origins; `false` turns it off.
     */
    readonly csrf?: CrossOriginProtection | false;
  }
  interface MountRequirementRegistry<TRoute extends object> {
    /** A mount whose operations declare `user` needs `auth` (a type error without it). */
    auth: [DeclaredUsers<TRoute>] extends [never]
      ? unknown
      : MountRequirement<
          '@api: an operation of this route declares user, so the mount needs auth. Fix: mount it with { auth } (an authenticator from @api/auth), or remove user from its operations.',
          // Only "present": the value's type is MountOptions' `auth` (one type, so tsc prints it once).
          { readonly auth: NonNullable<unknown> }
        >;
  }
}
