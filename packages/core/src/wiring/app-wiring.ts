import type { IncomingMessage } from 'node:http';
import type * as v from 'valibot';
import { compileAdapter, type ErrorBodyAdapter } from '../errors';
import { WiringError } from '../errors/wiring-error';
import type { Limits } from '../app/limits';
import type { ExceptionHandler } from '../app/exception-handler';
import { cookiesBinder, headersBinder } from '../binding/binders';
import type {
  AppIntercept,
  CustomRoute,
  Logger,
  RouteCatalogue,
  RouteContributor,
  SourceProvider,
  UpgradeRoute,
  Wiring,
} from '../extension/types';
import type { ExitStacks } from '../lifecycle/exit-stack';
import type { Middleware } from '../middleware/middleware';
import { checkMiddleware, compileMiddlewareList } from '../middleware/compile';
import { parseTemplate } from '../routing/router';
import { toErrorReason } from '../schema/issues';
import { Runtime } from '../runtime/runtime';
import { buildRuntime } from './build';
import { checkExceptionHandler } from './exception-handlers';
import { isMountOptionValue, CORE_MOUNT_OPTIONS } from './mount';
import { newRouteInfo, type RouteRecord } from './records';

type Hook = () => void | Promise<void>;

/** Everything `wire()` and extensions declare, collected until wiring finishes. */
export class AppWiring {
  readonly appName: string;
  readonly limits: Limits;
  readonly log: Logger;
  readonly env: Readonly<Record<string, string | undefined>>;
  readonly records: RouteRecord[] = [];
  readonly contributors: RouteContributor[] = [];
  readonly intercepts: AppIntercept[] = [];
  readonly sources = new Map<string, SourceProvider>();
  readonly appMiddleware: Middleware[] = [];
  readonly handlers = new Map<object, ExceptionHandler>();
  readonly wired: ((catalogue: RouteCatalogue) => void | Promise<void>)[] = [];
  readonly beforeClose: Hook[] = [];
  readonly drain: Hook[] = [];
  adapter: ErrorBodyAdapter | undefined;
  readonly #stacks: ExitStacks;
  readonly #assertWiring: (method: string) => void;
  #api: Wiring | undefined;

  constructor(fields: {
    readonly appName: string;
    readonly limits: Limits;
    readonly log: Logger;
    readonly env: Readonly<Record<string, string | undefined>>;
    readonly stacks: ExitStacks;
    /** Throws unless `wire()` is running. */
    readonly assertWiring: (method: string) => void;
  }) {
    this.appName = fields.appName;
    this.limits = fields.limits;
    this.log = fields.log;
    this.env = fields.env;
    this.#stacks = fields.stacks;
    this.#assertWiring = fields.assertWiring;
  }

  /** Adds mounted records; a `ref` names one class only. */
  addRecords(records: readonly RouteRecord[]): void {
    for (const record of records) {
      const { ref, ownerClass, owner } = record.info;
      if (ref === undefined) continue;
      const other = this.records.find((r) => r.info.ref === ref && r.info.ownerClass !== ownerClass);
      if (other)
        throw new WiringError(
          `${owner}: ref "${ref}" is already the ref of ${other.info.owner}. Fix: give each route class its own ref.`,
        );
    }
    this.records.push(...records);
  }

  addMiddleware(where: string, middleware: Middleware): void {
    checkMiddleware(where, middleware);
    this.appMiddleware.push(middleware);
  }

  addExceptionHandler(where: string, handler: ExceptionHandler): void {
    checkExceptionHandler(where, handler, this.handlers);
    this.handlers.set(handler.exception, handler);
  }

  setAdapter(where: string, adapter: ErrorBodyAdapter): void {
    if (this.adapter)
      throw new WiringError(
        `${where}: an error adapter is already registered. Fix: register one adapter per app.`,
      );
    // Compiled now so a bad adapter fails here, naming the call.
    compileAdapter(adapter, () => undefined);
    this.adapter = adapter;
  }

  /** Adds an extension route (custom or upgrade) as a record: same catalogue, same plan compiler. */
  addExtensionRoute(kind: 'custom' | 'upgrade', route: CustomRoute | UpgradeRoute): void {
    const method = kind === 'upgrade' ? 'GET' : String((route as CustomRoute).method ?? '').toUpperCase();
    const operation = route.operation ?? 'handle';
    const where = `${route.owner}.${operation}`;
    if (typeof route.handle !== 'function')
      throw new WiringError(
        `${where}: an extension route needs a handle(ex, input) function. Fix: add handle.`,
      );
    if (!/^[A-Z]+$/.test(method))
      throw new WiringError(`${where}: "${method}" is not an HTTP method. Fix: use GET, POST, …`);
    const { slots } = parseTemplate(route.path);
    const mountOptions = route.mountOptions ?? {};
    for (const [key, value] of Object.entries(mountOptions)) {
      if (value === undefined || CORE_MOUNT_OPTIONS.has(key) || isMountOptionValue(value)) continue;
      throw new WiringError(
        `${where}: mount option "${key}" is not a value core can compile. Fix: build it with the package that provides "${key}".`,
      );
    }
    const middleware = (mountOptions as { middleware?: readonly Middleware[] }).middleware ?? [];
    middleware.forEach((mw) => checkMiddleware(`${where} mount middleware`, mw));
    this.records.push({
      info: newRouteInfo({
        method,
        path: route.path,
        kind,
        owner: route.owner,
        ownerClass: route.ownerClass,
        operation,
        spec: route.spec,
        classMeta: route.classMeta,
        ref: undefined,
        responses: kind === 'custom' ? ((route as CustomRoute).responses ?? []) : [],
        defaultStatus: kind === 'upgrade' ? 101 : 200,
        mountOptions,
        hidden: route.hidden ?? false,
      }),
      slots,
      limits: this.limits,
      mountMiddleware: middleware,
      target: { kind: 'extension', handle: route.handle.bind(route) },
    });
  }

  /** The wiring surface extensions get: the same one every built-in package uses. */
  api(): Wiring {
    if (this.#api) return this.#api;
    const fail = (where: string, problem: string, fix: string): never => {
      throw new WiringError(`${where}: ${problem}. Fix: ${fix}.`);
    };
    this.#api = {
      appName: this.appName,
      limits: this.limits,
      log: this.log,
      env: this.env,
      enter: (resource) => this.#stacks.sync.push(resource, 'extension enter'),
      aenter: async (resource) => this.#stacks.async.push(await resource, 'extension aenter'),
      addRoute: (route) => {
        this.#assertWiring('include (addRoute)');
        this.addExtensionRoute('custom', route);
      },
      addUpgradeRoute: (route) => {
        this.#assertWiring('include (addUpgradeRoute)');
        this.addExtensionRoute('upgrade', route);
      },
      addSource: (source) => {
        this.#assertWiring('include (addSource)');
        if (this.sources.has(source.name))
          fail(
            `addSource(${source.name})`,
            `the "${source.name}" source is already provided`,
            'install the extension that provides it once',
          );
        this.sources.set(source.name, source);
      },
      addContributor: (contributor) => this.contributors.push(contributor),
      addIntercept: (intercept) => this.intercepts.push(intercept),
      onWired: (callback) => this.wired.push(callback),
      onBeforeClose: (callback) => this.beforeClose.push(callback),
      onDrain: (callback) => this.drain.push(callback),
      fail,
      compileMiddleware: (where, middleware, order) => compileMiddlewareList(where, middleware, order),
      headerBinder: (schema, _where, onError) =>
        headersBinder(
          schema,
          onError ? (issues) => onError(toErrorReason('header', issues).reason) : undefined,
        ) as (req: IncomingMessage) => v.InferOutput<typeof schema>,
      cookieBinder: (schema, _where, onError) =>
        cookiesBinder(
          schema,
          onError ? (issues) => onError(toErrorReason('cookie', issues).reason) : undefined,
        ) as (req: IncomingMessage) => v.InferOutput<typeof schema>,
    };
    return this.#api;
  }

  /** Compiles every record into a plan and builds the runtime and the catalogue. */
  async finish(): Promise<{ runtime: Runtime; catalogue: RouteCatalogue }> {
    const built = buildRuntime(this, this.env);
    for (const callback of this.wired) await callback(built.catalogue);
    return built;
  }
}
