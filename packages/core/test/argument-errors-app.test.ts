// Issue 11: wrong arguments at the app level — app options, limits, mounts, the extension wiring
// surface, enter/aenter and serve() — are WiringErrors naming the call, the argument and the fix.
import * as v from 'valibot';
import { describe, expect, it } from 'vitest';
import { BaseApp, defineMiddleware, Endpoint, serve, Struct, WiringError } from '../src/index';
import { expectWiringError } from './expect-wiring-error';
import { defineExtension, type Wiring } from '../src/extension';
import { memoryLogger } from './fixtures';

const Health = Struct('Health', { status: v.string() });
class H extends Endpoint('/h') {
  get = this.operation({ returns: Health }, () => ({ status: 'ok' }));
}
const any = (value: unknown): never => value as never;

interface Door {
  mount(route: object, options?: unknown): void;
  include(setup: (wiring: Wiring) => void): void;
  enter(resource: unknown): void;
  adapter(adapter: unknown): void;
}

/** Starts an app whose wire() runs `wire` and returns the WiringError it fails with. */
async function startError(wire: (door: Door) => void | Promise<void>): Promise<WiringError> {
  class App extends BaseApp {
    protected override async wire(): Promise<void> {
      await wire({
        mount: (route, options) => this.includeEndpoint(route as H, any(options)),
        include: (setup) => this.include(defineExtension({ name: 'probe', setup })),
        enter: (resource) => this.enter(any(resource)),
        adapter: (adapter) => this.includeErrorAdapter(any(adapter)),
      });
    }
  }
  const error: unknown = await new App({ logger: memoryLogger() }).start().then(
    () => undefined,
    (e: unknown) => e,
  );
  expect(error).toBeInstanceOf(WiringError);
  return error as WiringError;
}

function thrown(call: () => unknown): WiringError {
  try {
    call();
  } catch (error) {
    expect(error).toBeInstanceOf(WiringError);
    return error as WiringError;
  }
  throw new Error('expected a WiringError');
}

class App extends BaseApp {
  protected override async wire(): Promise<void> {
    this.includeEndpoint(new H());
  }
}

describe('new App(options)', () => {
  it.each([
    [
      'a logger without warn',
      { logger: { info() {}, error() {} } },
      'new App(options): logger must have info, warn and error methods (missing warn). Fix: pass a pino logger, or { info(message, fields?), warn(message, error?, fields?), error(message, error?, fields?) }, or leave it out for the console.',
      'API_WIRING_INVALID_ARGUMENT',
    ],
    [
      'a limit given as text',
      { limits: { maxBodyBytes: '1mb' } },
      'new App({ limits }): limit "maxBodyBytes" must be a positive number (got a string); limits are never 0 or unlimited. Fix: e.g. maxBodyBytes: 1048576, or leave it out for the default.',
      'API_WIRING_LIMIT',
    ],
    [
      'an unknown multipart limit (was silently kept)',
      { limits: { multipart: { maxFiles: 3 } } },
      'new App({ limits }): unknown limit "multipart.maxFiles". Fix: use only maxFileSize, maxFields, maxParts, maxFieldSize, maxHeaderSize, maxTotalSize, maxSpooledBytes.',
      'API_WIRING_UNKNOWN_OPTION',
    ],
    [
      'an env value that is not a string',
      { env: { APP_BASE_URL: 1 } },
      'new App(options): env variable APP_BASE_URL must be a string, got a number. Fix: pass strings, as process.env holds them.',
      'API_WIRING_ENV',
    ],
    [
      'options that are not an object',
      'quiet',
      'new App(options): options must be an object, got a string. Fix: pass { logger, requestLog, limits, env, health, loadShedding, trustProxy, factory } or nothing.',
      'API_WIRING_INVALID_ARGUMENT',
    ],
    [
      'a requestLog that is not a boolean',
      { requestLog: 'yes' },
      'new App(options): requestLog must be true or false, got a string. Fix: requestLog: true for one log line per finished request, or leave it out.',
      'API_WIRING_INVALID_ARGUMENT',
    ],
    [
      'a misspelled requestLog (was silently ignored: no request log)',
      { requestlog: true },
      'new App(options): unknown option "requestlog" (did you mean requestLog?). Fix: use only logger, requestLog, limits, env, factory, health, loadShedding, trustProxy; a subclass with options of its own takes them out first: const { mine, ...appOptions } = options; super(appOptions).',
      'API_WIRING_UNKNOWN_OPTION',
    ],
    [
      'a misspelled limits (was silently ignored: the defaults applied)',
      { limts: {} },
      'new App(options): unknown option "limts" (did you mean limits?). Fix: use only logger, requestLog, limits, env, factory, health, loadShedding, trustProxy; a subclass with options of its own takes them out first: const { mine, ...appOptions } = options; super(appOptions).',
      'API_WIRING_UNKNOWN_OPTION',
    ],
    [
      "a subclass's own option passed through super(options)",
      { database: 'db' },
      'new App(options): unknown option "database". Fix: use only logger, requestLog, limits, env, factory, health, loadShedding, trustProxy; a subclass with options of its own takes them out first: const { mine, ...appOptions } = options; super(appOptions).',
      'API_WIRING_UNKNOWN_OPTION',
    ],
  ] as const)('%s', (_what, options, message, code) => {
    expect(
      expectWiringError(
        thrown(() => new App(any(options))),
        code,
        /./,
      ).message,
    ).toBe(message);
  });
});

describe('mounts, enter and the wiring surface', () => {
  it.each([
    [
      'mount options that are not an object',
      (d: Door) => d.mount(new H(), 'auth'),
      'App.includeEndpoint(H): mount options must be an object, got a string. Fix: pass { auth, cors, middleware, limits, … } or nothing.',
      'API_WIRING_INVALID_ARGUMENT',
    ],
    [
      'one middleware instead of a list (was a bare TypeError)',
      (d: Door) => d.mount(new H(), { middleware: defineMiddleware({ observe() {} }) }),
      'App.includeEndpoint(H): mount option "middleware" must be a list, got an object. Fix: middleware: [myMiddleware].',
      'API_WIRING_MOUNT_OPTION',
    ],
    [
      'an app-only limit on a mount (was silently ignored)',
      (d: Door) => d.mount(new H(), { limits: { shutdownTimeoutMs: 1 } }),
      'H mount limits: unknown limit "shutdownTimeoutMs". Fix: use only maxBodyBytes, maxJsonDepth, multipart, deadlineMs.',
      'API_WIRING_UNKNOWN_OPTION',
    ],
    [
      'plain fields as a params schema',
      (d: Door) => {
        class P extends Endpoint('/p') {
          get = this.operation({ params: any({ page: v.string() }), returns: Health }, () => ({
            status: '',
          }));
        }
        d.mount(new P());
      },
      'P.get: the params source is not an object schema (got an object; a plain object of fields is not a schema). Fix: declare params as a Struct (named fields).',
      'API_WIRING_NOT_A_SCHEMA',
    ],
    [
      'a json source that is not a schema',
      (d: Door) => {
        class J extends Endpoint('/j') {
          post = this.operation({ json: any({ name: v.string() }), returns: Health }, () => ({ status: '' }));
        }
        d.mount(new J());
      },
      'J.post: the json source must be a valibot schema or a Standard Schema (zod, ArkType), got an object. Fix: json: WidgetIn (a Struct or a v.* schema).',
      'API_WIRING_NOT_A_SCHEMA',
    ],
    [
      'enter() of something with no close',
      (d: Door) => d.enter({ open() {} }),
      'App.enter: an object has no [Symbol.asyncDispose], [Symbol.dispose] or close(), so nothing could tear it down. Fix: pass a Disposable, an AsyncDisposable or an object with close().',
      'API_WIRING_NOT_CLOSEABLE',
    ],
    [
      'an error adapter with a misspelt key (was silently ignored)',
      (d: Door) =>
        d.adapter({
          schema: Struct('House', { error: v.string() }),
          compose: () => ({ error: '' }),
          statusfield: 'code',
        }),
      'App.includeErrorAdapter: unknown adapter key "statusfield". Fix: an adapter is { schema, compose(error), statusField? }.',
      'API_WIRING_UNKNOWN_OPTION',
    ],
    [
      'addRoute with a relative path',
      (d: Door) =>
        d.include((w) =>
          w.addRoute({ method: 'GET', path: 'meta', owner: 'probe', operation: 'x', handle() {} }),
        ),
      'wiring.addRoute (probe): "path" must be a path template starting with "/", got "meta". Fix: path: \'/_meta/routes\'.',
      'API_WIRING_INVALID_PATH',
    ],
    [
      'addRoute without an owner',
      (d: Door) => d.include((w) => w.addRoute(any({ method: 'GET', path: '/m', handle() {} }))),
      'wiring.addRoute: "owner" must name who adds the route (a non-empty string), got undefined. Fix: owner: \'my-extension\'.',
      'API_WIRING_INVALID_ARGUMENT',
    ],
    [
      'addContributor with an object (was a TypeError at the end of wiring)',
      (d: Door) => d.include((w) => w.addContributor(any({ headers: [] }))),
      'wiring.addContributor: expected a function (route) => contribution, got an object. Fix: pass a function.',
      'API_WIRING_INVALID_ARGUMENT',
    ],
    [
      'onDrain without a callback (was a TypeError at shutdown)',
      (d: Door) => d.include((w) => w.onDrain(any(undefined))),
      'wiring.onDrain: expected a callback () => void | Promise<void>, got undefined. Fix: pass a function.',
      'API_WIRING_INVALID_ARGUMENT',
    ],
    [
      'addSource without compile',
      (d: Door) => d.include((w) => w.addSource(any({ name: 'requestId' }))),
      'wiring.addSource(requestId): expected compile(ctx) returning a resolver, got undefined. Fix: pass a function.',
      'API_WIRING_INVALID_ARGUMENT',
    ],
    [
      'addSource named after a source core binds (was silently never used)',
      (d: Door) => d.include((w) => w.addSource({ name: 'requestId', compile: () => () => 'mine' })),
      'addSource(requestId): "requestId" is a source core binds itself, so this one would never be used. Fix: give the source another name.',
      'API_WIRING_SOURCE',
    ],
    [
      'addRoute from onWired (was silently never routed)',
      (d: Door) =>
        d.include((w) =>
          w.onWired(() =>
            w.addRoute({ method: 'GET', path: '/late', owner: 'probe', operation: 'x', handle() {} }),
          ),
        ),
      'wiring.addRoute: called after the routes were compiled (from onWired or later), so it would never take effect. Fix: call addRoute in setup (an async setup may await first).',
      'API_WIRING_APP_STATE',
    ],
    [
      'wiring.enter of a plain value',
      (d: Door) => d.include((w) => w.enter(any('pool'))),
      'wiring.enter: a string has no [Symbol.asyncDispose], [Symbol.dispose] or close(), so nothing could tear it down. Fix: pass a Disposable, an AsyncDisposable or an object with close().',
      'API_WIRING_NOT_CLOSEABLE',
    ],
  ] as const)('%s', async (_what, wire, message, code) => {
    expect(expectWiringError(await startError(wire), code, /./).message).toBe(message);
  });
});

describe('serve(app, options)', () => {
  it.each([
    [
      'a port out of range',
      () => serve(new App(), any({ port: 70000 })),
      'serve(App, options): port must be an integer from 0 to 65535, got 70000. Fix: e.g. port: 8000 (0 picks a free port).',
      'API_WIRING_INVALID_ARGUMENT',
    ],
    [
      'a misspelt option',
      () => serve(new App(), any({ prot: 8000 })),
      'serve(App, options): unknown option "prot". Fix: use only port, host, signals, quiet, drainDelayMs.',
      'API_WIRING_UNKNOWN_OPTION',
    ],
    [
      'the app class instead of an instance',
      () => serve(any(App)),
      'serve(app): expected an app instance (a BaseApp subclass), got a function (App). Fix: serve(new App(), { port: 8000 }).',
      'API_WIRING_INVALID_ARGUMENT',
    ],
    [
      'signals as text',
      () => serve(new App(), any({ signals: 'no' })),
      'serve(App, options): signals must be true or false, got a string. Fix: signals: false, or leave it out.',
      'API_WIRING_INVALID_ARGUMENT',
    ],
  ] as const)('%s, before anything starts or listens', async (_what, call, message, code) => {
    const error: unknown = await call().then(
      () => undefined,
      (e: unknown) => e,
    );
    // The exact message pins the wording users see (and so `where`, its first part).
    expect(expectWiringError(error, code, /./).message).toBe(message);
  });
});
