// The `secureHeaders` mount option type-checks only with @api/secure-headers imported: a block or false.
import * as v from 'valibot';
import { BaseApp, Endpoint, Struct } from '@api/core';
import { describe, expectTypeOf, it } from 'vitest';
import { SecureHeaders, secureHeaders } from '../src/index';

const Note = Struct('Note', { text: v.string() });
class Notes extends Endpoint('/notes') {
  get = this.operation({ returns: Note }, () => ({ text: 'hi' }));
}

describe('secureHeaders mount option', () => {
  it('takes a SecureHeaders or false, nothing else', () => {
    class App extends BaseApp {
      protected override async wire(): Promise<void> {
        this.include(secureHeaders({ frameOptions: 'SAMEORIGIN' }));
        this.includeEndpoint(new Notes(), {
          secureHeaders: new SecureHeaders({ referrerPolicy: 'same-origin' }),
        });
        this.includeEndpoint(new Notes(), { secureHeaders: false });
        // @ts-expect-error -- options are not a block: build one with new SecureHeaders(…)
        this.includeEndpoint(new Notes(), { secureHeaders: { frameOptions: 'DENY' } });
        // @ts-expect-error -- not a referrer-policy value
        new SecureHeaders({ referrerPolicy: 'never' });
      }
    }
    expectTypeOf(App).toBeConstructibleWith();
  });
});
