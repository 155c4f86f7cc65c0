import { describe, expectTypeOf, it } from 'vitest';
import type { CustomRoute, RouteInfo, RouteLookup, UpgradeRoute, Wiring } from '../extension';

describe('literal extension routes (types)', () => {
  it('a custom route may be literal; an upgrade route may not', () => {
    expectTypeOf<CustomRoute['literal']>().toEqualTypeOf<boolean | undefined>();
    expectTypeOf<RouteInfo['literal']>().toEqualTypeOf<boolean | undefined>();
    // Upgrade routes are templates: no such key.
    expectTypeOf<'literal' extends keyof UpgradeRoute ? true : false>().toEqualTypeOf<false>();
  });

  it('hasRoute / findRoute take an optional { literal } lookup', () => {
    expectTypeOf<Parameters<Wiring['hasRoute']>>().toEqualTypeOf<
      [method: string, path: string, options?: RouteLookup]
    >();
    expectTypeOf<Parameters<Wiring['findRoute']>[2]>().toEqualTypeOf<RouteLookup | undefined>();
    expectTypeOf<RouteLookup>().toEqualTypeOf<{ readonly literal?: boolean | undefined }>();
  });
});
