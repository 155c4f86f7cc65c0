// Better Auth (from the registry, on its in-memory adapter) mounted at /api/auth as a fetch
// handler, and an @api authenticator over its session cookie: @api routes accept a Better Auth
// sign-in like any other session.
import { betterAuth } from 'better-auth';
import { memoryAdapter } from 'better-auth/adapters/memory';
import * as v from 'valibot';
import { AuthenticationRequiredError, Struct } from '@api/core';
import { cookieAuth, SecurityScheme } from '@api/auth';

/** Where Better Auth answers (its `basePath`; the app mounts its handler there). */
export const ACCOUNTS_PATH = '/api/auth';

/** Better Auth's session cookie on plain http (on https it is `__Secure-` prefixed). */
const SESSION_COOKIE = 'better-auth.session_token';

/** The signed-in account, as @api routes see it. */
export const Account = Struct('Account', { id: v.string(), email: v.string(), name: v.string() });
export type Account = v.InferOutput<typeof Account>;

const AccountCookies = Struct('AccountCookies', { [SESSION_COOKIE]: v.string() });

/** Options of `createAccounts`. */
export interface AccountsOptions {
  /** Signs Better Auth's cookies and tokens (`BETTER_AUTH_SECRET`; a fixed demo value otherwise). */
  readonly secret?: string | undefined;
  /** The public origin (`APP_BASE_URL`); unset: each request's own origin. */
  readonly baseURL?: string | undefined;
}

/** Builds the demo's Better Auth instance: email and password sign-up/sign-in, users in memory. */
export function createAccounts(options: AccountsOptions = {}) {
  const auth = betterAuth({
    basePath: ACCOUNTS_PATH,
    ...(options.baseURL ? { baseURL: options.baseURL } : {}),
    secret: options.secret ?? 'demo-only-secret-0f4e9a7c2b1d8e3f6a5c4b3a2d1e0f9a',
    database: memoryAdapter({ user: [], session: [], account: [], verification: [] }),
    emailAndPassword: { enabled: true, minPasswordLength: 8 },
    logger: { level: 'error' },
  });
  /** Authenticates Better Auth's session cookie (401 without one, or for an unknown session). */
  const accountAuth = cookieAuth({
    cookies: AccountCookies,
    user: Account,
    openapiSecurity: SecurityScheme.apiKey({
      name: SESSION_COOKIE,
      location: 'cookie',
      description: 'The Better Auth session cookie (sign in at /api/auth/sign-in/email).',
      schemeName: 'betterAuthSession',
    }),
    authenticate: async ({ cookies }): Promise<Account> => {
      const headers = new Headers({ cookie: `${SESSION_COOKIE}=${cookies[SESSION_COOKIE]}` });
      const session = await auth.api.getSession({ headers });
      if (session === null) throw new AuthenticationRequiredError();
      return { id: session.user.id, email: session.user.email, name: session.user.name };
    },
  });
  /** Renames the signed-in account (through Better Auth's own API, with the caller's cookie). */
  const rename = async (cookie: string, name: string): Promise<void> => {
    await auth.api.updateUser({ headers: new Headers({ cookie }), body: { name } });
  };
  return { auth, accountAuth, rename };
}

export type Accounts = ReturnType<typeof createAccounts>;
