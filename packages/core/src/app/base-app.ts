import type { IncomingMessage, ServerResponse } from 'node:http';
import type { Duplex } from 'node:stream';
import type * as v from 'valibot';
import {
  compileAdapter,
  MalformedRequestError,
  type CompiledAdapter,
  type ErrorBodyAdapter,
} from '../errors/http-error';
import { WiringError } from '../errors/wiring-error';
import {
  mountOption,
  type AppIntercept,
  type CustomRoute,
  type Exchange,
  type Extension,
  type Logger,
  type MountOptionValue,
  type RouteCatalogue,
  type RouteContribution,
  type RouteContributor,
  type RouteInfo,
  type UpgradeRoute,
  type Wiring,
} from '../extension/types';
import type { Middleware, Request } from '../middleware/middleware';
import { Router, parseTemplate } from '../routing/router';
import {
  ENDPOINT_OPERATIONS,
  isOperation,
  RESOURCE_OPERATIONS,
  routeClassInfo,
  type EndpointOperations,
  type Operation,
  type OperationSpec,
  type ResourceOperations,
} from '../routes/route-class';
import { plainJson, responseInfo, ExceptionResponse, type ResponseKindInfo } from '../responses/response';
import { compileWriter, exceptionResponseWriter, setUriEncoder, type Writer } from '../responses/writers';
import { encodeUriReference } from '../http';
import { objectEntries } from '../schema/introspect';
import { toErrorReason } from '../schema/issues';
import {
  contentBinder,
  cookiesBinder,
  formBinder,
  headersBinder,
  jsonBinder,
  pathBinder,
  queryBinder,
  rawHeadersBinder,
  type Binder,
} from '../binding/binders';
import { ExitStacks, type Closeable, type FactoryClass } from './lifecycle';
import { defaultLimits, mergeLimits, type Limits, type LimitsOptions, type MountLimits } from './limits';
import type { ExceptionHandler } from './exception-handler';
import { CompiledRoute, Runtime } from './runtime';
import { baseFromEnv, CatalogueResolver } from './url-resolver';

setUriEncoder(encodeUriReference);

/**
 * Options every mount accepts. Packages add typed options by declaration merging (e.g.
 * `@api/auth` adds `auth`, `@api/cors` adds `cors`), so an option type-checks only when the
 * package that implements it is imported.
 */
// eslint-disable-next-line @typescript-eslint/no-unused-vars
export interface MountOptions<TRoute extends object = object> {
  /** Mount-scoped middleware: runs after route resolution, before auth. */
  readonly middleware?: readonly Middleware[];
  /** Body and multipart limits for this mount's routes. */
  readonly limits?: MountLimits;
}

/** Options of an app's constructor. */
export interface AppOptions<TFactory = undefined> {
  /** A prebuilt factory (tests); otherwise the app builds its factory class. */
  readonly factory?: TFactory;
  /** App-wide limit overrides. */
  readonly limits?: LimitsOptions;
  /** Where the app logs (default: console, one line per message). */
  readonly logger?: Logger;
  /** Environment to read `APP_BASE_URL` / `APP_TRUST_FORWARDED` from (default `process.env`). */
  readonly env?: Readonly<Record<string, string | undefined>>;
}

/** The default logger: one line per message on stderr, errors with their stack. */
export const consoleLogger: Logger = {
  info: (message) => console.log(message),
  warn: (message, error) => (error === undefined ? console.warn(message) : console.warn(message, error)),
  error: (message, error) => (error === undefined ? console.error(message) : console.error(message, error)),
};

const CORE_SOURCES = new Set([
  'path',
  'params',
  'headers',
  'cookies',
  'json',
  'content',
  'rawHeaders',
  'form',
]);
const SPEC_KEYS = new Set([...CORE_SOURCES, 'user', 'returns', 'meta']);
const CORE_MOUNT_OPTIONS = new Set(['middleware', 'limits']);

interface PendingRoute {
  readonly info: MutableRouteInfo;
  readonly operation: Operation | undefined;
  readonly custom: CustomRoute | undefined;
  readonly slots: readonly string[];
  readonly limits: Limits;
  readonly mountMiddleware: readonly Middleware[];
}

type MutableRouteInfo = RouteInfo & { facts: Map<string, unknown> };

type AppState = 'new' | 'starting' | 'serving' | 'closing' | 'closed' | 'failed';

const kFactoryClass = Symbol('factoryClass');

/**
 * The application: subclass it and mount routes in `wire()`, which runs once at start.
 * Everything entered during wiring is torn down in reverse order at shutdown, also when
 * `wire()` fails partway.
 *
 * @example
 * class App extends BaseApp {
 *   protected override async wire() {
 *     this.includeEndpoint(new HealthEndpoint());
 *   }
 * }
 * await serve(new App(), { port: 8000 });
 */
export abstract class BaseApp<TFactory = undefined> {
  readonly #stacks = new ExitStacks();
  readonly #options: AppOptions<TFactory>;
  #factory: TFactory | undefined;
  #state: AppState = 'new';
  #starting: Promise<void> | undefined;
  #closing: Promise<void> | undefined;
  #limits: Limits;
  readonly #log: Logger;
  readonly #pending: PendingRoute[] = [];
  readonly #contributors: RouteContributor[] = [];
  readonly #intercepts: AppIntercept[] = [];
  readonly #wired: ((catalogue: RouteCatalogue) => void | Promise<void>)[] = [];
  readonly #shutdown: (() => void | Promise<void>)[] = [];
  readonly #appMiddleware: Middleware[] = [];
  readonly #handlers = new Map<object, ExceptionHandler>();
  readonly #upgrades: UpgradeRoute[] = [];
  #adapter: ErrorBodyAdapter | undefined;
  #runtime: Runtime | undefined;
  #catalogue: RouteCatalogue | undefined;
  #wiring: Wiring | undefined;
  #includes: Promise<unknown>[] = [];

  constructor(options: AppOptions<TFactory> = {}) {
    this.#options = options;
    this.#log = options.logger ?? consoleLogger;
    this.#limits = mergeLimits(this.constructor.name, defaultLimits, options.limits);
    const factoryClass = (this.constructor as { [kFactoryClass]?: FactoryClass<TFactory> })[kFactoryClass];
    if (options.factory !== undefined) this.#factory = options.factory;
    else if (factoryClass) this.#factory = new factoryClass(this.#stacks);
  }

  /**
   * The base class for an app with a service factory: the app builds `Factory` with its exit
   * stacks (or takes `{ factory }` prebuilt, for tests) and exposes it as `this.factory`.
   *
   * @example
   * class DemoApp extends BaseApp.withFactory(Factory) {
   *   protected override async wire() { const store = this.factory.createStore(); … }
   * }
   */
  static withFactory<F>(factoryClass: FactoryClass<F>): abstract new (options?: AppOptions<F>) => BaseApp<F> {
    abstract class WithFactory extends BaseApp<F> {
      static readonly [kFactoryClass] = factoryClass;
    }
    return WithFactory;
  }

  /** The factory (built from the factory class, or supplied prebuilt). */
  protected get factory(): TFactory {
    if (this.#factory === undefined)
      throw new WiringError(
        `${this.constructor.name}: no factory. Fix: extend BaseApp.withFactory(Factory) or pass { factory }.`,
      );
    return this.#factory;
  }

  /** Mounts routes and extensions; runs once at start. */
  protected abstract wire(): Promise<void>;

  /** Opens a sync resource; it closes at shutdown (after the async ones), in reverse order. */
  protected enter<T extends Closeable>(resource: T): T {
    return this.#stacks.sync.push(resource, `${this.constructor.name}.enter`);
  }

  /** Opens an async resource; it closes at shutdown, in reverse order. */
  protected async aenter<T extends Closeable>(resource: T | Promise<T>): Promise<T> {
    return this.#stacks.async.push(await resource, `${this.constructor.name}.aenter`);
  }

  #assertWiring(method: string): void {
    if (this.#state !== 'starting') {
      throw new WiringError(
        `${this.constructor.name}.${method}: called outside wire(). Fix: mount routes and extensions inside wire(); the app is ${this.#state}.`,
      );
    }
  }

  /** Mounts a `Resource`. */
  protected includeResource<TRoute extends ResourceOperations>(
    resource: TRoute,
    options?: MountOptions<TRoute>,
  ): void {
    this.#assertWiring('includeResource');
    this.#mount(resource, 'resource', (options ?? {}) as unknown as MountOptions & Record<string, unknown>);
  }

  /** Mounts an `Endpoint`. */
  protected includeEndpoint<TRoute extends EndpointOperations>(
    endpoint: TRoute,
    options?: MountOptions<TRoute>,
  ): void {
    this.#assertWiring('includeEndpoint');
    this.#mount(endpoint, 'endpoint', (options ?? {}) as unknown as MountOptions & Record<string, unknown>);
  }

  /** Installs an extension; returns what its `setup` returns. */
  protected include<T>(extension: Extension<T>): T {
    this.#assertWiring('include');
    const result = extension.setup(this.#wiringApi());
    if (result instanceof Promise) this.#includes.push(result);
    return result;
  }

  /** Registers app-wide middleware (runs before routing; covers every route). */
  protected includeMiddleware(middleware: Middleware): void {
    this.#assertWiring('includeMiddleware');
    checkMiddleware(`${this.constructor.name}.includeMiddleware`, middleware);
    this.#appMiddleware.push(middleware);
  }

  /** Registers a custom exception handler (one per exception class). */
  protected includeExceptionHandler<TError extends Error>(handler: ExceptionHandler<TError>): void {
    this.#assertWiring('includeExceptionHandler');
    const where = `${this.constructor.name}.includeExceptionHandler`;
    if (typeof handler?.exception !== 'function' || typeof handler.handleException !== 'function') {
      throw new WiringError(
        `${where}: a handler needs "exception" (a class) and "handleException". Fix: use defineExceptionHandler({ exception, handleException }).`,
      );
    }
    if (this.#handlers.has(handler.exception)) {
      throw new WiringError(
        `${where}: two handlers for ${handler.exception.name}. Fix: keep one; a base class and a subclass may each have their own.`,
      );
    }
    for (const entry of handler.returns ?? []) {
      const info = responseInfo(entry);
      const ok = info
        ? info.cls === ExceptionResponse
        : typeof entry === 'function' && 'status' in entry && 'type' in entry;
      if (!ok)
        throw new WiringError(
          `${where}: handler for ${handler.exception.name} declares a result that is neither ExceptionResponse.of(...) nor an HTTPError class. Fix: declare returns: [ExceptionResponse.of(Body), SomeHTTPError].`,
        );
    }
    this.#handlers.set(handler.exception, handler);
  }

  /** Replaces the Problem-family body app-wide; at most once. */
  protected includeErrorAdapter<TSchema extends v.GenericSchema>(adapter: ErrorBodyAdapter<TSchema>): void {
    this.#assertWiring('includeErrorAdapter');
    if (this.#adapter)
      throw new WiringError(
        `${this.constructor.name}.includeErrorAdapter: an error adapter is already registered. Fix: register one adapter per app.`,
      );
    this.#adapter = adapter;
  }

  /** The app's effective limits. */
  get limits(): Limits {
    return this.#limits;
  }

  /** The finished route catalogue (after `start()`). */
  get catalogue(): RouteCatalogue {
    if (!this.#catalogue)
      throw new Error(`${this.constructor.name}: the catalogue exists once start() has finished`);
    return this.#catalogue;
  }

  /** True once wiring finished and until shutdown begins. */
  get serving(): boolean {
    return this.#state === 'serving';
  }

  /**
   * Runs `wire()` once and compiles every route. A wiring failure unwinds what was entered and
   * rethrows the `WiringError`. Idempotent.
   */
  start(): Promise<void> {
    this.#starting ??= this.#start();
    return this.#starting;
  }

  async #start(): Promise<void> {
    this.#state = 'starting';
    try {
      await this.wire();
      while (this.#includes.length > 0) await Promise.all(this.#includes.splice(0));
      await this.#finish();
      this.#state = 'serving';
    } catch (error) {
      this.#state = 'failed';
      try {
        await this.#stacks.unwind();
      } catch (teardown) {
        this.#log.error(`${this.constructor.name}: teardown after a failed start also failed`, teardown);
      }
      throw error;
    }
  }

  /** Shuts down: runs shutdown hooks, then unwinds the exit stacks (async first, each in reverse). */
  close(): Promise<void> {
    this.#closing ??= this.#close();
    return this.#closing;
  }

  async #close(): Promise<void> {
    const wasStarted = this.#state === 'serving';
    this.#state = 'closing';
    if (this.#starting) await this.#starting.catch(() => undefined);
    let failure: { error: unknown } | undefined;
    if (wasStarted) {
      for (const hook of this.#shutdown) {
        try {
          await hook();
        } catch (error) {
          failure ??= { error };
        }
      }
    }
    try {
      await this.#stacks.unwind();
    } catch (error) {
      failure ??= { error };
    }
    this.#state = 'closed';
    if (failure) throw failure.error;
  }

  /** Starts draining: new responses carry `connection: close`; resolves when no request is in flight. */
  drain(): Promise<void> {
    if (!this.#runtime) return Promise.resolve();
    this.#runtime.draining = true;
    return this.#runtime.whenIdle();
  }

  /**
   * The node:http request listener: `http.createServer(app.listener)`. Starts the app on the
   * first request if nobody did.
   */
  readonly listener = (req: IncomingMessage, res: ServerResponse): void => {
    const runtime = this.#runtime;
    if (runtime) {
      runtime.handle(req, res);
      return;
    }
    this.start().then(
      () => this.#runtime!.handle(req, res),
      (error: unknown) => {
        this.#log.error(`${this.constructor.name} failed to start`, error);
        if (!res.headersSent) {
          res.writeHead(503, { 'content-type': 'application/problem+json', connection: 'close' });
          res.end('{"type":"service-unavailable","title":"Service unavailable","status":503}');
        }
      },
    );
  };

  /** The node:http `upgrade` listener (WebSocket routes added by extensions). */
  readonly upgradeListener = (req: IncomingMessage, socket: Duplex, head: Buffer): void => {
    if (!this.#runtime) {
      socket.destroy();
      return;
    }
    this.#runtime.upgrade(req, socket, head);
  };

  /** True when an extension added upgrade routes. */
  get hasUpgradeRoutes(): boolean {
    return this.#upgrades.length > 0;
  }

  // ---------------------------------------------------------------- wiring internals

  #wiringApi(): Wiring {
    if (this.#wiring) return this.#wiring;
    const appName = this.constructor.name;
    this.#wiring = {
      appName,
      limits: this.#limits,
      log: this.#log,
      enter: (resource) => this.#stacks.sync.push(resource, 'extension enter'),
      aenter: async (resource) => this.#stacks.async.push(await resource, 'extension aenter'),
      addRoute: (route) => {
        this.#assertWiring('include (addRoute)');
        parseTemplate(route.path);
        this.#pending.push({
          info: newRouteInfo({
            method: route.method.toUpperCase(),
            path: route.path,
            kind: 'custom',
            owner: route.owner,
            ownerClass: undefined,
            operation: route.operation,
            spec: undefined,
            classMeta: route.classMeta,
            ref: undefined,
            responses: route.responses ?? [],
            defaultStatus: 200,
            mountOptions: {},
            hidden: route.hidden ?? false,
          }),
          operation: undefined,
          custom: route,
          slots: parseTemplate(route.path).slots,
          limits: this.#limits,
          mountMiddleware: [],
        });
      },
      addUpgradeRoute: (route) => {
        parseTemplate(route.path);
        this.#upgrades.push(route);
      },
      addContributor: (contributor) => this.#contributors.push(contributor),
      addIntercept: (intercept) => this.#intercepts.push(intercept),
      onWired: (callback) => this.#wired.push(callback),
      onShutdown: (callback) => this.#shutdown.push(callback),
      fail: (where, problem, fix) => {
        throw new WiringError(`${where}: ${problem}. Fix: ${fix}.`);
      },
      compileMiddleware: (where, middleware, order) => compileMiddlewareList(where, middleware, order),
      headerBinder: (schema, where, onError) => {
        void where;
        return headersBinder(
          schema,
          onError ? (issues) => onError(toErrorReason('header', issues).reason) : undefined,
        ) as (req: IncomingMessage) => v.InferOutput<typeof schema>;
      },
      cookieBinder: (schema, where, onError) => {
        void where;
        return cookiesBinder(
          schema,
          onError ? (issues) => onError(toErrorReason('cookie', issues).reason) : undefined,
        ) as (req: IncomingMessage) => v.InferOutput<typeof schema>;
      },
    };
    return this.#wiring;
  }

  #mount(
    instance: object,
    kind: 'resource' | 'endpoint',
    options: MountOptions & Record<string, unknown>,
  ): void {
    const cls = instance.constructor as abstract new (...args: never[]) => object;
    const info = routeClassInfo(instance);
    const method = kind === 'resource' ? 'includeResource' : 'includeEndpoint';
    if (!info || info.kind !== kind) {
      throw new WiringError(
        `${this.constructor.name}.${method}: ${cls.name} is not ${kind === 'resource' ? 'a Resource' : 'an Endpoint'}. Fix: declare it with \`class ${cls.name} extends ${kind === 'resource' ? 'Resource' : 'Endpoint'}('/path') {}\` and use ${kind === 'resource' ? 'includeEndpoint for Endpoints' : 'includeResource for Resources'}.`,
      );
    }
    for (const key of Object.keys(options)) {
      const value = options[key];
      if (value === undefined || CORE_MOUNT_OPTIONS.has(key)) continue;
      if (!isMountOptionValue(value)) {
        throw new WiringError(
          `${this.constructor.name}.${method}(${cls.name}): mount option "${key}" is not a value core can compile. Fix: build it with the package that provides "${key}" (for example auth from @api/auth, cors from @api/cors).`,
        );
      }
    }
    const mountMiddleware = options.middleware ?? [];
    mountMiddleware.forEach((mw) => checkMiddleware(`${cls.name} mount middleware`, mw));
    const limits = mergeLimits(`${cls.name} mount limits`, this.#limits, options.limits);
    const { slots } = parseTemplate(info.path);
    const table = kind === 'resource' ? RESOURCE_OPERATIONS : ENDPOINT_OPERATIONS;
    let count = 0;
    for (const [name, op] of Object.entries(table) as [
      string,
      { method: string; item: boolean; status: number },
    ][]) {
      const operation = (instance as Record<string, unknown>)[name];
      if (operation === undefined) continue;
      const where = `${cls.name}.${name}`;
      if (!isOperation(operation))
        throw new WiringError(
          `${where}: is not an operation. Fix: declare it as \`${name} = this.operation({ … }, handler)\`.`,
        );
      count++;
      const spec = operation.spec;
      for (const key of Object.keys(spec)) {
        if (!SPEC_KEYS.has(key))
          throw new WiringError(
            `${where}: unknown operation key "${key}". Fix: use path, params, headers, cookies, json, content, rawHeaders, form, user, returns or meta.`,
          );
      }
      const bodies = ['json', 'content', 'form'].filter(
        (k) => (spec as Record<string, unknown>)[k] !== undefined,
      );
      if (bodies.length > 1)
        throw new WiringError(
          `${where}: declares ${bodies.join(' and ')}; a request has one body. Fix: declare only one of json, content, form.`,
        );
      let path = info.path;
      const pathFields = spec.path ? Object.keys(objectEntries(spec.path) ?? {}) : [];
      for (const slot of slots) {
        if (spec.path && !pathFields.includes(slot))
          throw new WiringError(
            `${where}: mount path "${info.path}" has slot "{${slot}}" but the path schema has no field "${slot}". Fix: add "${slot}" to the path Struct.`,
          );
      }
      const extra = pathFields.filter((f) => !slots.includes(f));
      if (op.item) {
        if (extra.length === 0)
          throw new WiringError(
            `${where}: an item operation needs a path field beyond the mount's slots (e.g. "{widget_id}"). Fix: declare path: Struct('…', { ${slots.map((s) => `${s}: …, `).join('')}item_id: v.string() }).`,
          );
        for (const field of extra) {
          if (!/^[a-z_][a-z0-9_]*$/.test(field))
            throw new WiringError(
              `${where}: path field "${field}" is not snake_case. Fix: name path fields like widget_id.`,
            );
        }
        path += extra.map((f) => `/{${f}}`).join('');
      } else if (extra.length > 0) {
        const what = kind === 'endpoint' ? 'an Endpoint path is exact' : `${name} is on the exact mount path`;
        throw new WiringError(
          `${where}: path fields ${extra.map((f) => `"${f}"`).join(', ')} are not slots of "${info.path}" (${what}). Fix: remove them, or move the operation to an item operation / a path with those slots.`,
        );
      }
      const allSlots = [...slots, ...extra];
      if (spec.path) pathBinder(spec.path, allSlots, where); // validates defaults/optionals now
      const responses = normalizeReturns(where, spec);
      this.#pending.push({
        info: newRouteInfo({
          method: op.method,
          path,
          kind: 'operation',
          owner: cls.name,
          ownerClass: cls,
          operation: name,
          spec,
          classMeta: info.meta,
          ref: info.ref,
          responses,
          defaultStatus: op.status,
          mountOptions: options,
          hidden: false,
        }),
        operation,
        custom: undefined,
        slots: allSlots,
        limits,
        mountMiddleware,
      });
    }
    if (count === 0) {
      const names = Object.keys(table).join(', ');
      throw new WiringError(
        `${this.constructor.name}.${method}(${cls.name}): declares no operation. Fix: add one of ${names} as \`= this.operation({ … }, handler)\`.`,
      );
    }
  }

  async #finish(): Promise<void> {
    const appName = this.constructor.name;
    const adapter: CompiledAdapter | undefined = this.#adapter
      ? compileAdapter(this.#adapter, (m, e) => this.#log.error(m, e))
      : undefined;
    const routes = this.#pending.map((p) => p.info);
    const catalogue: RouteCatalogue = {
      routes,
      find: (owner, operation) => routes.find((r) => r.ownerClass === owner && r.operation === operation),
    };
    const resolver = new CatalogueResolver(routes, baseFromEnv(this.#options.env ?? process.env, appName));
    const appMiddleware = compileMiddlewareList(
      `${appName}.includeMiddleware`,
      this.#appMiddleware.filter((m) => m.responseHeaders !== undefined || m.observe !== undefined),
      20,
    );
    const wiring = this.#wiringApi();
    const router = new Router<CompiledRoute>();

    for (const pending of this.#pending) {
      const info = pending.info;
      const where = `${info.owner}.${info.operation}`;
      const contributions: RouteContribution[] = [];
      for (const [key, value] of Object.entries(info.mountOptions)) {
        if (value === undefined || CORE_MOUNT_OPTIONS.has(key)) continue;
        const c = (value as MountOptionValue)[mountOption]({ route: info, wiring });
        if (c) contributions.push(c);
      }
      if (pending.mountMiddleware.length > 0) {
        const c = compileMiddlewareList(`${where} middleware`, pending.mountMiddleware, 30);
        if (c) contributions.push(c);
      }
      if (appMiddleware) contributions.push(appMiddleware);
      for (const contributor of this.#contributors) {
        const c = contributor(info);
        if (c) contributions.push(c);
      }
      const compiled = compileRoute(pending, contributions, resolver, where);
      router.add(
        info.method,
        info.path,
        compiled,
        (existing) => `${existing.info.owner}.${existing.info.operation}`,
      );
    }

    const fallbackInfo = newRouteInfo({
      method: '*',
      path: '*',
      kind: 'custom',
      owner: appName,
      ownerClass: undefined,
      operation: 'fallback',
      spec: undefined,
      classMeta: undefined,
      ref: undefined,
      responses: [],
      defaultStatus: 404,
      mountOptions: {},
      hidden: true,
    });
    const fallbackContributions: RouteContribution[] = [];
    if (appMiddleware) fallbackContributions.push(appMiddleware);
    for (const contributor of this.#contributors) {
      const c = contributor(fallbackInfo);
      if (c) fallbackContributions.push(c);
    }
    const fallback = compileRoute(
      {
        info: fallbackInfo,
        operation: undefined,
        custom: { method: '*', path: '*', owner: appName, operation: 'fallback', handle: () => undefined },
        slots: [],
        limits: this.#limits,
        mountMiddleware: [],
      },
      fallbackContributions,
      resolver,
      `${appName} (unrouted requests)`,
    );

    const intercepts: { methods: ReadonlySet<string> | undefined; intercept: (ex: Exchange) => unknown }[] =
      [];
    for (const mw of this.#appMiddleware) {
      if (!mw.intercept) continue;
      const hook = middlewareHook(mw);
      intercepts.push({
        methods: mw.interceptMethods ? new Set(mw.interceptMethods.map((m) => m.toUpperCase())) : undefined,
        intercept: (ex) => mw.intercept!(hook(ex)),
      });
    }
    for (const i of this.#intercepts)
      intercepts.push({
        methods: i.methods ? new Set(i.methods) : undefined,
        intercept: (ex) => i.intercept(ex),
      });

    const handlerWriters = new Map<
      ExceptionHandler,
      (value: ExceptionResponse<unknown, unknown>, ex: Exchange) => void
    >();
    for (const handler of this.#handlers.values()) {
      const declared = (handler.returns ?? []).map(responseInfo).find((i) => i !== undefined);
      if (declared) handlerWriters.set(handler, exceptionResponseWriter(declared));
    }

    const upgrades = new Router<UpgradeRoute>();
    for (const up of this.#upgrades) upgrades.add('GET', up.path, up, (existing) => existing.owner);

    this.#runtime = new Runtime(
      router,
      fallback,
      intercepts,
      this.#handlers,
      handlerWriters,
      adapter,
      resolver,
      this.#limits,
      this.#log,
      upgrades,
      this.#upgrades.length > 0,
    );
    this.#catalogue = catalogue;
    for (const callback of this.#wired) await callback(catalogue);
  }
}

function newRouteInfo(fields: Omit<RouteInfo, 'facts'>): MutableRouteInfo {
  return { ...fields, facts: new Map<string, unknown>() };
}

function isMountOptionValue(value: unknown): value is MountOptionValue {
  return (
    typeof value === 'object' &&
    value !== null &&
    typeof (value as Partial<MountOptionValue>)[mountOption] === 'function'
  );
}

function normalizeReturns(where: string, spec: OperationSpec): ResponseKindInfo[] {
  if (spec.returns === undefined)
    return [
      {
        kind: 'empty',
        cls: undefined,
        schema: undefined,
        headers: undefined,
        status: 204,
        contentType: undefined,
      },
    ];
  const list = (Array.isArray(spec.returns) ? spec.returns : [spec.returns]) as unknown[];
  const out: ResponseKindInfo[] = [];
  for (const entry of list) {
    const info = responseInfo(entry);
    if (info) out.push(info);
    else if (entry && typeof entry === 'object' && 'kind' in entry && entry.kind === 'schema') {
      out.push(responseInfo(plainJson(entry as v.GenericSchema))!);
    } else {
      throw new WiringError(
        `${where}: a returns entry is neither a schema nor a response declaration. Fix: use a valibot schema, JSONResponse.of(schema), Created.of(schema), NoContent.of(), BytesResponse.of(), Text or Bytes.`,
      );
    }
  }
  const plain = out.filter((i) => i.cls === undefined && i.compile === undefined);
  if (plain.length > 1)
    throw new WiringError(
      `${where}: returns lists ${plain.length} plain members; a union can hold one plain value and any number of wrappers. Fix: wrap the others (JSONResponse.of, NoContent.of, …) or combine the schemas with v.union.`,
    );
  const classes = out.filter((i) => i.cls !== undefined).map((i) => i.cls);
  if (new Set(classes).size !== classes.length)
    throw new WiringError(
      `${where}: returns lists the same wrapper class twice. Fix: declare each wrapper once; combine bodies with v.union.`,
    );
  return out;
}

function checkMiddleware(where: string, mw: Middleware): void {
  if (typeof mw !== 'object' || mw === null)
    throw new WiringError(
      `${where}: middleware must be an object. Fix: pass { responseHeaders?, intercept?, observe? }.`,
    );
  const hasHook =
    mw.responseHeaders !== undefined ||
    typeof mw.intercept === 'function' ||
    typeof mw.observe === 'function';
  if (!hasHook)
    throw new WiringError(
      `${where}: the middleware object has none of responseHeaders, intercept, observe. Fix: add at least one hook.`,
    );
  if (mw.interceptMethods !== undefined && typeof mw.intercept !== 'function')
    throw new WiringError(
      `${where}: interceptMethods without intercept. Fix: add an intercept method or drop interceptMethods.`,
    );
  if (
    mw.responseHeaders !== undefined &&
    typeof mw.responseHeaders !== 'function' &&
    typeof mw.responseHeaders !== 'object'
  )
    throw new WiringError(
      `${where}: responseHeaders must be an object of constant headers or a method. Fix: return a Record<string, string>.`,
    );
}

interface Hook {
  /** The hook's request view; throws 400 when a required hook header is missing (cached per request). */
  (ex: Exchange): Request<unknown>;
  /** True when the view binds headers (and so can fail). */
  readonly binds: boolean;
}

/** Builds the `Request<H>` a hook receives (headers bound from the hook's own schema, once per request). */
function middlewareHook(mw: Middleware): Hook {
  const bind = mw.headers
    ? headersBinder(mw.headers, (issues) => new MalformedRequestError(toErrorReason('header', issues)))
    : undefined;
  const key = Symbol('middleware request');
  const hook = (ex: Exchange): Request<unknown> => {
    if (!bind) return { headers: {}, method: ex.method, path: ex.path, receivedAt: ex.receivedAt };
    const cached = ex.state[key] as Request<unknown> | undefined;
    if (cached) return cached;
    const request = { headers: bind(ex.req), method: ex.method, path: ex.path, receivedAt: ex.receivedAt };
    ex.state[key] = request;
    return request;
  };
  return Object.assign(hook, { binds: bind !== undefined });
}

/** Like the hook, but undefined instead of throwing (for headers and observers after the fact). */
function softly(hook: Hook, ex: Exchange): Request<unknown> | undefined {
  try {
    return hook(ex);
  } catch {
    return undefined;
  }
}

/** Compiles a list of middleware into one contribution at an order position. */
export function compileMiddlewareList(
  where: string,
  list: readonly Middleware[],
  order: number,
): RouteContribution | undefined {
  if (list.length === 0) return undefined;
  const headers: [string, string][] = [];
  const dynamic: ((ex: Exchange, status: number) => [string, string][] | undefined)[] = [];
  const intercepts: ((ex: Exchange) => unknown)[] = [];
  const observers: ((ex: Exchange, status: number, ms: number) => void)[] = [];
  const early: Hook[] = [];
  for (const mw of list) {
    checkMiddleware(where, mw);
    const hook = middlewareHook(mw);
    const rh = mw.responseHeaders;
    // A hook that reads headers binds them before the handler runs: a missing required header is a 400.
    if (hook.binds && (typeof rh === 'function' || mw.observe)) early.push(hook);
    if (typeof rh === 'function') {
      dynamic.push((ex, status) => {
        const request = softly(hook, ex);
        const out = request ? rh(request, status) : undefined;
        return out ? Object.entries(out).map(([k, val]) => [k.toLowerCase(), val]) : undefined;
      });
    } else if (rh) {
      for (const [k, val] of Object.entries(rh)) headers.push([k.toLowerCase(), val]);
    }
    if (mw.intercept) {
      const methods = mw.interceptMethods
        ? new Set(mw.interceptMethods.map((m) => m.toUpperCase()))
        : undefined;
      intercepts.push((ex) => (methods && !methods.has(ex.method) ? undefined : mw.intercept!(hook(ex))));
    }
    if (mw.observe) {
      observers.push((ex, status, ms) => {
        const request = softly(hook, ex);
        if (request) mw.observe!(request, status, ms);
      });
    }
  }
  const contribution: { -readonly [K in keyof RouteContribution]: RouteContribution[K] } = { order };
  if (headers.length) contribution.headers = headers;
  if (dynamic.length)
    contribution.dynamicHeaders = (ex, status) => dynamic.flatMap((d) => d(ex, status) ?? []);
  if (intercepts.length) {
    contribution.intercept = async (ex) => {
      for (const i of intercepts) {
        const answer = await i(ex);
        if (answer !== undefined) return answer;
      }
      return undefined;
    };
  }
  if (observers.length)
    contribution.observe = (ex, status, ms) => observers.forEach((o) => o(ex, status, ms));
  if (early.length) contribution.before = (ex) => void early.forEach((hook) => hook(ex));
  return contribution;
}

function compileRoute(
  pending: PendingRoute,
  contributions: RouteContribution[],
  resolver: CatalogueResolver,
  where: string,
): CompiledRoute {
  const info = pending.info;
  contributions.sort((a, b) => (a.order ?? 50) - (b.order ?? 50));
  const tail: string[] = [];
  const constantNames = new Map<string, number>();
  for (const [i, c] of contributions.entries()) {
    for (const [name, value] of c.headers ?? []) {
      const lower = name.toLowerCase();
      const prior = constantNames.get(lower);
      if (prior !== undefined) {
        throw new WiringError(
          `${where}: two contributions set the constant response header "${lower}" (CORS, app-wide or scoped middleware). Fix: set "${lower}" in one place only.`,
        );
      }
      constantNames.set(lower, i);
      tail.push(lower, value);
    }
    for (const [k, value] of Object.entries(c.facts ?? {})) info.facts.set(k, value);
  }
  const dynamic = contributions.flatMap((c) => (c.dynamicHeaders ? [c.dynamicHeaders] : []));
  const observers = contributions.flatMap((c) => (c.observe ? [c.observe] : []));
  const intercepts = contributions.flatMap((c) => (c.intercept ? [c.intercept] : []));
  const before = contributions.flatMap((c) => (c.before ? [c.before] : []));
  const options = contributions.flatMap((c) => (c.options ? [c.options] : []));
  const timed = observers.length > 0 || dynamic.length > 0 || intercepts.length > 0;

  const provided = new Map<string, (ex: Exchange) => unknown>();
  for (const c of contributions) {
    for (const [key, resolve] of Object.entries(c.sources ?? {})) {
      if (provided.has(key))
        throw new WiringError(
          `${where}: two mount options provide the "${key}" source. Fix: keep one of them.`,
        );
      provided.set(key, resolve);
    }
  }

  if (pending.custom) {
    return new CompiledRoute(
      info,
      tail,
      dynamic.length ? dynamic : undefined,
      observers.length ? observers : undefined,
      undefined,
      undefined,
      [],
      [],
      true,
      undefined,
      undefined,
      (ex) => pending.custom!.handle(ex),
      options.length ? options : undefined,
      timed,
    );
  }

  const spec = pending.operation!.spec;
  const keys: string[] = [];
  const binders: (Binder | ((ex: Exchange) => unknown))[] = [];
  let sync = true;
  // Extension-provided sources (e.g. user) first: auth answers 401 before path/404 and body reads.
  for (const key of Object.keys(spec)) {
    if (CORE_SOURCES.has(key) || key === 'returns' || key === 'meta') continue;
    const resolve = provided.get(key);
    if (!resolve) {
      throw new WiringError(
        `${where}: declares the "${key}" source, but nothing mounted with it provides "${key}". Fix: mount ${info.owner} with the option that provides it (for "user": auth from @api/auth), or remove "${key}".`,
      );
    }
    keys.push(key);
    binders.push(resolve);
    sync = false;
  }
  for (const [key, resolve] of provided) {
    if (!(key in spec)) {
      // Still run it (a gating authenticator on a handler that does not read `user`), as a step
      // before binding, so the handler's argument holds exactly the declared sources.
      before.push(async (ex) => {
        await resolve(ex);
      });
    }
  }
  const limits = pending.limits;
  const order: [keyof OperationSpec, () => Binder][] = [
    ['path', () => pathBinder(spec.path!, pending.slots, where)],
    [
      'headers',
      () => {
        const b = headersBinder(spec.headers!);
        return (ex) => b(ex.req);
      },
    ],
    [
      'cookies',
      () => {
        const b = cookiesBinder(spec.cookies!);
        return (ex) => b(ex.req);
      },
    ],
    ['params', () => queryBinder(spec.params!)],
    ['rawHeaders', () => rawHeadersBinder],
    ['json', () => jsonBinder(spec.json!, limits)],
    ['content', () => contentBinder(limits)],
    ['form', () => formBinder(spec.form!, limits, where)],
  ];
  for (const [key, make] of order) {
    if (spec[key] === undefined) continue;
    keys.push(key);
    binders.push(make());
    if (key === 'json' || key === 'content' || key === 'form') sync = false;
  }

  const ctx = {
    defaultStatus: info.defaultStatus,
    resolver,
    where,
    method: info.method,
    path: info.path,
    fail: (problem: string, fix: string): never => {
      throw new WiringError(`${where}: ${problem}. Fix: ${fix}.`);
    },
  };
  const writers = info.responses.map((r) => [r, compileWriter(r, ctx)] as const);
  let write: Writer;
  if (writers.length === 1) write = writers[0]![1];
  else {
    const byClass = writers.filter(([r]) => r.cls !== undefined);
    const plain = writers.find(([r]) => r.cls === undefined);
    write = (value, ex) => {
      for (const [r, w] of byClass) if (value instanceof r.cls!) return w(value, ex);
      if (plain) return plain[1](value, ex);
      throw new TypeError(`${where} returned a value that matches none of its declared responses`);
    };
  }

  const handler = pending.operation!.handler as (input: Record<string, unknown>) => unknown;
  const fast = sync && intercepts.length === 0 && before.length === 0;
  return new CompiledRoute(
    info,
    tail,
    dynamic.length ? dynamic : undefined,
    observers.length ? observers : undefined,
    intercepts.length ? intercepts : undefined,
    before.length ? before : undefined,
    keys,
    binders,
    fast,
    handler,
    write,
    undefined,
    options.length ? options : undefined,
    timed,
  );
}
