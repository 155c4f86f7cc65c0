// Path schemas from Standard Schemas (zod 4, ArkType 2) follow the compile-time path rules exactly
// as valibot's do: a field that is a {slot} is accepted on an exact path (Endpoint, create,
// readMany), a field that is not is refused at the mount, a slot without a field and an optional
// or defaulted field are refused on the spec. (The words tsc prints: standard-path.test.ts.)
import { type } from 'arktype';
import * as v from 'valibot';
import { describe, expectTypeOf, it } from 'vitest';
import { z } from 'zod';
import { BaseApp, Endpoint, Resource, Struct } from '../src/index';
import type { MountKindCheck } from '../src/route-class/mount-kind';

describe('a path field that is a slot of an exact path', () => {
  it('mounts an Endpoint whose zod, ArkType or valibot path fields are its slots', () => {
    class ZodRaise extends Endpoint('/zod/raise/{what}') {
      get = this.operation({ path: z.object({ what: z.string() }) }, ({ path }) => {
        expectTypeOf(path).toEqualTypeOf<{ what: string }>();
      });
    }
    class ArkRaise extends Endpoint('/ark/raise/{what}/{n}') {
      post = this.operation({ path: type({ what: 'string', n: 'string.integer.parse' }) }, ({ path }) => {
        expectTypeOf(path).toEqualTypeOf<{ what: string; n: number }>();
      });
    }
    class ValibotRaise extends Endpoint('/valibot/raise/{what}') {
      get = this.operation({ path: Struct('P', { what: v.string() }) }, () => undefined);
    }
    class Coerced extends Endpoint('/coerced/{n}') {
      get = this.operation({ path: z.object({ n: z.coerce.number().int() }) }, ({ path }) => {
        expectTypeOf(path.n).toEqualTypeOf<number>();
      });
    }
    class App extends BaseApp {
      protected override async wire(): Promise<void> {
        this.includeEndpoint(new ZodRaise());
        this.includeEndpoint(new ArkRaise());
        this.includeEndpoint(new ValibotRaise());
        this.includeEndpoint(new Coerced(), { middleware: [] });
      }
    }
    void App;
    expectTypeOf<MountKindCheck<ZodRaise, 'endpoint'>>().toEqualTypeOf<unknown>();
    expectTypeOf<MountKindCheck<ArkRaise, 'endpoint'>>().toEqualTypeOf<unknown>();
  });

  it('mounts a Resource whose create and readMany path fields are its slots, and item fields beyond them', () => {
    class ZodParts extends Resource('/widgets/{widget_id}/parts') {
      create = this.operation({ path: z.object({ widget_id: z.string() }) }, () => undefined);
      readMany = this.operation({ path: type({ widget_id: 'string' }) }, () => undefined);
      readOne = this.operation(
        { path: z.object({ widget_id: z.string(), part_id: z.coerce.number() }) },
        ({ path }) => {
          expectTypeOf(path).toEqualTypeOf<{ widget_id: string; part_id: number }>();
        },
      );
      delete = this.operation({ path: type({ widget_id: 'string', part_id: 'string' }) }, () => undefined);
    }
    class App extends BaseApp {
      protected override async wire(): Promise<void> {
        this.includeResource(new ZodParts());
      }
    }
    void App;
  });
});

describe('a path field that is not a slot of an exact path', () => {
  const zodPath = z.object({ what: z.string(), other: z.string() });
  const arkPath = type({ what: 'string', other: 'string' });
  const valibotPath = Struct('P', { what: v.string(), other: v.string() });
  class ZodExtra extends Endpoint('/zod/extra/{what}') {
    get = this.operation({ path: zodPath }, () => undefined);
  }
  class ArkExtra extends Endpoint('/ark/extra/{what}') {
    get = this.operation({ path: arkPath }, () => undefined);
  }
  class ValibotExtra extends Endpoint('/valibot/extra/{what}') {
    get = this.operation({ path: valibotPath }, () => undefined);
  }
  class ZodReadMany extends Resource('/zod/things/{what}') {
    readMany = this.operation({ path: zodPath }, () => undefined);
  }
  class ArkCreate extends Resource('/ark/things/{what}') {
    create = this.operation({ path: arkPath }, () => undefined);
  }
  class ValibotReadMany extends Resource('/valibot/things/{what}') {
    readMany = this.operation({ path: valibotPath }, () => undefined);
  }

  it('is refused at the mount, for zod and ArkType as for valibot', () => {
    class App extends BaseApp {
      protected override async wire(): Promise<void> {
        // @ts-expect-error an Endpoint path is exact: "other" is not a slot
        this.includeEndpoint(new ZodExtra());
        // @ts-expect-error an Endpoint path is exact: "other" is not a slot
        this.includeEndpoint(new ArkExtra());
        // @ts-expect-error an Endpoint path is exact: "other" is not a slot
        this.includeEndpoint(new ValibotExtra());
        // @ts-expect-error readMany is on the exact mount path
        this.includeResource(new ZodReadMany());
        // @ts-expect-error create is on the exact mount path
        this.includeResource(new ArkCreate());
        // @ts-expect-error readMany is on the exact mount path
        this.includeResource(new ValibotReadMany());
      }
    }
    void App;
  });

  it('with the same message as valibot', () => {
    type EndpointRule = MountKindCheck<ValibotExtra, 'endpoint'>;
    expectTypeOf<EndpointRule>().not.toEqualTypeOf<unknown>();
    expectTypeOf<MountKindCheck<ZodExtra, 'endpoint'>>().toEqualTypeOf<EndpointRule>();
    expectTypeOf<MountKindCheck<ArkExtra, 'endpoint'>>().toEqualTypeOf<EndpointRule>();
    type ResourceRule = MountKindCheck<ValibotReadMany, 'resource'>;
    expectTypeOf<ResourceRule>().not.toEqualTypeOf<unknown>();
    expectTypeOf<MountKindCheck<ZodReadMany, 'resource'>>().toEqualTypeOf<ResourceRule>();
    expectTypeOf<MountKindCheck<ArkCreate, 'resource'>>().toEqualTypeOf<ResourceRule>();
  });
});

describe('the spec checks', () => {
  it('refuse a path schema without a field for a mount slot', () => {
    class Missing extends Endpoint('/missing/{what}') {
      // @ts-expect-error the path schema has no field for the mount path slot {what}
      get = this.operation({ path: z.object({ other: z.string() }) }, () => undefined);
      // @ts-expect-error the path schema has no field for the mount path slot {what}
      post = this.operation({ path: type({ other: 'string' }) }, () => undefined);
      // @ts-expect-error the path schema has no field for the mount path slot {what}
      put = this.operation({ path: Struct('P', { other: v.string() }) }, () => undefined);
    }
    class MissingItem extends Resource('/shops/{shop_id}/items') {
      // @ts-expect-error the path schema has no field for the mount path slot {shop_id}
      readOne = this.operation({ path: z.object({ item_id: z.string() }) }, () => undefined);
    }
    void Missing;
    void MissingItem;
  });

  it('refuse an optional or defaulted path field', () => {
    class Defaulted extends Resource('/defaulted') {
      // @ts-expect-error path field item_id has a default
      readOne = this.operation({ path: z.object({ item_id: z.string().default('x') }) }, () => undefined);
      // @ts-expect-error path field item_id is optional
      delete = this.operation({ path: z.object({ item_id: z.string().optional() }) }, () => undefined);
      // @ts-expect-error path field item_id is optional
      updateFull = this.operation({ path: type({ 'item_id?': 'string' }) }, () => undefined);
      // @ts-expect-error path field item_id has a default
      updatePartial = this.operation({ path: type({ item_id: 'string = "x"' }) }, () => undefined);
    }
    class OptionalSlot extends Endpoint('/optional/{what}') {
      // @ts-expect-error path field what is optional
      get = this.operation({ path: z.object({ what: z.string().nullish() }) }, () => undefined);
    }
    void Defaulted;
    void OptionalSlot;
  });
});
