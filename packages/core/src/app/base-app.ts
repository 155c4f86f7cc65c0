import type { IncomingMessage, ServerResponse } from 'node:http';
import type { Duplex } from 'node:stream';
import type { ErrorBodyAdapter } from '../errors';
import type { AnySchema } from '../contract/standard-schema';
import { wiringError } from '../contract/wiring-error';
import type { Extension } from '../wiring/define-extension';
import type { Logger } from '../logging/logger';
import type { RouteCatalogue } from '../wiring/route-catalogue';
import { dispatchEntry, fetchEntry } from '../transport/fetch/fetch-handler';
import { invokeEntry } from '../transport/direct/invoke';
import { createAppHost, type AppHost } from '../transport/host';
import { nodeListener, nodeUpgradeListener } from '../transport/node/handle';
import { closeAfterResponse } from '../transport/node/linger';
import { adaptLogger } from '../logging/logger';
import { ExitStacks, type Closeable, type FactoryClass } from '../lifecycle/exit-stack';
import { runShutdown, type ShutdownOptions } from '../lifecycle/shutdown';
import type { Middleware } from '../middleware/middleware';
import type { MountKindCheck } from '../route-class/mount-kind';
import { AppWiring } from '../wiring/app-wiring';
import { mountRouteClass } from '../wiring/mount';
import { finishWiring } from '../wiring/build';
import { checkCloseable, wiringApi } from '../wiring/wiring-api';
import {
  checkAppOptions,
  checkStartOptions,
  includeFailure,
  isThenable,
  transportMismatch,
} from './app-checks';
import type { ExceptionHandler } from '../responses/exception-handler';
import { defaultLimits, mergeLimits, type Limits } from '../contract/limits';
import type { OmittedOptionsCheck } from './mount-requirements';
import type { AppOptions, MountArg, StartOptions } from './app-options';

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
  readonly #limits: Limits;
  readonly #log: Logger;
  readonly #wiring: AppWiring;
  /** The app as its transports see it (its runtime once started): what `listener` and `fetch` read. */
  readonly #host: AppHost = createAppHost(this, {
    start: (options) => this.start(options),
    starting: () => this.#starting !== undefined,
    log: () => this.#log,
    health: () => this.#wiring.health,
  });
  #factory: TFactory | undefined;
  #state: AppState = 'new';
  #starting: Promise<void> | undefined;
  #closing: Promise<void> | undefined;
  #catalogue: RouteCatalogue | undefined;
  /** Async extension setups still running; each settles (never rejects): failures are recorded. */
  readonly #includes: Promise<void>[] = [];
  readonly #includeFailures: { readonly where: string; readonly error: unknown }[] = [];

  constructor(options: AppOptions<TFactory> = {}) {
    const serving = checkAppOptions(this.constructor.name, options);
    this.#log = adaptLogger(options.logger);
    this.#limits = mergeLimits(`new ${this.constructor.name}({ limits })`, defaultLimits, options.limits);
    this.#wiring = new AppWiring({
      appName: this.constructor.name,
      limits: this.#limits,
      log: this.#log,
      requestLog: options.requestLog === true,
      env: options.env ?? process.env,
      ...serving,
      stacks: this.#stacks,
      assertWiring: (method) => this.#assertWiring(method),
      dispatch: dispatchEntry(this.#host),
      invoke: invokeEntry(this.#host),
    });
    const factoryClass = (this.constructor as { [kFactoryClass]?: FactoryClass<TFactory> })[kFactoryClass];
    if (options.factory !== undefined) this.#factory = options.factory;
    else if (factoryClass) this.#factory = new factoryClass(this.#stacks);
  }

  /**
   * The base class for an app with a service factory: the app builds `Factory` with its exit
   * stack (or takes `{ factory }` prebuilt, for tests) and exposes it as `this.factory`.
   *
   * @example
   * class DemoApp extends BaseApp.withFactory(Factory) {
   *   protected override async wire() { const store = this.factory.createStore(); … }
   * }
   */
  static withFactory<F>(factoryClass: FactoryClass<F>): abstract new (options?: AppOptions<F>) => BaseApp<F> {
    if (typeof factoryClass !== 'function')
      throw wiringError(
        'API_WIRING_INVALID_ARGUMENT',
        'BaseApp.withFactory',
        `expected a factory class, got ${typeof factoryClass}`,
        'pass a class that extends BaseFactory',
      );
    abstract class WithFactory extends BaseApp<F> {
      static readonly [kFactoryClass] = factoryClass;
    }
    return WithFactory;
  }

  /** The factory (built from the factory class, or supplied prebuilt). */
  protected get factory(): TFactory {
    if (this.#factory === undefined)
      throw wiringError(
        'API_WIRING_NO_FACTORY',
        this.constructor.name,
        'no factory',
        'extend BaseApp.withFactory(Factory) or pass { factory }',
      );
    return this.#factory;
  }

  /** Mounts routes and extensions; runs once at start. */
  protected abstract wire(): Promise<void>;

  /** Opens a sync resource; it closes at shutdown, in exact reverse order of opening. */
  protected enter<T extends Closeable>(resource: T): T {
    checkCloseable(`${this.constructor.name}.enter`, resource);
    return this.#stacks.sync.push(resource, `${this.constructor.name}.enter`);
  }

  /** Opens an async resource; it closes at shutdown, in exact reverse order of opening. */
  protected async aenter<T extends Closeable>(resource: T | Promise<T>): Promise<T> {
    const opened = await resource;
    checkCloseable(`${this.constructor.name}.aenter`, opened);
    return this.#stacks.async.push(opened, `${this.constructor.name}.aenter`);
  }

  #assertWiring(method: string): void {
    if (this.#state !== 'starting') {
      throw wiringError(
        'API_WIRING_APP_STATE',
        `${this.constructor.name}.${method}`,
        'called outside wire()',
        `mount routes and extensions inside wire(); the app is ${this.#state}`,
      );
    }
  }

  /**
   * Mounts a `Resource`. `options` (`middleware`, `limits`, and what packages add: `auth`, `cors`,
   * ...) is required when the route needs some (e.g. `auth` when an operation declares `user`).
   */
  protected includeResource<TRoute extends object>(
    // eslint-disable-next-line @typescript-eslint/no-redundant-type-constituents -- `unknown` unless one is missing
    resource: TRoute & MountKindCheck<TRoute, 'resource'> & OmittedOptionsCheck<TRoute>,
  ): void;
  protected includeResource<TRoute extends object>(
    resource: TRoute & MountKindCheck<TRoute, 'resource'>,
    options: MountArg<TRoute>,
  ): void;
  protected includeResource(resource: object, options?: object): void {
    this.#assertWiring('includeResource');
    this.#mount(resource, 'resource', options);
  }

  /**
   * Mounts an `Endpoint`. `options` (`middleware`, `limits`, and what packages add: `auth`, `cors`,
   * ...) is required when the route needs some (e.g. `auth` when an operation declares `user`).
   */
  protected includeEndpoint<TRoute extends object>(
    // eslint-disable-next-line @typescript-eslint/no-redundant-type-constituents -- `unknown` unless one is missing
    endpoint: TRoute & MountKindCheck<TRoute, 'endpoint'> & OmittedOptionsCheck<TRoute>,
  ): void;
  protected includeEndpoint<TRoute extends object>(
    endpoint: TRoute & MountKindCheck<TRoute, 'endpoint'>,
    options: MountArg<TRoute>,
  ): void;
  protected includeEndpoint(endpoint: object, options?: object): void {
    this.#assertWiring('includeEndpoint');
    this.#mount(endpoint, 'endpoint', options);
  }

  #mount(instance: object, kind: 'resource' | 'endpoint', options: object | undefined): void {
    const appName = this.constructor.name;
    this.#wiring.addRecords(mountRouteClass({ appName, appLimits: this.#limits, instance, kind, options }));
  }

  /** Installs an extension; returns what its `setup` returns. */
  protected include<T>(extension: Extension<T>): T {
    this.#assertWiring('include');
    if (typeof extension?.setup !== 'function')
      throw wiringError(
        'API_WIRING_INVALID_ARGUMENT',
        `${this.constructor.name}.include`,
        'expected an extension ({ name, setup(wiring) })',
        "pass what the package's factory returns, e.g. include(cors(policy))",
      );
    const result = extension.setup(wiringApi(this.#wiring));
    if (isThenable(result)) {
      // A rejection handler is attached at once: a failing async setup is a startup failure
      // (surfaced once by start()), never an unhandled rejection, whether wire() awaits it or not.
      const name = typeof extension.name === 'string' ? extension.name : 'extension';
      const where = `${this.constructor.name}.include(${name})`;
      this.#includes.push(
        Promise.resolve(result).then(
          () => undefined,
          (error: unknown) => {
            this.#includeFailures.push({ where, error });
          },
        ),
      );
    }
    return result;
  }

  /** Waits for every async extension setup started so far (and those they start). */
  async #settleIncludes(): Promise<void> {
    while (this.#includes.length > 0) await Promise.all(this.#includes.splice(0));
  }

  /** Registers app-wide middleware (runs before routing; covers every route). */
  protected includeMiddleware(middleware: Middleware): void {
    this.#assertWiring('includeMiddleware');
    this.#wiring.addMiddleware(`${this.constructor.name}.includeMiddleware`, middleware);
  }

  /** Registers a custom exception handler (one per exception class). */
  protected includeExceptionHandler<TError extends Error>(handler: ExceptionHandler<TError>): void {
    this.#assertWiring('includeExceptionHandler');
    this.#wiring.addExceptionHandler(`${this.constructor.name}.includeExceptionHandler`, handler);
  }

  /** Replaces the Problem-family body app-wide; at most once. */
  protected includeErrorAdapter<TSchema extends AnySchema>(adapter: ErrorBodyAdapter<TSchema>): void {
    this.#assertWiring('includeErrorAdapter');
    this.#wiring.setAdapter(`${this.constructor.name}.includeErrorAdapter`, adapter);
  }

  /**
   * The app's logger: what `logger` was (a pino logger behind core's call shape), or the console.
   * `serve()` writes its lines here.
   */
  get logger(): Logger {
    return this.#log;
  }

  /** The app's effective limits. */
  get limits(): Limits {
    return this.#limits;
  }

  /**
   * Whether answers carry `x-request-id` (`ids`) and each request is logged (`log`): `serve()`
   * answers a request node:http refuses before the app sees it (a 431 head) the same way.
   */
  get requestTracing(): { readonly ids: boolean; readonly log: boolean } {
    const log = this.#wiring.requestLog;
    return { ids: this.#host.runtime?.requestIds ?? log, log };
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
   * rethrows the `WiringError`. Idempotent. `transport` (default `'node'`) is what extensions read
   * as `wiring.transport`: `'fetch'` for a fetch-only runtime (workerd), where a package that
   * needs Node fails wiring; `app.fetch` starts an unstarted app that way. Asking an app started
   * for one transport to start for the other rejects with a `WiringError`.
   */
  start(options: StartOptions = {}): Promise<void> {
    const transport = checkStartOptions(this.constructor.name, options);
    if (this.#starting === undefined) {
      this.#wiring.transport = transport ?? 'node';
      this.#starting = this.#start();
    } else if (transport !== undefined && transport !== this.#wiring.transport)
      return Promise.reject(transportMismatch(this.constructor.name, this.#wiring.transport, transport));
    return this.#starting;
  }

  async #start(): Promise<void> {
    this.#state = 'starting';
    try {
      await this.wire();
      await this.#settleIncludes();
      const failed = this.#includeFailures.shift();
      if (failed) throw includeFailure(failed.where, failed.error);
      const limits = this.#limits;
      const { runtime, catalogue } = await finishWiring(this.#wiring, {
        closeAfterResponse: (socket, bodyArriving) => closeAfterResponse(socket, limits, bodyArriving),
      });
      this.#host.runtime = runtime;
      this.#catalogue = catalogue;
      this.#state = 'serving';
    } catch (error) {
      this.#state = 'failed';
      // Setups still running finish before the exit stack unwinds what they may have opened.
      await this.#settleIncludes();
      for (const other of this.#includeFailures.splice(0))
        if (other.error !== error) this.#log.error(`${other.where}: async setup also failed`, other.error);
      try {
        await this.#stacks.unwind();
      } catch (teardown) {
        this.#log.error(`${this.constructor.name}: teardown after a failed start also failed`, teardown);
      }
      throw error;
    }
  }

  /**
   * Shuts down in phases: the exchanges' `shutdownSignal` aborts and before-close hooks run (streams
   * end, sockets get 1001) → in-flight requests
   * and upgraded sockets finish, bounded by `limits.shutdownTimeoutMs` → drain hooks (task queues)
   * → the exit stack unwinds in exact reverse order of opening. `serve()` calls this after the
   * server stopped accepting. Idempotent.
   */
  close(options: ShutdownOptions = {}): Promise<void> {
    this.#closing ??= this.#close(options);
    return this.#closing;
  }

  async #close(options: ShutdownOptions): Promise<void> {
    const wasStarted = this.#state === 'serving';
    this.#state = 'closing';
    if (this.#starting) await this.#starting.catch(() => undefined);
    try {
      await runShutdown({
        appName: this.constructor.name,
        runtime: wasStarted ? this.#host.runtime : undefined,
        beforeClose: wasStarted ? this.#wiring.beforeClose : [],
        drain: wasStarted ? this.#wiring.drain : [],
        stacks: this.#stacks,
        capMs: this.#limits.shutdownTimeoutMs,
        log: this.#log,
        options,
      });
    } finally {
      this.#state = 'closed';
    }
  }

  /**
   * Starts draining: new responses carry `connection: close` and the exchanges' `shutdownSignal`
   * aborts (streams end); resolves when no request is in flight.
   */
  drain(): Promise<void> {
    const runtime = this.#host.runtime;
    if (!runtime) return Promise.resolve();
    runtime.beginShutdown();
    return runtime.whenIdle();
  }

  /** Readiness probes answer 503 from now on while the app still serves (`serve()` calls it on SIGTERM). */
  markUnready(): void {
    this.#host.runtime?.markUnready();
  }

  /** True when the app answers liveness and readiness probes (its `health` option). */
  get answersProbes(): boolean {
    return this.#wiring.health !== undefined;
  }

  /** `http.createServer(app.listener)`: starts the app on a first request (a probe meanwhile: live, not ready). */
  readonly listener: (req: IncomingMessage, res: ServerResponse) => void = nodeListener(this.#host);

  /**
   * Answers a WHATWG `Request` with a `Response` through the same routes, plans and error funnel
   * as `serve()` — for fetch-only runtimes: `export default { fetch: app.fetch }` on workerd,
   * `Deno.serve(app.fetch)`, `Bun.serve({ fetch: app.fetch })`. Bound: pass it as it is. An app
   * nobody started is started for the fetch transport on the first call (`start({ transport:
   * 'fetch' })`); one already started (e.g. by `serve()`) answers as it is. On node:http prefer
   * `serve()`: it is the fast path.
   */
  readonly fetch: (request: Request) => Response | Promise<Response> = fetchEntry(this.#host);

  /** The node:http `upgrade` listener: upgrade requests run through the same router and plans. */
  readonly upgradeListener: (req: IncomingMessage, socket: Duplex, head: Buffer) => void =
    nodeUpgradeListener(this.#host);

  /** True when an extension added upgrade routes (the server then listens for `upgrade`). */
  get hasUpgradeRoutes(): boolean {
    return this.#wiring.records.some((r) => r.info.kind === 'upgrade');
  }
}
