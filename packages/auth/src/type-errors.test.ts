// The `auth` mount option's compile-time rejections say the rule and the fix: each fixture is
// compiled (one TypeScript program for all, with this package's tsconfig) and its error text must
// carry the `@api:` message and its `Fix:`, in ASCII, instead of "Expected 2 arguments, but got 1"
// or "not assignable to type 'never'".
import { beforeAll, describe, expect, it } from 'vitest';
import { compileFixtures, type FixtureDiagnostics } from '../../../config/test/type-diagnostics';

const HEAD = `import * as v from 'valibot';
import { BaseApp, Endpoint, Struct } from '@api/core';
import { bearerAuth, type Authenticator } from '../src/index';
const User = Struct('User', { id: v.string() });
const Admin = Struct('Admin', { id: v.string(), admin: v.literal(true) });
const Credentials = Struct('Credentials', { authorization: v.string() });
const gating = bearerAuth({ headers: Credentials, user: User, authenticate: () => ({ id: '1' }) });
const anonymous = bearerAuth({ headers: Credentials, user: v.nullable(User), authenticate: () => null });
const admins = bearerAuth({ headers: Credentials, user: Admin, authenticate: () => ({ id: '1', admin: true as const }) });
class WithUser extends Endpoint('/u') { get = this.operation({ user: User }, () => undefined); }
class WithNullable extends Endpoint('/n') { get = this.operation({ user: v.nullable(User) }, () => undefined); }
class WithoutUser extends Endpoint('/w') { get = this.operation({}, () => undefined); }
class Mixed extends Endpoint('/m') {
  get = this.operation({ user: v.nullable(User) }, () => undefined);
  post = this.operation({}, () => undefined);
}
class TwoUsers extends Endpoint('/two') {
  get = this.operation({ user: User }, () => undefined);
  post = this.operation({ user: Admin }, () => undefined);
}
void [gating, anonymous, admins, WithUser, WithNullable, WithoutUser, Mixed, TwoUsers];
`;

/** One mount per fixture, and the words its error must contain. */
const REJECTED: Record<string, { readonly mount: string; readonly says: readonly string[] }> = {
  'user-without-auth': {
    mount: 'this.includeEndpoint(new WithUser())',
    says: [
      '@api: an operation of this route declares user, so the mount needs auth.',
      'Fix: mount it with { auth } (an authenticator from @api/auth), or remove user from its operations.',
    ],
  },
  'user-with-options-but-no-auth': {
    mount: 'this.includeEndpoint(new WithUser(), { middleware: [] })',
    says: [
      "Property 'auth' is missing",
      '@api: an operation of this route declares user, so the mount needs auth',
    ],
  },
  'anonymous-authenticator-for-a-non-null-user': {
    mount: 'this.includeEndpoint(new WithUser(), { auth: anonymous })',
    says: [
      '@api: the operations declare a non-null user, so auth must gate and return that same user schema.',
      'Fix: build the authenticator with the declared user schema (not nullable)',
    ],
  },
  'gating-authenticator-for-a-nullable-user': {
    mount: 'this.includeEndpoint(new WithNullable(), { auth: gating })',
    says: [
      '@api: the operations declare a nullable user, so auth must accept anonymous callers',
      'Fix: build the authenticator with user: v.nullable(User)',
    ],
  },
  'another-user-schema': {
    mount: 'this.includeEndpoint(new WithUser(), { auth: admins })',
    says: [
      '@api: the operations declare a non-null user, so auth must gate and return that same user schema.',
    ],
  },
  'anonymous-authenticator-and-no-user': {
    mount: 'this.includeEndpoint(new WithoutUser(), { auth: anonymous })',
    says: [
      '@api: no operation of this mount declares user, so auth must gate',
      'Fix: build the authenticator with user: User, or declare user: v.nullable(User) on every operation.',
    ],
  },
  // Issue 48: the message names the operations whose user schemas differ.
  'two-user-schemas': {
    mount: 'this.includeEndpoint(new TwoUsers(), { auth: admins })',
    says: [
      '@api: operations get and post of this mount declare different user schemas, so no one authenticator returns them all.',
      'Fix: declare one user schema on every operation (a union is one schema), or mount the operations with another user separately.',
    ],
  },
  // What the issue saw as "not assignable to type 'never'": no authenticator fits this mount.
  'nullable-user-beside-no-user': {
    mount: 'this.includeEndpoint(new Mixed(), { auth: anonymous })',
    says: [
      '@api: some operations of this mount declare a nullable user and others none, so no authenticator fits',
      'Fix: declare the nullable user on every operation, or mount the others separately.',
    ],
  },
};

const app = (mounts: readonly string[]): string =>
  `export class App extends BaseApp {\n  protected override async wire(): Promise<void> {\n${mounts.map((m) => `    ${m};\n`).join('')}  }\n}\n`;

let diagnostics: FixtureDiagnostics;
beforeAll(() => {
  diagnostics = compileFixtures(new URL('..', import.meta.url), [
    {
      name: 'accepted',
      source: `${HEAD}${app([
        'this.includeEndpoint(new WithUser(), { auth: gating })',
        'this.includeEndpoint(new WithNullable(), { auth: anonymous })',
        'this.includeEndpoint(new WithoutUser(), { auth: gating })',
        'this.includeEndpoint(new WithoutUser())',
      ])}
// Issue 48: the bare Authenticator takes any authenticator (it was refused with an
// exactOptionalPropertyTypes hint).
export const typed: Authenticator = bearerAuth({ headers: Credentials, user: User, authenticate: () => ({ id: '1' }) });
export const list: Authenticator[] = [gating, anonymous, admins];
export const gatingAgain: Authenticator<typeof User> = gating;
`,
    },
    ...Object.entries(REJECTED).map(([name, f]) => ({ name, source: `${HEAD}${app([f.mount])}` })),
  ]);
}, 120_000);

/** The first line tsc prints, pinned where the rule names what the user wrote. */
const FIRST_LINES: Record<string, string> = {
  'two-user-schemas':
    "Property '[typeError]' is missing in type 'TypedAuthenticator<StructSchema<{ readonly id: StringSchema<undefined>; readonly admin: LiteralSchema<true, undefined>; }>>' but required in type 'WiringTypeError<\"@api: operations get and post of this mount declare different user schemas, so no one authenticator returns them all. Fix: declare one user schema on every operation (a union is one schema), or mount the operations with another user separately.\">'.",
};

describe('auth mount option type errors', () => {
  for (const [name, line] of Object.entries(FIRST_LINES))
    it(`${name}: the first line carries the rule`, () => {
      expect(diagnostics[name]![0]!.split('\n')[0]).toBe(line);
    });

  it('compiles the spec table’s allowed cells without a diagnostic', () => {
    expect(diagnostics.accepted).toEqual([]);
  });

  for (const [name, { says }] of Object.entries(REJECTED)) {
    it(`${name}: one error, with the rule and the fix, in ASCII`, () => {
      const errors = diagnostics[name]!;
      expect(errors).toHaveLength(1);
      const text = errors[0]!;
      for (const words of says) expect(text).toContain(words);
      expect(text).toContain('Fix: ');
      expect(text).not.toMatch(/\\u[0-9a-f]{4}|[^\x20-\x7e\n]/i);
      expect(text).not.toContain("not assignable to type 'never'");
      expect(text).not.toContain('Expected 2 arguments');
    });
  }
});
