import * as v from 'valibot';
import { afterEach, describe, expect, it } from 'vitest';
import { TestClient } from '@api/testing';
import {
  AuthenticationRequiredError,
  BaseApp,
  Endpoint,
  Resource,
  serve,
  Struct,
  WiringError,
} from '../src/index';
import { expectWiringError } from './expect-wiring-error';
import {
  defineExtension,
  mountOption,
  type MountOptionValue,
  type RouteCatalogue,
  type Wiring,
} from '../src/extension';
import { headerUserAuth, memoryLogger, rawExchange, Widget, WidgetPath } from './fixtures';

const clients: TestClient[] = [];
afterEach(async () => {
  await Promise.all(clients.splice(0).map((c) => c.close()));
});

// A third-party-style mount option: provides `user` from an x-user header, 401 without it.
declare module '../src/index' {
  interface MountOptions<TRoute extends object> {
    readonly fakeAuth?: MountOptionValue & { readonly forRoute?: TRoute };
  }
}
const User = Struct('User', { name: v.string() });
const fakeAuth = headerUserAuth;

class Widgets extends Resource('/widgets', { ref: 'widgets' }) {
  readOne = this.operation({ path: WidgetPath, user: User, returns: Widget }, ({ path, user }) => ({
    id: path.widget_id,
    name: user.name,
    priceCents: 0,
  }));
  readMany = this.operation({ returns: v.array(Widget) }, () => []);
}
class Open extends Endpoint('/open') {
  get = this.operation({ returns: Struct('Ok', { ok: v.boolean() }) }, () => ({ ok: true }));
}

let catalogue: RouteCatalogue | undefined;
const tracing = defineExtension({
  name: 'tracing',
  setup(wiring) {
    wiring.addRoute({
      method: 'GET',
      path: '/ext/hello',
      owner: 'tracing',
      operation: 'hello',
      hidden: true,
      handle: (ex) => ex.send(200, ['content-type', 'text/plain'], 'hello from an extension'),
    });
    wiring.addContributor((route) =>
      route.path.startsWith('/widgets') ? { order: 20, headers: [['x-traced', 'yes']] } : undefined,
    );
    wiring.onWired((c) => {
      catalogue = c;
    });
    return { installed: true };
  },
});

class App extends BaseApp {
  installed: unknown;
  protected override async wire(): Promise<void> {
    this.installed = this.include(tracing);
    this.includeResource(new Widgets(), { fakeAuth });
    this.includeEndpoint(new Open());
  }
}

describe('the wiring extension point', () => {
  it('adds routes that get the route tail, and returns what setup returns', async () => {
    const app = new App({ logger: memoryLogger() });
    const c = new TestClient(app);
    clients.push(c);
    const res = await c.get('/ext/hello');
    expect(res.status).toBe(200);
    expect(res.text).toBe('hello from an extension');
    expect(app.installed).toEqual({ installed: true });
  });

  it('contributes constant headers to the routes it chooses (errors included)', async () => {
    const c = new TestClient(new App({ logger: memoryLogger() }));
    clients.push(c);
    expect((await c.get('/widgets')).headers.get('x-traced')).toBe('yes');
    expect((await c.get('/widgets/1')).headers.get('x-traced')).toBe('yes'); // a 401
    expect((await c.get('/open')).headers.get('x-traced')).toBeUndefined();
  });

  it('lets a mount option provide a source and reject before binding', async () => {
    const c = new TestClient(new App({ logger: memoryLogger() }));
    clients.push(c);
    const denied = await c.get('/widgets/1');
    expect(denied.status).toBe(401);
    expect(denied.json()).toEqual({
      type: 'authentication-required',
      title: 'Authentication required',
      status: 401,
    });
    const ok = await c.get('/widgets/1', { headers: { 'x-user': 'ada' } });
    expect(ok.json()).toEqual({ id: '1', name: 'ada', priceCents: 0 });
    // the option runs for every operation of the mount, even ones that do not read `user`
    expect((await c.get('/widgets')).status).toBe(401);
  });

  it('exposes the finished route catalogue with facts, specs and metadata', async () => {
    const c = new TestClient(new App({ logger: memoryLogger() }));
    clients.push(c);
    await c.start();
    const routes = catalogue!.routes.map(
      (r) => `${r.method} ${r.path} ${r.owner}.${r.operation}${r.hidden ? ' hidden' : ''}`,
    );
    expect(routes).toEqual([
      'GET /ext/hello tracing.hello hidden',
      'GET /widgets Widgets.readMany',
      'GET /widgets/{widget_id} Widgets.readOne',
      'GET /open Open.get',
    ]);
    const readOne = catalogue!.find(Widgets, 'readOne')!;
    expect(readOne.facts.get('fakeAuth')).toEqual({ scheme: 'x-user', route: 'GET /widgets/{widget_id}' });
    expect(readOne.spec?.path).toBe(WidgetPath);
    expect(readOne.ref).toBe('widgets');
    expect(readOne.responses[0]?.schema).toBe(Widget);
  });
});

describe('literal custom routes (addRoute({ literal: true }))', () => {
  /** An app whose extension adds each of `paths` as a literal GET route answering its own path. */
  function literalApp(paths: readonly string[], more?: (wiring: Wiring) => void): BaseApp {
    const files = defineExtension({
      name: 'files',
      setup(wiring) {
        for (const path of paths)
          wiring.addRoute({
            method: 'GET',
            path,
            literal: true,
            owner: 'files',
            operation: 'file',
            hidden: true,
            handle: (ex) => ex.send(200, ['content-type', 'text/plain'], `file at ${path}`),
          });
        more?.(wiring);
      },
    });
    class FilesApp extends BaseApp {
      protected override async wire(): Promise<void> {
        this.include(files);
      }
    }
    return new FilesApp({ logger: memoryLogger() });
  }
  const get = async (port: number, target: string, method = 'GET'): Promise<string> =>
    (
      await rawExchange(
        port,
        `${method} ${target} HTTP/1.1\r\nhost: x\r\nconnection: close\r\n\r\n`,
        /(?!)/, // read to the end
      )
    ).text;

  it('serves the path exactly as written: braces are characters, not slots', async () => {
    const running = await serve(literalApp(['/files/{a}.css', '/files/{locale}/a.css']), {
      port: 0,
      signals: false,
      quiet: true,
    });
    try {
      const one = await get(running.port, '/files/{a}.css');
      expect(one).toMatch(/^HTTP\/1\.1 200 OK\r\n/);
      expect(one).toMatch(/\r\n\r\nfile at \/files\/\{a\}\.css$/);
      expect(await get(running.port, '/files/{locale}/a.css')).toMatch(
        /^HTTP\/1\.1 200 OK\r\n[^]*\r\n\r\nfile at \/files\/\{locale\}\/a\.css$/,
      );
      // Not a template: no other value fills "{locale}" or "{a}".
      expect(await get(running.port, '/files/en/a.css')).toMatch(/^HTTP\/1\.1 404 Not Found\r\n/);
      expect(await get(running.port, '/files/x.css')).toMatch(/^HTTP\/1\.1 404 Not Found\r\n/);
      // An ordinary exact route otherwise: HEAD from GET, 405 with allow.
      const head = await get(running.port, '/files/{a}.css', 'HEAD');
      expect(head).toMatch(/^HTTP\/1\.1 200 OK\r\n/);
      expect(head).toMatch(/\r\ncontent-length: 22\r\n/i);
      expect(head).toMatch(/\r\n\r\n$/);
      const post = await get(running.port, '/files/{a}.css', 'POST');
      expect(post).toMatch(/^HTTP\/1\.1 405 Method Not Allowed\r\n/);
      expect(post).toMatch(/\r\nallow: GET, HEAD, OPTIONS\r\n/i);
    } finally {
      await running.close();
    }
  });

  it('is marked literal in the catalogue and found by findRoute({ literal: true }), not as a template', async () => {
    let seen: RouteCatalogue | undefined;
    const lookups: unknown[] = [];
    const app = literalApp(['/files/{a}.css'], (wiring) => {
      lookups.push(
        wiring.hasRoute('GET', '/files/{a}.css', { literal: true }),
        wiring.findRoute('GET', '/files/{a}.css', { literal: true })?.operation,
        wiring.hasRoute('GET', '/files/{b}.css'), // a template of another shape: not this route
      );
      wiring.onWired((c) => void (seen = c));
    });
    const c = new TestClient(app);
    clients.push(c);
    await c.start();
    expect(lookups).toEqual([true, 'file', false]);
    expect(seen!.routes.map((r) => [r.path, r.literal])).toEqual([['/files/{a}.css', true]]);
  });

  it('refuses at wiring a second route on the same literal path, a path no request can carry, and a path source', async () => {
    const start = async (app: BaseApp): Promise<unknown> => {
      const c = new TestClient(app);
      clients.push(c);
      return c.start().then(
        () => undefined,
        (error: unknown) => error,
      );
    };
    const twice = await start(literalApp(['/files/{a}.css', '/files/{a}.css']));
    expectWiringError(twice, 'API_WIRING_DUPLICATE_ROUTE', 'files.file (custom route)');
    expect(String(twice)).toMatch(
      /files\.file \(custom route\): GET \/files\/\{a\}\.css is already answered by files\.file \(custom route\)/,
    );
    for (const [path, char] of [
      ['/files/a b.css', ' '],
      ['/files/a.css?v=1', '?'],
      ['/files/café.css', 'é'],
    ] as const) {
      const error = await start(literalApp([path]));
      expect(expectWiringError(error, 'API_WIRING_INVALID_PATH', 'files.file').message).toBe(
        `files.file: literal path ${JSON.stringify(path)} has ${JSON.stringify(char)}, which no request target carries as is, so the route could never match. Fix: percent-encode it (as a browser would) in the path you add.`,
      );
    }
    const withPath = await start(
      literalApp([], (wiring) =>
        wiring.addRoute({
          method: 'GET',
          path: '/files/{a}',
          literal: true,
          owner: 'files',
          operation: 'file',
          spec: { path: Struct('FilePath', { a: v.string() }) },
          handle: (ex) => ex.send(204, []),
        }),
      ),
    );
    expectWiringError(withPath, 'API_WIRING_PATH_BINDING', 'files.file');
    expect(String(withPath)).toMatch(/a literal route has no slots, so it cannot declare a path source/);
  });
});
