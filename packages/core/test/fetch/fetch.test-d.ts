// app.fetch's type: what Bun.serve, Deno.serve and workerd take (a Response or a promise of one,
// as Hono's fetch), so it is passed as it is; awaiting it always gives a Response.
import { describe, expectTypeOf, it } from 'vitest';
import { BaseApp } from '../../src/index';

class App extends BaseApp {
  protected override async wire(): Promise<void> {}
}

describe('app.fetch', () => {
  it('returns a Response or a promise of one', () => {
    const app = new App();
    expectTypeOf(app.fetch).toEqualTypeOf<(request: Request) => Response | Promise<Response>>();
    expectTypeOf<Awaited<ReturnType<typeof app.fetch>>>().toEqualTypeOf<Response>();
  });

  it('is no promise to chain on: await it (or Promise.resolve it)', () => {
    const app = new App();
    // @ts-expect-error -- a Response has no then: code that chained on the old promise type must await
    void app.fetch(new Request('http://x/')).then((r) => r.status);
    expectTypeOf(Promise.resolve(app.fetch(new Request('http://x/')))).toEqualTypeOf<Promise<Response>>();
  });
});
