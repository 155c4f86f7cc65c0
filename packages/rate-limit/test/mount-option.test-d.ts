// The `rateLimit` mount option type-checks only with @api/rate-limit imported, and perOperation's
// names are checked against the mounted class.
import { BaseApp } from '@api/core';
import { describe, expectTypeOf, it } from 'vitest';
import { memoryStore, perOperation, rateLimit, rateLimits } from '../src/index';
import { burst, hourly, Notes, perAddress, tokenAuth, Widgets } from './fixtures/app';

describe('rateLimit mount option', () => {
  it('takes a policy, a group, perOperation with the class operation names, or false', () => {
    class App extends BaseApp {
      protected override async wire(): Promise<void> {
        this.include(rateLimit({ store: memoryStore() }));
        this.includeEndpoint(new Notes(), { rateLimit: perAddress });
        this.includeEndpoint(new Notes(), { rateLimit: rateLimits(burst, hourly) });
        this.includeEndpoint(new Notes(), { rateLimit: false });
        this.includeEndpoint(new Notes(), { rateLimit: perOperation({ get: perAddress, post: false }) });
        this.includeResource(new Widgets(), {
          auth: tokenAuth,
          rateLimit: perOperation({ create: perAddress }),
        });
        this.includeResource(new Widgets(), {
          auth: tokenAuth,
          // @ts-expect-error -- "crate" is not an operation of Widgets
          rateLimit: perOperation({ crate: perAddress }),
        });
        // @ts-expect-error -- a bare object is not a policy
        this.includeEndpoint(new Notes(), { rateLimit: { limit: 3 } });
      }
    }
    expectTypeOf(App).toBeConstructibleWith();
  });
});
