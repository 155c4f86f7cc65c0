import * as v from 'valibot';
import { afterEach, describe, expect, it } from 'vitest';
import { TestClient } from '@api/testing';
import { AuthenticationRequiredError, BaseApp, Endpoint, Resource, Struct } from '../src/index';
import {
  defineExtension,
  mountOption,
  type MountOptionValue,
  type RouteCatalogue,
} from '../src/extension/index';
import { headerUserAuth, memoryLogger, Widget, WidgetPath } from './fixtures';

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
