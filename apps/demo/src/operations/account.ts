import * as v from 'valibot';
import { Endpoint, JSONResponse, Location, Struct, Tag } from '@api/core';
import { Account, type Accounts } from '../integrations/better-auth';

const accounts = new Tag('accounts', 'Better Auth accounts, mounted at /api/auth.');

/** GET /account: the Better Auth account behind the session cookie. */
export class AccountEndpoint extends Endpoint('/account', { meta: { tags: [accounts] } }) {
  get = this.operation(
    { user: Account, returns: Account, meta: { summary: 'The signed-in Better Auth account.' } },
    ({ user }) => user,
  );
}

/** What the page's plain HTML form posts (`application/x-www-form-urlencoded`). */
export const AccountName = Struct('AccountName', {
  name: v.pipe(v.string(), v.trim(), v.minLength(1), v.maxLength(80)),
});
const Renamed = Struct('Renamed', { name: v.string() });

/**
 * POST /account/name: an HTML form (url-encoded, no script) renames the account, then the browser
 * is sent back to the page (303 See Other).
 */
export class AccountNameEndpoint extends Endpoint('/account/name', { meta: { tags: [accounts] } }) {
  constructor(private readonly accounts: Accounts) {
    super();
  }

  post = this.operation(
    {
      form: AccountName,
      user: Account,
      cookies: Struct('RenameCookies', { 'better-auth.session_token': v.string() }),
      returns: JSONResponse.of(Renamed),
      meta: { summary: 'Rename the signed-in account (an HTML form).' },
    },
    async ({ form, cookies }) => {
      await this.accounts.rename(
        `better-auth.session_token=${cookies['better-auth.session_token']}`,
        form.name,
      );
      return new JSONResponse({
        json: { name: form.name },
        statusCode: 303,
        location: Location.fromPath('/assets/account.html'),
      });
    },
  );
}
