import * as v from 'valibot';
import { describe, expect, it } from 'vitest';
import { TestClient } from '@api/testing';
import { defineExtension } from '../src/extension';
import {
  BaseApp,
  defineMiddleware,
  Endpoint,
  Resource,
  Struct,
  WiringError,
  type MountOptions,
} from '../src/index';
import { expectWiringError } from './expect-wiring-error';
import { memoryLogger, Widget, WidgetPath } from './fixtures';

async function wiringError(
  wire: (app: {
    mountResource(r: object, o?: object): void;
    mountEndpoint(e: object, o?: object): void;
    raw: BaseApp;
  }) => void,
): Promise<WiringError> {
  class App extends BaseApp {
    protected override async wire(): Promise<void> {
      wire({
        mountResource: (r, o) => this.includeResource(r, o),
        mountEndpoint: (e, o) => this.includeEndpoint(e, o),
        raw: this,
      });
    }
  }
  const error = await new TestClient(new App({ logger: memoryLogger() })).start().then(
    () => undefined,
    (e: unknown) => e,
  );
  expect(error).toBeInstanceOf(WiringError);
  expect(error).toBeInstanceOf(TypeError);
  return error as WiringError;
}

const Health = Struct('Health', { status: v.string() });

describe('WiringError', () => {
  it('path slot missing from the path schema', async () => {
    class Parts extends Resource('/widgets/{widget_id}/parts') {
      // @ts-expect-error also a compile error: the path schema misses slot widget_id
      readOne = this.operation({ path: Struct('P', { part_id: v.string() }), returns: Widget }, () => ({
        id: '',
        name: '',
        priceCents: 0,
      }));
    }
    const e = await wiringError((a) => a.mountResource(new Parts()));
    expectWiringError(e, 'API_WIRING_PATH_BINDING', 'Parts.readOne');
    expect(e.message).toBe(
      'Parts.readOne: mount path "/widgets/{widget_id}/parts" has slot "{widget_id}" but the path schema has no field "widget_id". Fix: add "widget_id" to the path Struct.',
    );
  });

  it('a defaulted or optional path field', async () => {
    class Widgets extends Resource('/widgets') {
      readOne = this.operation(
        // @ts-expect-error also a compile error: path fields cannot be optional or defaulted
        { path: Struct('P', { widget_id: v.optional(v.string(), 'x') }), returns: Widget },
        () => ({ id: '', name: '', priceCents: 0 }),
      );
    }
    const e = await wiringError((a) => a.mountResource(new Widgets()));
    expectWiringError(e, 'API_WIRING_PATH_BINDING', 'Widgets.readOne');
    expect(e.problem).toBe('path field "widget_id" has a default or is optional');
  });

  it('extra path fields on readMany and on endpoints', async () => {
    class Widgets extends Resource('/widgets') {
      readMany = this.operation({ path: WidgetPath, returns: v.array(Widget) }, () => []);
    }
    const many = await wiringError((a) => a.mountResource(new Widgets()));
    expectWiringError(many, 'API_WIRING_PATH_BINDING', 'Widgets.readMany');
    expect(many.problem).toBe(
      'path fields "widget_id" are not slots of "/widgets" (readMany is on the exact mount path)',
    );
    class Health2 extends Endpoint('/healthz') {
      get = this.operation({ path: WidgetPath, returns: Health }, () => ({ status: '' }));
    }
    const exact = await wiringError((a) => a.mountEndpoint(new Health2()));
    expectWiringError(exact, 'API_WIRING_PATH_BINDING', 'Health2.get');
    expect(exact.problem).toMatch(/an Endpoint path is exact/);
  });

  it('an item operation without an item field', async () => {
    class Widgets extends Resource('/widgets') {
      readOne = this.operation({ returns: Widget }, () => ({ id: '', name: '', priceCents: 0 }));
    }
    const item = await wiringError((a) => a.mountResource(new Widgets()));
    expectWiringError(item, 'API_WIRING_PATH_BINDING', 'Widgets.readOne');
    expect(item.problem).toMatch(/^an item operation needs a path field beyond the mount's slots/);
  });

  it('the same method and path answered twice', async () => {
    class A extends Endpoint('/x') {
      get = this.operation({ returns: Health }, () => ({ status: '' }));
    }
    class B extends Endpoint('/x') {
      get = this.operation({ returns: Health }, () => ({ status: '' }));
    }
    const e = await wiringError((a) => {
      a.mountEndpoint(new A());
      a.mountEndpoint(new B());
    });
    expectWiringError(e, 'API_WIRING_DUPLICATE_ROUTE', 'B.get');
    expect(e.message).toBe(
      'B.get: GET /x is already answered by A.get. Fix: mount one of them at another path, split methods so each is answered once, or (in an extension) check wiring.hasRoute(method, path) before adding.',
    );
  });

  it('a class mounted with the wrong include, and a class with no operation', async () => {
    class W extends Resource('/w') {
      readMany = this.operation({ returns: v.array(Widget) }, () => []);
    }
    expectWiringError(
      await wiringError((a) => a.mountEndpoint(new W())),
      'API_WIRING_MOUNT_WRONG_CLASS',
      'App.includeEndpoint',
    );
    class Empty extends Endpoint('/e') {}
    expectWiringError(
      await wiringError((a) => a.mountEndpoint(new Empty())),
      'API_WIRING_NO_OPERATION',
      'App.includeEndpoint(Empty)',
    );
  });

  it('a declared source nothing provides (user without auth)', async () => {
    class Me extends Endpoint('/me') {
      get = this.operation({ user: Struct('User', { id: v.string() }), returns: Health }, () => ({
        status: '',
      }));
    }
    const e = await wiringError((a) => a.mountEndpoint(new Me()));
    expectWiringError(e, 'API_WIRING_SOURCE', 'Me.get');
    expect(e.message).toMatch(
      /^Me\.get: declares the "user" source, but nothing mounted with it provides "user"\. Fix: .*auth from @api\/auth/,
    );
  });

  it('an unknown mount option and an unknown operation key', async () => {
    class H extends Endpoint('/h') {
      get = this.operation({ returns: Health }, () => ({ status: '' }));
    }
    const option = await wiringError((a) => a.mountEndpoint(new H(), { auth: { some: 'thing' } }));
    expectWiringError(option, 'API_WIRING_MOUNT_OPTION', 'App.includeEndpoint(H)');
    expect(option.problem).toBe('mount option "auth" is not a value core can compile');
    class Typo extends Endpoint('/t') {
      get = this.operation({ returns: Health, jsn: Health } as { returns: typeof Health }, () => ({
        status: '',
      }));
    }
    const typo = await wiringError((a) => a.mountEndpoint(new Typo()));
    expectWiringError(typo, 'API_WIRING_UNKNOWN_OPTION', 'Typo.get');
    expect(typo.problem).toBe('unknown operation key "jsn"');
  });

  it('mount options are checked once, by one check, for a class mount and an extension route alike', async () => {
    class H extends Endpoint('/h') {
      get = this.operation({ returns: Health }, () => ({ status: '' }));
    }
    const route = (mountOptions: Record<string, unknown>) =>
      defineExtension({
        name: 'x',
        setup: (w) =>
          w.addRoute({
            method: 'GET',
            path: '/x',
            owner: 'x',
            operation: 'handle',
            handle: () => undefined,
            mountOptions,
          }),
      });
    const include = (a: { raw: BaseApp }, x: unknown): void =>
      (a.raw as unknown as { include(x: unknown): void }).include(x);
    const FIX =
      'Fix: build it with the package that provides "auth" (for example auth from @api/auth, cors from @api/cors).';
    const onClass = await wiringError((a) => a.mountEndpoint(new H(), { auth: 'yes' }));
    const onRoute = await wiringError((a) => include(a, route({ auth: 'yes' })));
    expect([onClass, onRoute].map((e) => [e.code, e.message])).toEqual([
      [
        'API_WIRING_MOUNT_OPTION',
        `App.includeEndpoint(H): mount option "auth" is not a value core can compile. ${FIX}`,
      ],
      ['API_WIRING_MOUNT_OPTION', `x.handle: mount option "auth" is not a value core can compile. ${FIX}`],
    ]);
    // An extension route's middleware that is not a list was a bare TypeError (forEach of an object).
    const notList = await wiringError((a) => include(a, route({ middleware: { observe: () => undefined } })));
    expect(expectWiringError(notList, 'API_WIRING_MOUNT_OPTION', 'x.handle').message).toBe(
      'x.handle: mount option "middleware" must be a list, got an object. Fix: middleware: [myMiddleware].',
    );
  });

  it('wiring.fail takes an optional code; an extension route with a method that is not one fails naming it', async () => {
    const include = (a: { raw: BaseApp }, x: unknown): void =>
      (a.raw as unknown as { include(x: unknown): void }).include(x);
    const coded = await wiringError((a) =>
      include(
        a,
        defineExtension({
          name: 'x',
          setup: (w) =>
            w.fail('x({ colour })', 'unknown option "colour"', 'use only color', 'API_WIRING_UNKNOWN_OPTION'),
        }),
      ),
    );
    expect(expectWiringError(coded, 'API_WIRING_UNKNOWN_OPTION', 'x({ colour })').message).toBe(
      'x({ colour }): unknown option "colour". Fix: use only color.',
    );
    const method = await wiringError((a) =>
      include(
        a,
        defineExtension({
          name: 'x',
          setup: (w) =>
            w.addRoute({
              method: 'get ',
              path: '/x',
              owner: 'x',
              operation: 'list',
              handle: () => undefined,
            }),
        }),
      ),
    );
    expect(expectWiringError(method, 'API_WIRING_HTTP_METHOD', 'x.list').message).toBe(
      `x.list: "GET " is not an HTTP method. Fix: use an upper-case method name, e.g. method: 'GET' or 'POST'.`,
    );
  });

  it('two body sources, and two plain members in a union', async () => {
    class Two extends Endpoint('/two') {
      post = this.operation({ json: Health, content: true, returns: Health }, () => ({ status: '' }));
    }
    expectWiringError(
      await wiringError((a) => a.mountEndpoint(new Two())),
      'API_WIRING_REQUEST_BODY',
      'Two.post',
    );
    class Union extends Endpoint('/u') {
      get = this.operation({ returns: [Health, Widget] }, () => ({ status: '' }));
    }
    const union = await wiringError((a) => a.mountEndpoint(new Union()));
    expectWiringError(union, 'API_WIRING_RETURNS', 'Union.get');
    expect(union.problem).toMatch(/^returns lists 2 plain members/);
  });

  it('middleware without hooks, and one constant header set twice', async () => {
    class H extends Endpoint('/h') {
      get = this.operation({ returns: Health }, () => ({ status: '' }));
    }
    expectWiringError(
      await wiringError((a) => a.mountEndpoint(new H(), { middleware: [{}] })),
      'API_WIRING_MIDDLEWARE',
      'H mount middleware',
    );
    const e = await wiringError((a) =>
      a.mountEndpoint(new H(), {
        middleware: [{ responseHeaders: { 'x-a': '1' } }, { responseHeaders: { 'X-A': '2' } }],
      }),
    );
    expectWiringError(e, 'API_WIRING_CONTRIBUTION_CONFLICT', 'H.get');
    expect(e.problem).toMatch(/^two contributions set the constant response header "x-a"/);
  });

  it('an extension failing wiring, and a bad slot name', async () => {
    const e = await wiringError((a) =>
      (a.raw as unknown as { include(x: unknown): void }).include(
        defineExtension({
          name: 'x',
          setup: (w) => w.fail('x extension', 'it is misconfigured', 'configure it'),
        }),
      ),
    );
    expectWiringError(e, 'API_WIRING', 'x extension');
    expect(e.message).toBe('x extension: it is misconfigured. Fix: configure it.');
    // A type error too (route-class.test-d.ts); at run time the class declaration itself fails.
    expectWiringError(() => Endpoint('/a/{Bad}' as string), 'API_WIRING_SLOT_NAME', "Endpoint('/a/{Bad}')");
  });
});

describe('startup checks (issue 22)', () => {
  const include = (a: { raw: BaseApp }, x: unknown): void =>
    (a.raw as unknown as { include(x: unknown): void }).include(x);

  it('slots in the mount path but no path model on the operation', async () => {
    class Parts extends Resource('/widgets/{widget_id}/parts') {
      readMany = this.operation({ returns: v.array(Widget) }, () => []);
    }
    expect(
      expectWiringError(
        await wiringError((a) => a.mountResource(new Parts())),
        'API_WIRING_PATH_BINDING',
        'Parts.readMany',
      ).message,
    ).toBe(
      'Parts.readMany: mount path "/widgets/{widget_id}/parts" has slot "{widget_id}" but the operation declares no path model, so no request could bind it. Fix: declare path: Struct(\'…\', { widget_id: v.string() }).',
    );
    class Hooks extends Endpoint('/hooks/{org}/{source}') {
      post = this.operation({ returns: Health }, () => ({ status: '' }));
    }
    expect(
      expectWiringError(
        await wiringError((a) => a.mountEndpoint(new Hooks())),
        'API_WIRING_PATH_BINDING',
        'Hooks.post',
      ).message,
    ).toBe(
      'Hooks.post: mount path "/hooks/{org}/{source}" has slots "{org}", "{source}" but the operation declares no path model, so no request could bind it. Fix: declare path: Struct(\'…\', { org: v.string(), source: v.string() }).',
    );
  });

  it('an interceptMethods entry that is not an upper-case HTTP method', async () => {
    class H extends Endpoint('/h') {
      get = this.operation({ returns: Health }, () => ({ status: '' }));
    }
    const mw = (methods: string[]) => ({ intercept: () => undefined, interceptMethods: methods });
    expect(
      expectWiringError(
        await wiringError((a) => a.mountEndpoint(new H(), { middleware: [mw(['get'])] })),
        'API_WIRING_HTTP_METHOD',
        'H mount middleware',
      ).message,
    ).toBe(
      'H mount middleware: interceptMethods names "get"; methods are matched as sent on the wire, in upper case, so it would never match. Fix: write \'GET\'.',
    );
    expect(
      expectWiringError(
        await wiringError((a) => a.mountEndpoint(new H(), { middleware: [mw(['get '])] })),
        'API_WIRING_HTTP_METHOD',
        'H mount middleware',
      ).message,
    ).toBe(
      'H mount middleware: interceptMethods names "get "; methods are matched as sent on the wire, in upper case, so it would never match. Fix: write \'GET\'.',
    );
    const fetchMethod = await wiringError((a) => a.mountEndpoint(new H(), { middleware: [mw(['FETCH'])] }));
    expect(expectWiringError(fetchMethod, 'API_WIRING_HTTP_METHOD', 'H mount middleware').message).toBe(
      "H mount middleware: interceptMethods names \"FETCH\", which is not an HTTP method an intercept runs for. Fix: use 'GET', 'HEAD', 'POST', 'PUT', 'PATCH' or 'DELETE'.",
    );
    expect(
      expectWiringError(
        await wiringError((a) => a.raw['includeMiddleware'](mw(['Post']))),
        'API_WIRING_HTTP_METHOD',
        'App.includeMiddleware',
      ).message,
    ).toBe(
      'App.includeMiddleware: interceptMethods names "Post"; methods are matched as sent on the wire, in upper case, so it would never match. Fix: write \'POST\'.',
    );
    const define = () => defineMiddleware({ intercept: () => undefined, interceptMethods: ['delete'] });
    expect(expectWiringError(define, 'API_WIRING_HTTP_METHOD', 'defineMiddleware').message).toBe(
      'defineMiddleware: interceptMethods names "delete"; methods are matched as sent on the wire, in upper case, so it would never match. Fix: write \'DELETE\'.',
    );
    const e = await wiringError((a) =>
      include(
        a,
        defineExtension({
          name: 'guard',
          setup: (w) => w.addIntercept({ methods: ['get'], intercept: () => undefined }),
        }),
      ),
    );
    expectWiringError(e, 'API_WIRING_HTTP_METHOD', 'wiring.addIntercept: methods');
    expect(e.message).toBe(
      'wiring.addIntercept: methods: "get" is not an HTTP method as requests carry it (upper case). Fix: write \'GET\'.',
    );
  });

  it("a scoped intercept whose methods match none of the mount's operations", async () => {
    class H extends Endpoint('/h') {
      get = this.operation({ returns: Health }, () => ({ status: '' }));
    }
    const guard = { intercept: () => undefined, interceptMethods: ['POST', 'DELETE'] };
    expect(
      expectWiringError(
        await wiringError((a) => a.mountEndpoint(new H(), { middleware: [guard] })),
        'API_WIRING_INTERCEPT_UNREACHABLE',
        'App.includeEndpoint(H)',
      ).message,
    ).toBe(
      "App.includeEndpoint(H): middleware[0] intercepts POST, DELETE, but the mount answers only GET, HEAD, so the intercept would never run. Fix: list the methods it should guard (e.g. interceptMethods: ['GET']), or mount it where POST/DELETE is answered.",
    );
    // An upgrade route is a GET route: a POST intercept on it never runs, a GET or HEAD one does.
    const socketRoute = (methods: string[]) =>
      defineExtension({
        name: 'ws',
        setup: (w) =>
          w.addUpgradeRoute({
            path: '/socket',
            owner: 'Chat',
            handle: () => undefined,
            mountOptions: { middleware: [{ intercept: () => undefined, interceptMethods: methods }] },
          }),
      });
    expect(
      expectWiringError(
        await wiringError((a) => include(a, socketRoute(['POST']))),
        'API_WIRING_INTERCEPT_UNREACHABLE',
        'Chat.handle (upgrade route)',
      ).message,
    ).toBe(
      "Chat.handle (upgrade route): middleware[0] intercepts POST, but the mount answers only GET, HEAD, so the intercept would never run. Fix: list the methods it should guard (e.g. interceptMethods: ['GET']), or mount it where POST is answered.",
    );
    class Ok extends BaseApp {
      protected override async wire(): Promise<void> {
        this.includeEndpoint(new H(), {
          middleware: [{ intercept: () => undefined, interceptMethods: ['HEAD'] }],
        });
        this.include(socketRoute(['GET']));
      }
    }
    await new Ok({ logger: memoryLogger() }).start();
  });

  it("path-shape errors name the mount's class: duplicate slot, unbalanced brace, empty slot", async () => {
    class Dup extends Resource('/a/{x}/b/{x}' as string) {
      readMany = this.operation({ returns: v.array(Widget) }, () => []);
    }
    expect(
      expectWiringError(
        await wiringError((a) => a.mountResource(new Dup())),
        'API_WIRING_DUPLICATE',
        'App.includeResource(Dup): path "/a/{x}/b/{x}"',
      ).message,
    ).toBe(
      'App.includeResource(Dup): path "/a/{x}/b/{x}": slot "{x}" appears twice. Fix: give each slot its own name.',
    );
    class Open extends Endpoint('/a/{x' as string) {
      get = this.operation({ returns: Health }, () => ({ status: '' }));
    }
    expect(
      expectWiringError(
        await wiringError((a) => a.mountEndpoint(new Open())),
        'API_WIRING_INVALID_PATH',
        'App.includeEndpoint(Open): path "/a/{x"',
      ).message,
    ).toBe(
      'App.includeEndpoint(Open): path "/a/{x": segment "{x" is not a valid {slot} (the brace is not closed). Fix: a slot fills a whole segment, e.g. "/widgets/{widget_id}".',
    );
    class Close extends Endpoint('/a/x}' as string) {
      get = this.operation({ returns: Health }, () => ({ status: '' }));
    }
    expect(
      expectWiringError(
        await wiringError((a) => a.mountEndpoint(new Close())),
        'API_WIRING_INVALID_PATH',
        'App.includeEndpoint(Close): path "/a/x}"',
      ).message,
    ).toBe(
      'App.includeEndpoint(Close): path "/a/x}": segment "x}" has an unbalanced brace. Fix: a slot is a whole segment in braces, e.g. "/widgets/{widget_id}".',
    );
    class Nameless extends Endpoint('/a/{}' as string) {
      get = this.operation({ returns: Health }, () => ({ status: '' }));
    }
    expect(
      expectWiringError(
        await wiringError((a) => a.mountEndpoint(new Nameless())),
        'API_WIRING_INVALID_PATH',
        'App.includeEndpoint(Nameless): path "/a/{}"',
      ).message,
    ).toBe(
      'App.includeEndpoint(Nameless): path "/a/{}": segment "{}" is not a valid {slot} (the slot has no name). Fix: a slot fills a whole segment, e.g. "/widgets/{widget_id}".',
    );
    const e = await wiringError((a) =>
      include(
        a,
        defineExtension({
          name: 'x',
          setup: (w) =>
            w.addRoute({
              method: 'GET',
              path: '/x/{id}/{id}',
              owner: 'meta',
              operation: 'list',
              handle: () => undefined,
            }),
        }),
      ),
    );
    expectWiringError(e, 'API_WIRING_DUPLICATE', 'meta.list: path "/x/{id}/{id}"');
    expect(e.message).toBe(
      'meta.list: path "/x/{id}/{id}": slot "{id}" appears twice. Fix: give each slot its own name.',
    );
  });
});

describe('extension routes: duplicates fail at addRoute', () => {
  const route = (owner: string, path = '/x') => ({
    method: 'GET',
    path,
    owner,
    operation: 'handle',
    handle: () => undefined,
  });
  const FIX =
    'Fix: mount one of them at another path, split methods so each is answered once, or (in an extension) check wiring.hasRoute(method, path) before adding.';
  class X extends Endpoint('/x') {
    get = this.operation({ returns: Health }, () => ({ status: '' }));
  }

  it('knows the routes added so far (hasRoute, findRoute) and refuses a second one at once, naming both', async () => {
    const seen: unknown[] = [];
    const e = await wiringError((a) => {
      a.mountEndpoint(new X());
      (a.raw as unknown as { include(x: unknown): void }).include(
        defineExtension({
          name: 'late',
          setup: (w) => {
            seen.push(w.hasRoute('GET', '/x'), w.hasRoute('get', '/x'), w.hasRoute('POST', '/x'));
            seen.push(w.hasRoute('GET', '/y'), w.findRoute('GET', '/x')?.owner);
            w.addRoute(route('late', '/y'));
            seen.push(w.hasRoute('GET', '/y'), w.findRoute('GET', '/y')?.kind);
            try {
              w.addRoute(route('late'));
            } catch (error) {
              seen.push('thrown by addRoute');
              throw error;
            }
          },
        }),
      );
    });
    expect(seen).toEqual([true, true, false, false, 'X', true, 'custom', 'thrown by addRoute']);
    expectWiringError(e, 'API_WIRING_DUPLICATE_ROUTE', 'late.handle (custom route)');
    expect(e.message).toBe(`late.handle (custom route): GET /x is already answered by X.get. ${FIX}`);
  });

  it('two extensions on one path (slot names ignored), and an upgrade route on an operation', async () => {
    const e = await wiringError((a) => {
      const include = (a.raw as unknown as { include(x: unknown): void }).include.bind(a.raw);
      include(defineExtension({ name: 'one', setup: (w) => w.addRoute(route('one', '/w/{a}')) }));
      include(defineExtension({ name: 'two', setup: (w) => w.addRoute(route('two', '/w/{b}')) }));
    });
    expectWiringError(e, 'API_WIRING_DUPLICATE_ROUTE', 'two.handle (custom route)');
    expect(e.message).toBe(
      `two.handle (custom route): GET /w/{b} is already answered by one.handle (custom route) (as /w/{a}). ${FIX}`,
    );
    const u = await wiringError((a) => {
      a.mountEndpoint(new X());
      (a.raw as unknown as { include(x: unknown): void }).include(
        defineExtension({
          name: 'ws',
          setup: (w) => w.addUpgradeRoute({ path: '/x', owner: 'Socket', handle: () => undefined }),
        }),
      );
    });
    expectWiringError(u, 'API_WIRING_DUPLICATE_ROUTE', 'Socket.handle (upgrade route)');
    expect(u.message).toBe(`Socket.handle (upgrade route): GET /x is already answered by X.get. ${FIX}`);
  });

  it('an operation mounted after an extension route still fails wiring, naming both', async () => {
    const e = await wiringError((a) => {
      (a.raw as unknown as { include(x: unknown): void }).include(
        defineExtension({ name: 'first', setup: (w) => w.addRoute(route('first')) }),
      );
      a.mountEndpoint(new X());
    });
    expectWiringError(e, 'API_WIRING_DUPLICATE_ROUTE', 'X.get');
    expect(e.message).toBe(`X.get: GET /x is already answered by first.handle (custom route). ${FIX}`);
  });

  it('one duplicate-route error: operation/operation, operation/extension route, either order', async () => {
    class Y extends Endpoint('/x') {
      get = this.operation({ returns: Health }, () => ({ status: '' }));
    }
    const ext = (a: { raw: BaseApp }) =>
      (a.raw as unknown as { include(x: unknown): void }).include(
        defineExtension({ name: 'first', setup: (w) => w.addRoute(route('first')) }),
      );
    const clashes = [
      await wiringError((a) => (a.mountEndpoint(new X()), a.mountEndpoint(new Y()))),
      await wiringError((a) => (ext(a), a.mountEndpoint(new Y()))),
      await wiringError((a) => (a.mountEndpoint(new X()), ext(a))),
    ];
    // One code, one message shape, one fix, whichever check saw the clash.
    expect(clashes.map((e) => [e.code, e.message])).toEqual([
      ['API_WIRING_DUPLICATE_ROUTE', `Y.get: GET /x is already answered by X.get. ${FIX}`],
      [
        'API_WIRING_DUPLICATE_ROUTE',
        `Y.get: GET /x is already answered by first.handle (custom route). ${FIX}`,
      ],
      [
        'API_WIRING_DUPLICATE_ROUTE',
        `first.handle (custom route): GET /x is already answered by X.get. ${FIX}`,
      ],
    ]);
  });

  it('two methods on one path shape written with other slot names: one template per shape', async () => {
    class Get extends Endpoint('/w/{a}') {
      get = this.operation({ path: Struct('P', { a: v.string() }), returns: Health }, () => ({ status: '' }));
    }
    class Post extends Endpoint('/w/{b}') {
      post = this.operation({ path: Struct('P', { b: v.string() }), returns: Health }, () => ({
        status: '',
      }));
    }
    const e = await wiringError((a) => (a.mountEndpoint(new Get()), a.mountEndpoint(new Post())));
    expectWiringError(e, 'API_WIRING_PATH_SHAPE', 'Post.post');
    expect(e.message).toBe(
      'Post.post: path "/w/{b}" has the same shape as "/w/{a}" (only slot names differ). Fix: mount both under one template.',
    );
  });

  it('an operation whose path differs from an extension route only by slot names names both', async () => {
    class Z extends Endpoint('/w/{b}') {
      get = this.operation({ path: Struct('P', { b: v.string() }), returns: Health }, () => ({ status: '' }));
    }
    const e = await wiringError((a) => {
      (a.raw as unknown as { include(x: unknown): void }).include(
        defineExtension({ name: 'one', setup: (w) => w.addRoute(route('one', '/w/{a}')) }),
      );
      a.mountEndpoint(new Z());
    });
    expectWiringError(e, 'API_WIRING_DUPLICATE_ROUTE', 'Z.get');
    expect(e.message).toBe(
      `Z.get: GET /w/{b} is already answered by one.handle (custom route) (as /w/{a}). ${FIX}`,
    );
  });
});

describe('include() with an async setup', () => {
  async function start(wire: (include: (x: unknown) => unknown) => Promise<void>) {
    const logger = memoryLogger();
    class App extends BaseApp {
      protected override async wire(): Promise<void> {
        await wire((x) => (this as unknown as { include(x: unknown): unknown }).include(x));
      }
    }
    const unhandled: unknown[] = [];
    const onUnhandled = (reason: unknown): void => void unhandled.push(reason);
    process.on('unhandledRejection', onUnhandled);
    try {
      const error = await new App({ logger }).start().then(
        () => undefined,
        (e: unknown) => e,
      );
      await new Promise((resolve) => setTimeout(resolve, 20));
      return { error, unhandled, logger };
    } finally {
      process.off('unhandledRejection', onUnhandled);
    }
  }
  const failing = (name: string, error: unknown, ms = 0) =>
    defineExtension({
      name,
      setup: () => new Promise<void>((_resolve, reject) => setTimeout(() => reject(error), ms)),
    });

  it('a rejected setup nobody awaits fails start once, as a WiringError naming the extension', async () => {
    const boom = new Error('queue store unreachable');
    const { error, unhandled } = await start(async (include) => {
      void include(failing('queue', boom));
    });
    expect(unhandled).toEqual([]);
    expectWiringError(error, 'API_WIRING_SETUP_FAILED', 'App.include(queue)');
    expect((error as WiringError).message).toBe(
      "App.include(queue): the extension's async setup failed: queue store unreachable. Fix: correct what the cause reports (error.cause), then start again.",
    );
    expect((error as WiringError).cause).toBe(boom);
  });

  it('a WiringError from an async setup is surfaced as it is', async () => {
    const wiring = new WiringError('queue: bad option. Fix: fix it.');
    const { error } = await start(async (include) => {
      void include(failing('queue', wiring));
    });
    expect(error).toBe(wiring);
    // A plain-message WiringError (an extension's) has the generic code and its parts read back.
    const parts = expectWiringError(error, 'API_WIRING', 'queue');
    expect([parts.problem, parts.fix]).toEqual(['bad option', 'fix it']);
  });

  it('when wire() fails meanwhile, its error wins; the setup failure is logged, never unhandled', async () => {
    const wireError = new WiringError('App.wire: broken. Fix: none.');
    const { error, unhandled, logger } = await start(async (include) => {
      void include(failing('queue', new Error('late'), 5));
      throw wireError;
    });
    expect(error).toBe(wireError);
    expect(unhandled).toEqual([]);
    expect(logger.lines).toEqual(['error App.include(queue): async setup also failed']);
  });

  it('a setup that wire() awaits fails with its own error, once', async () => {
    const boom = new Error('awaited');
    const { error, unhandled, logger } = await start(async (include) => {
      await include(failing('queue', boom));
    });
    expect(error).toBe(boom);
    expect(unhandled).toEqual([]);
    expect(logger.lines).toEqual([]);
  });
});
