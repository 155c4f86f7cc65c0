// A route class's name is the same whatever built it. esbuild (tsup) renames a class that refers
// to itself: `class WidgetResource { … WidgetResource … }` becomes
// `var WidgetResource = class _WidgetResource …`, whose `.name` is `_WidgetResource`. The
// classes below are written the way such a bundle reads, and `name` keeps what the catalogue,
// WiringErrors and everything built on them (operationIds) say.
import * as v from 'valibot';
import { afterEach, describe, expect, it } from 'vitest';
import { TestClient } from '@api/testing';
import { defineExtension, routeClassName, type RouteCatalogue } from '../src/extension';
import { BaseApp, Created, Endpoint, Location, Resource, type WiringErrorCode } from '../src/index';
import { expectWiringError } from './expect-wiring-error';
import { memoryLogger, Widget, WidgetIn, WidgetPath } from './fixtures';

/** Serves `GET /_meta/owners`: every operation's catalogue owner, as an extension reads it. */
const owners = defineExtension({
  name: 'owners',
  setup(wiring) {
    let catalogue: RouteCatalogue | undefined;
    wiring.onWired((c) => {
      catalogue = c;
    });
    wiring.addRoute({
      method: 'GET',
      path: '/_meta/owners',
      owner: 'owners',
      operation: 'list',
      hidden: true,
      handle: (ex) =>
        ex.send(
          200,
          ['content-type', 'application/json'],
          JSON.stringify(
            catalogue!.routes
              .filter((r) => r.kind === 'operation')
              .map((r) => `${r.method} ${r.path} ${r.owner}.${r.operation}`),
          ),
        ),
    });
  },
});

// As a bundle declares a self-referencing class: the class expression is named `_WidgetResource`.
const WidgetResource = class _WidgetResource extends Resource('/widgets', { name: 'WidgetResource' }) {
  create = this.operation({ json: WidgetIn, returns: Created.of(Widget) }, ({ json }) => {
    const widget = { id: 'w1', ...json };
    return new Created({
      json: widget,
      location: Location.fromOperation(WidgetResource, 'readOne', { path: { widget_id: widget.id } }),
    });
  });
  readOne = this.operation({ path: WidgetPath, returns: Widget }, ({ path }) => ({
    id: path.widget_id,
    name: 'n',
    priceCents: 1,
  }));
};
// A bundler's other rename (a name clash between modules): `HealthEndpoint2`.
const HealthEndpoint = class HealthEndpoint2 extends Endpoint('/healthz', { name: 'HealthEndpoint' }) {
  get = this.operation({ returns: v.object({ ok: v.boolean() }) }, () => ({ ok: true }));
};
// No `name`: the class name as it is at run time.
const Plain = class _Plain extends Endpoint('/plain') {
  get = this.operation({}, () => undefined);
};

const clients: TestClient[] = [];
afterEach(async () => {
  await Promise.all(clients.splice(0).map((c) => c.close()));
});

async function startupError(
  wire: (app: BaseApp & { mount(route: object): void }) => void,
  code: WiringErrorCode,
  where: string,
): Promise<string> {
  class App extends BaseApp {
    mount(route: object): void {
      this.includeEndpoint(route);
    }
    protected override async wire(): Promise<void> {
      wire(this);
    }
  }
  const error = await new TestClient(new App({ logger: memoryLogger() })).start().then(
    () => undefined,
    (e: unknown) => e,
  );
  // Every startup error here names the class through its name option, so `where` starts with it.
  return expectWiringError(error, code, where).message;
}

describe('route class names', () => {
  it('the catalogue owner is the name option, whatever the bundler named the class', async () => {
    class App extends BaseApp {
      protected override async wire(): Promise<void> {
        this.includeResource(new WidgetResource());
        this.includeEndpoint(new HealthEndpoint());
        this.includeEndpoint(new Plain());
        this.include(owners);
      }
    }
    const client = await TestClient.start(new App({ logger: memoryLogger() }));
    clients.push(client);
    const res = await client.get('/_meta/owners');
    expect(res.status).toBe(200);
    expect(res.json()).toEqual([
      'POST /widgets WidgetResource.create',
      'GET /widgets/{widget_id} WidgetResource.readOne',
      'GET /healthz HealthEndpoint.get',
      'GET /plain _Plain.get',
    ]);
    // Reverse routing still goes by the class itself.
    const created = await client.post('/widgets', { json: { name: 'n', priceCents: 1 } });
    expect(created.status).toBe(201);
    expect(created.headers.get('location')).toBe('/widgets/w1');
  });

  it('routeClassName reads the option, inherited by subclasses, else the class name', () => {
    class Special extends WidgetResource {}
    expect(routeClassName(WidgetResource)).toBe('WidgetResource');
    expect(routeClassName(Special)).toBe('WidgetResource');
    expect(routeClassName(HealthEndpoint)).toBe('HealthEndpoint');
    expect(routeClassName(Plain)).toBe('_Plain');
  });

  it('WiringErrors name the class by its name option', async () => {
    const Broken = class _Broken extends Endpoint('/broken', { name: 'Broken' }) {
      post = this.operation({ json: WidgetIn, content: true }, () => undefined);
    };
    expect(
      await startupError((app) => app.mount(new Broken()), 'API_WIRING_REQUEST_BODY', 'Broken.post'),
    ).toBe(
      'Broken.post: declares json and content; a request has one body. Fix: declare only one of json, content, form.',
    );
    const Empty = class _Empty extends Endpoint('/empty', { name: 'Empty' }) {};
    expect(
      await startupError(
        (app) => app.mount(new Empty()),
        'API_WIRING_NO_OPERATION',
        'App.includeEndpoint(Empty)',
      ),
    ).toBe(
      'App.includeEndpoint(Empty): declares no operation. Fix: add one of get, post, put, patch, delete as `= this.operation({ … }, handler)`.',
    );
  });

  it('a name that is not an identifier is a WiringError at the declaration', () => {
    const spaced = expectWiringError(
      () => Resource('/widgets', { name: 'Widget Resource' }),
      'API_WIRING_INVALID_ARGUMENT',
      "Resource('/widgets', { name })",
    );
    expect(spaced.message).toBe(
      `Resource('/widgets', { name }): name must be an identifier (letters, digits and _, not starting with a digit), got "Widget Resource". Fix: name the class as in its declaration, e.g. name: 'WidgetResource'.`,
    );
    const where = "Endpoint('/healthz', { name })";
    const empty = expectWiringError(
      () => Endpoint('/healthz', { name: '' }),
      'API_WIRING_INVALID_ARGUMENT',
      where,
    );
    expect(empty.problem).toMatch(/^name must be an identifier .* got ""$/);
    const digit = expectWiringError(
      () => Endpoint('/healthz', { name: '2fa' }),
      'API_WIRING_INVALID_ARGUMENT',
      where,
    );
    expect(digit.problem).toMatch(/^name must be an identifier/);
    const num = () => Endpoint('/healthz', { name: 42 as unknown as string });
    expect(expectWiringError(num, 'API_WIRING_INVALID_ARGUMENT', where).problem).toMatch(/got a number$/);
    const nom = () => Endpoint('/healthz', { nom: 'x' } as object);
    expect(expectWiringError(nom, 'API_WIRING_UNKNOWN_OPTION', "Endpoint('/healthz', …)").message).toBe(
      `Endpoint('/healthz', …): unknown option "nom". Fix: use only name, ref, meta.`,
    );
  });
});
