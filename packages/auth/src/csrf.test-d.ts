// The `csrf` mount option type-checks only with @api/auth imported: csrf(…) or false.
import * as v from 'valibot';
import { BaseApp, Endpoint, Struct } from '@api/core';
import { describe, expectTypeOf, it } from 'vitest';
import { csrf } from './index';

const Done = Struct('Done', { ok: v.boolean() });
class Login extends Endpoint('/session') {
  post = this.operation({ returns: Done }, () => ({ ok: true }));
}

describe('csrf mount option', () => {
  it('takes csrf(…) or false, nothing else', () => {
    class App extends BaseApp {
      protected override async wire(): Promise<void> {
        this.includeEndpoint(new Login(), { csrf: csrf() });
        this.includeEndpoint(new Login(), { csrf: csrf({ trustedOrigins: ['https://app.example'] }) });
        this.includeEndpoint(new Login(), { csrf: false });
        // @ts-expect-error -- "on" is the default where cookies authenticate; elsewhere use csrf()
        this.includeEndpoint(new Login(), { csrf: true });
      }
    }
    expectTypeOf(App).toBeConstructibleWith();
  });
});
