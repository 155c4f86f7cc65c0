import * as v from 'valibot';
import { describe, expectTypeOf, it } from 'vitest';
import {
  BaseApp,
  Created,
  Endpoint,
  JSONResponse,
  Link,
  Location,
  NoContent,
  RawHeadersView,
  Resource,
  Struct,
  Text,
  type WiringTypeError,
} from '../index';
import type { OperationKind, SnakeCaseSlots } from './route-class';

const Widget = Struct('Widget', { id: v.string(), name: v.string(), priceCents: v.number() });
const WidgetIn = Struct('WidgetIn', { name: v.string(), priceCents: v.number() });
const WidgetPath = Struct('WidgetPath', { widget_id: v.string() });
const Page = Struct('Page', { limit: v.optional(v.number(), 20), offset: v.optional(v.number(), 0) });

describe('operation inference', () => {
  it('infers every declared source and nothing else', () => {
    class Widgets extends Resource('/widgets') {
      readOne = this.operation(
        { path: WidgetPath, params: Page, rawHeaders: true, content: true, returns: Widget },
        (input) => {
          expectTypeOf(input.path).toEqualTypeOf<{ widget_id: string }>();
          expectTypeOf(input.params).toEqualTypeOf<{ limit: number; offset: number }>();
          expectTypeOf(input.rawHeaders).toEqualTypeOf<RawHeadersView>();
          expectTypeOf(input.content).toEqualTypeOf<Buffer>();
          // @ts-expect-error json was not declared
          void input.json;
          return { id: input.path.widget_id, name: 'n', priceCents: 1 };
        },
      );
    }
    expectTypeOf<Widgets>().toHaveProperty('readOne');
  });

  it('checks the return value against returns', () => {
    class Widgets extends Resource('/widgets') {
      create = this.operation({ json: WidgetIn, returns: Widget }, ({ json }) => ({
        id: '1',
        name: json.name,
        // @ts-expect-error priceCents must be a number
        priceCents: 'x',
      }));
    }
    void Widgets;
  });

  it('types wrapper unions', () => {
    class Spot extends Endpoint('/spot') {
      get = this.operation({ returns: [JSONResponse.of(Widget), NoContent.of()] }, () =>
        Math.random() > 0.5
          ? new NoContent()
          : new JSONResponse({ json: { id: '1', name: 'n', priceCents: 1 } }),
      );
      post = this.operation(
        { returns: Created.of(Widget) },
        () => new Created({ json: { id: '1', name: 'n', priceCents: 1 } }),
      );
      put = this.operation({ returns: Text }, () => 'plain');
    }
    void Spot;
  });

  it('rejects a wrapper the union does not declare', () => {
    class Spot extends Endpoint('/spot') {
      // @ts-expect-error NoContent is not declared
      get = this.operation({ returns: JSONResponse.of(Widget) }, () => new NoContent());
    }
    void Spot;
  });
});

describe('path rules at compile time', () => {
  it('rejects a path schema that misses a mount slot', () => {
    class Parts extends Resource('/widgets/{widget_id}/parts') {
      readMany = this.operation(
        // @ts-expect-error the path schema misses slot widget_id
        { path: Struct('P', { other: v.string() }), returns: v.array(Widget) },
        () => [],
      );
    }
    void Parts;
  });

  it('rejects extra path fields on exact routes when mounted', () => {
    class Widgets extends Resource('/widgets') {
      readMany = this.operation({ path: WidgetPath, returns: v.array(Widget) }, () => []);
    }
    class Health extends Endpoint('/healthz') {
      get = this.operation({ path: WidgetPath, returns: Widget }, () => ({
        id: '',
        name: '',
        priceCents: 0,
      }));
    }
    class App extends BaseApp {
      protected override async wire(): Promise<void> {
        // @ts-expect-error readMany is exact: widget_id extends nothing
        this.includeResource(new Widgets());
        // @ts-expect-error an Endpoint path is exact
        this.includeEndpoint(new Health());
      }
    }
    void App;
  });

  it('rejects mounting a class with no operation', () => {
    class Empty extends Resource('/empty') {
      other = 1;
    }
    class App extends BaseApp {
      protected override async wire(): Promise<void> {
        // @ts-expect-error no Resource operation (a WiringTypeError says so)
        this.includeResource(new Empty());
      }
    }
    void App;
  });

  it('rejects a defaulted or optional path field', () => {
    class Widgets extends Resource('/widgets') {
      readOne = this.operation(
        // @ts-expect-error widget_id has a default
        { path: Struct('P', { widget_id: v.optional(v.string(), 'x') }), returns: Widget },
        () => ({ id: '', name: '', priceCents: 0 }),
      );
    }
    void Widgets;
  });

  it('accepts item fields beyond the slots on item operations', () => {
    class Parts extends Resource('/widgets/{widget_id}/parts') {
      readOne = this.operation(
        { path: Struct('PartPath', { widget_id: v.string(), part_id: v.number() }), returns: Widget },
        ({ path }) => {
          expectTypeOf(path.part_id).toEqualTypeOf<number>();
          return { id: path.widget_id, name: '', priceCents: 0 };
        },
      );
    }
    void Parts;
  });
});

describe('Location', () => {
  it('only names operations the class defines', () => {
    class Widgets extends Resource('/widgets') {
      readOne = this.operation({ path: WidgetPath, returns: Widget }, () => ({
        id: '',
        name: '',
        priceCents: 0,
      }));
    }
    Location.fromOperation(Widgets, 'readOne', { path: { widget_id: '1' } });
    // @ts-expect-error updateFull is not defined on Widgets
    Location.fromOperation(Widgets, 'updateFull');
  });

  it("requires the target operation's path values", () => {
    class Widgets extends Resource('/widgets') {
      readOne = this.operation({ path: WidgetPath, returns: Widget }, () => ({
        id: '',
        name: '',
        priceCents: 0,
      }));
      readMany = this.operation({ returns: v.array(Widget) }, () => []);
    }
    // @ts-expect-error readOne needs { path: { widget_id } }
    Location.fromOperation(Widgets, 'readOne');
    // @ts-expect-error widget_id is missing
    Location.fromOperation(Widgets, 'readOne', { path: {} });
    Location.fromOperation(Widgets, 'readMany');
    Link.fromOperation(Widgets, 'readMany', { rel: 'collection' });
    // @ts-expect-error a Link to readOne needs its path values too
    Link.fromOperation(Widgets, 'readOne', { rel: 'self' });
    Link.fromOperation(Widgets, 'readOne', { rel: 'self', path: { widget_id: 1 } });
  });
});

describe('mount options follow what is installed', () => {
  it('has no auth or cors option unless their packages are imported', () => {
    class Health extends Endpoint('/healthz') {
      get = this.operation({ returns: Widget }, () => ({ id: '', name: '', priceCents: 0 }));
    }
    class App extends BaseApp {
      protected override async wire(): Promise<void> {
        this.includeEndpoint(new Health(), { middleware: [], limits: { maxBodyBytes: 10 } });
        // @ts-expect-error `auth` exists only when @api/auth is imported
        this.includeEndpoint(new Health(), { auth: {} });
        // @ts-expect-error `cors` exists only when @api/cors is imported
        this.includeEndpoint(new Health(), { cors: {} });
      }
    }
    void App;
  });
});

describe('BaseApp', () => {
  it('requires wire()', () => {
    // @ts-expect-error non-abstract class does not implement wire
    class NoWire extends BaseApp {}
    void NoWire;
  });

  it('types the factory', () => {
    class Factory {
      createThing(): number {
        return 1;
      }
    }
    class App extends BaseApp.withFactory(Factory) {
      protected override async wire(): Promise<void> {
        expectTypeOf(this.factory.createThing()).toEqualTypeOf<number>();
      }
    }
    void App;
  });
});

describe('mount and wrapper mistakes tsc sees', () => {
  it('rejects an Endpoint mounted as a Resource and the reverse, even with a shared verb', () => {
    class Remove extends Endpoint('/remove') {
      delete = this.operation({ returns: Widget }, () => ({ id: '1', name: 'n', priceCents: 1 }));
    }
    class Items extends Resource('/items') {
      delete = this.operation({ path: WidgetPath, returns: Widget }, ({ path }) => ({
        id: path.widget_id,
        name: 'n',
        priceCents: 1,
      }));
    }
    class App extends BaseApp {
      protected override async wire(): Promise<void> {
        // @ts-expect-error an Endpoint's delete is not a Resource operation
        this.includeResource(new Remove());
        // @ts-expect-error a Resource's delete is not an Endpoint verb
        this.includeEndpoint(new Items());
        this.includeEndpoint(new Remove());
        this.includeResource(new Items());
      }
    }
    void App;
  });

  it('rejects JSONResponse where Created is declared, and the reverse', () => {
    class Widgets extends Resource('/widgets') {
      create = this.operation(
        { json: WidgetIn, returns: Created.of(Widget) },
        // @ts-expect-error a JSONResponse is not a Created
        ({ json }) => new JSONResponse({ json: { id: '1', ...json } }),
      );
    }
    class Other extends Endpoint('/other') {
      post = this.operation(
        { returns: JSONResponse.of(Widget) },
        // @ts-expect-error a Created is not a JSONResponse
        () => new Created({ json: { id: '1', name: 'n', priceCents: 1 } }),
      );
    }
    void Widgets;
    void Other;
  });
});

describe('path slots', () => {
  it('must be snake_case', () => {
    // @ts-expect-error widgetId is not snake_case
    void Resource('/widgets/{widgetId}');
    // @ts-expect-error widget-id is not snake_case
    void Endpoint('/widgets/{widget-id}/x');
    void Resource('/shops/{shop_id}/widgets');
  });
});

describe('class options', () => {
  it('take a name (a string) beside ref and meta', () => {
    class Widgets extends Resource('/widgets', { name: 'Widgets', ref: 'widgets' }) {
      readMany = this.operation({ returns: v.array(Widget) }, () => []);
    }
    void Widgets;
    void Endpoint('/healthz', { name: 'Health' });
    // @ts-expect-error name is a string
    void Endpoint('/healthz', { name: 1 });
  });
});

describe('compile-time rejections carry their message', () => {
  it('as a WiringTypeError the parameter is intersected with', () => {
    expectTypeOf<SnakeCaseSlots<'/widgets/{widgetId}'>>().toEqualTypeOf<
      WiringTypeError<'@api: path slots are snake_case, and {widgetId} is not. Fix: name slots like {widget_id}.'>
    >();
    expectTypeOf<SnakeCaseSlots<'/widgets/{widget_id}'>>().toEqualTypeOf<unknown>();
    expectTypeOf<
      OperationKind<'endpoint'>
    >().toEqualTypeOf<'@api: an Endpoint operation (mount its class with includeEndpoint)'>();
  });
});
