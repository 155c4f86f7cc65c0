// RouteContribution.raises → RouteInfo.errors: what mount options and extensions make a route
// answer with is in the catalogue, so documents list every answer the framework produces.
import * as v from 'valibot';
import { describe, expect, it } from 'vitest';
import { TestClient } from '@api/testing';
import { BaseApp, ConflictError, Endpoint, Struct, TooManyRequestsError, WiringError } from '../src/index';
import { expectWiringError } from './expect-wiring-error';
import { defineExtension, mountOption, type MountOptionValue, type RouteCatalogue } from '../src/extension';
import { memoryLogger } from './fixtures';

declare module '../src/index' {
  interface MountOptions<TRoute extends object> {
    readonly limited?: MountOptionValue & { readonly forRoute?: TRoute };
  }
}

const Ok = Struct('Ok', { ok: v.boolean() });
class Limited extends Endpoint('/limited') {
  get = this.operation({ returns: Ok }, () => ({ ok: true }));
  post = this.operation({ returns: Ok }, () => ({ ok: true }));
}
class Open extends Endpoint('/open') {
  get = this.operation({ returns: Ok }, () => ({ ok: true }));
}

const raising = (raises: unknown): MountOptionValue => ({
  [mountOption]: () => ({ raises: raises as never }),
});

async function catalogueOf(
  option: MountOptionValue,
  extraRaises: unknown = [ConflictError],
): Promise<RouteCatalogue> {
  let catalogue: RouteCatalogue | undefined;
  class App extends BaseApp {
    protected override async wire(): Promise<void> {
      this.includeEndpoint(new Limited(), { limited: option });
      this.includeEndpoint(new Open());
      this.include(
        defineExtension({
          name: 'conflicts',
          setup: (wiring) => {
            wiring.addContributor((route) =>
              route.ownerClass === Limited ? { raises: extraRaises as never } : undefined,
            );
            wiring.onWired((c) => void (catalogue = c));
          },
        }),
      );
    }
  }
  const client = new TestClient(new App({ logger: memoryLogger() }));
  try {
    await client.start();
  } finally {
    await client.close();
  }
  return catalogue!;
}

describe('RouteContribution.raises', () => {
  it("records each contributed error class once, in contribution order, on the route's catalogue entry", async () => {
    const catalogue = await catalogueOf(raising([TooManyRequestsError, ConflictError, TooManyRequestsError]));
    expect(catalogue.find(Limited, 'get')!.errors).toEqual([TooManyRequestsError, ConflictError]);
    expect(catalogue.find(Limited, 'post')!.errors).toEqual([TooManyRequestsError, ConflictError]);
    expect(catalogue.find(Open, 'get')!.errors).toEqual([]);
  });

  it('refuses something that is not an HTTP error class, naming the route', async () => {
    for (const [raises, message] of [
      [
        [Error],
        /^Limited\.get: a contribution raises a function \(Error\), which is not an HTTP error class\. Fix: /,
      ],
      [TooManyRequestsError, /^Limited\.get: a contribution's raises must be a list of HTTP error classes/],
    ] as const) {
      const error = await catalogueOf(raising(raises)).then(
        () => undefined,
        (e: unknown) => e,
      );
      expectWiringError(error, 'API_WIRING_NOT_AN_ERROR_CLASS', 'Limited.get');
      expect((error as Error).message).toMatch(message);
    }
  });
});
