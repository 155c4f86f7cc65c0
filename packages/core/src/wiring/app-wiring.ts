import { compileAdapter, type ErrorBodyAdapter } from '../errors';
import type { ShutdownHook } from '../lifecycle/shutdown';
import { describeValue, WiringError, wiringError } from '../contract/wiring-error';
import type { Limits } from '../contract/limits';
import type { ExceptionHandler } from '../responses/exception-handler';
import type {
  AppIntercept,
  CustomRoute,
  PrefixRoute,
  RouteContributor,
  SourceProvider,
  UpgradeRoute,
} from '../contract/contribution';
import type { Logger } from '../logging/logger';
import type { RouteInfo } from '../contract/route-info';
import type { RouteCatalogue } from './route-catalogue';
import type { Transport } from '../contract/exchange';
import type { InvokeAnswer, InvokeRequest } from '../contract/invoke';
import type { ExitStacks } from '../lifecycle/exit-stack';
import type { Middleware } from '../middleware/middleware';
import { duplicateRouteError, parseTemplate } from '../routing/router';
import { resolveTrustProxy } from '../routing/proxy-trust';
import { checkExceptionHandler } from './compile-exception-handlers';
import { checkExtensionRoute } from './extension-route';
import { checkMiddleware } from '../middleware/check';
import { newRouteInfo, type RouteRecord } from './records';
import type { HealthPaths, LoadSheddingOptions, TrustProxy } from '../contract/serving-options';
import { PrefixTable } from '../routing/prefix-table';
import { prefixRouteRecords } from './prefix-route';

/**
 * Everything `wire()` and extensions declare, collected until wiring finishes: the one internal
 * wiring object. Extensions write into it through the public `Wiring` surface (`wiringApi(…)` in
 * `wiring-api.ts`); `finishWiring(…)` in `build.ts` compiles it into the runtime.
 */
export class AppWiring {
  readonly appName: string;
  readonly limits: Limits;
  readonly log: Logger;
  readonly requestLog: boolean;
  readonly env: Readonly<Record<string, string | undefined>>;
  /** The app's probe paths (`health`), if any. */
  readonly health: HealthPaths | undefined;
  /** The app's load-shedding limits, if any. */
  readonly loadShedding: LoadSheddingOptions | undefined;
  /** The app's `trustProxy` as resolved (`APP_TRUST_FORWARDED` when the option is absent). */
  readonly trustProxy: TrustProxy;
  /** The `trustProxy` option as given (URL building tells it from the environment's flag). */
  readonly trustProxyOption: TrustProxy | undefined;
  readonly records: RouteRecord[] = [];
  readonly contributors: RouteContributor[] = [];
  readonly intercepts: AppIntercept[] = [];
  readonly sources = new Map<string, SourceProvider>();
  readonly appMiddleware: Middleware[] = [];
  readonly handlers = new Map<object, ExceptionHandler>();
  readonly wired: ((catalogue: RouteCatalogue) => void | Promise<void>)[] = [];
  readonly beforeClose: ShutdownHook[] = [];
  readonly drain: ShutdownHook[] = [];
  adapter: ErrorBodyAdapter | undefined;
  /** Set when the routes are compiled: what an extension adds after that would never take effect. */
  compiled = false;
  /** The transport the app is started for (set by `start()` before `wire()` runs). */
  transport: Transport = 'node';
  /** The app's exit stacks (what `wiring.enter` / `aenter` push onto). */
  readonly stacks: ExitStacks;
  /** Throws unless `wire()` is running. */
  readonly assertWiring: (method: string) => void;
  /** Answers a WHATWG `Request` through the started app (`wiring.dispatch`). */
  readonly dispatch: (request: Request) => Promise<Response>;
  /** Answers a plain request through the started app (`wiring.invoke`). */
  readonly invoke: (request: InvokeRequest) => Promise<InvokeAnswer>;

  constructor(fields: {
    readonly appName: string;
    readonly limits: Limits;
    readonly log: Logger;
    /** The app's `requestLog` option. */
    readonly requestLog: boolean;
    readonly env: Readonly<Record<string, string | undefined>>;
    readonly health?: HealthPaths | undefined;
    readonly loadShedding?: LoadSheddingOptions | undefined;
    readonly trustProxy?: TrustProxy | undefined;
    readonly stacks: ExitStacks;
    /** Throws unless `wire()` is running. */
    readonly assertWiring: (method: string) => void;
    /** Answers a WHATWG `Request` through the started app (`wiring.dispatch`). */
    readonly dispatch: (request: Request) => Promise<Response>;
    /** Answers a plain request through the started app (`wiring.invoke`). */
    readonly invoke: (request: InvokeRequest) => Promise<InvokeAnswer>;
  }) {
    this.appName = fields.appName;
    this.limits = fields.limits;
    this.log = fields.log;
    this.requestLog = fields.requestLog;
    this.env = fields.env;
    this.health = fields.health;
    this.loadShedding = fields.loadShedding;
    this.trustProxyOption = fields.trustProxy;
    this.trustProxy = resolveTrustProxy(fields.trustProxy, fields.env);
    this.stacks = fields.stacks;
    this.assertWiring = fields.assertWiring;
    this.dispatch = fields.dispatch;
    this.invoke = fields.invoke;
  }

  /** Prefix routes added so far: an overlapping prefix fails at the call that adds it. */
  readonly #prefixes = new PrefixTable<RouteRecord>();

  /** Adds a prefix route (one record per method it answers, or one for every method). */
  addPrefixRoute(route: PrefixRoute): void {
    const records = prefixRouteRecords(route, this.limits);
    for (const record of records)
      this.#prefixes.add(record.info.path, record.info.method, record, `${route.owner} (prefix route)`);
    this.records.push(...records);
  }

  /** Every route added so far by method and path shape (slot names ignored), for early duplicate checks. */
  readonly #routes = new Map<string, RouteRecord>();

  /**
   * The route answering `method` at `path` (same shape: slot names ignored; `literal`: the exact
   * path), if one was added.
   */
  findRoute(method: string, path: string, literal = false): RouteInfo | undefined {
    return this.#routes.get(routeKey(method, path, literal))?.info;
  }

  /** Adds mounted records; a `ref` names one class only; a method and path answered twice fails here. */
  addRecords(records: readonly RouteRecord[]): void {
    for (const record of records) {
      const prior = this.#routes.get(routeKey(record.info.method, record.info.path));
      // Against another operation: fail now. Against an extension route, the extension's own
      // contributors (e.g. assets naming the file) and then the router report it at the end.
      if (prior?.info.kind === 'operation') throw duplicateRoute(record.info, prior.info);
    }
    for (const record of records) {
      const { ref, ownerClass, owner } = record.info;
      if (ref === undefined) continue;
      const other = this.records.find((r) => r.info.ref === ref && r.info.ownerClass !== ownerClass);
      if (other)
        throw wiringError(
          'API_WIRING_DUPLICATE',
          owner,
          `ref "${ref}" is already the ref of ${other.info.owner}`,
          'give each route class its own ref',
        );
    }
    for (const record of records) {
      const key = routeKey(record.info.method, record.info.path);
      if (!this.#routes.has(key)) this.#routes.set(key, record);
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
      throw wiringError(
        'API_WIRING_DUPLICATE',
        where,
        'an error adapter is already registered',
        'register one adapter per app',
      );
    // Compiled now so a bad adapter fails here, naming the call.
    compileAdapter(adapter, () => undefined, where);
    this.adapter = adapter;
  }

  /** Adds an extension route (custom or upgrade) as a record: same catalogue, same plan compiler. */
  addExtensionRoute(kind: 'custom' | 'upgrade', route: CustomRoute | UpgradeRoute): void {
    const { method, operation, where, literal, mountOptions, middleware } = checkExtensionRoute(kind, route);
    const slots = literal ? [] : parseTemplate(route.path, where).slots;
    const key = routeKey(method, route.path, literal);
    const prior = this.#routes.get(key);
    if (prior)
      throw duplicateRoute({ method, path: route.path, owner: route.owner, operation, kind }, prior.info);
    const record: RouteRecord = {
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
        ...(literal ? { literal } : {}),
        ...ownHeadersOf(kind, route, where),
      }),
      slots,
      limits: this.limits,
      mountMiddleware: middleware,
      target: { kind: 'extension', handle: route.handle.bind(route) },
    };
    this.#routes.set(key, record);
    this.records.push(record);
  }
}

/** A custom route's `ownHeaders`, checked (header names) and lower-cased. */
function ownHeadersOf(
  kind: 'custom' | 'upgrade',
  route: CustomRoute | UpgradeRoute,
  where: string,
): { ownHeaders?: readonly string[] } {
  const given: unknown = kind === 'custom' ? (route as CustomRoute).ownHeaders : undefined;
  if (given === undefined) return {};
  if (
    !Array.isArray(given) ||
    !given.every((n) => typeof n === 'string' && /^[!#$%&'*+\-.^_`|~0-9A-Za-z]+$/.test(n))
  )
    throw wiringError(
      'API_WIRING_INVALID_ARGUMENT',
      where,
      `ownHeaders must be a list of header names, got ${describeValue(given)}`,
      "ownHeaders: ['content-security-policy']",
    );
  return { ownHeaders: (given as string[]).map((n) => n.toLowerCase()) };
}

/**
 * A method and path shape: `GET /widgets/{}` (slot names do not tell two routes apart). A literal
 * path is its own key; without braces it is the same static path a template would be.
 */
function routeKey(method: string, path: string, literal = false): string {
  if (literal && /[{}]/.test(path)) return `${method.toUpperCase()} literal ${path}`;
  return `${method.toUpperCase()} ${path.replace(/\{[^/]*\}/g, '{}')}`;
}

type RouteLabel = Pick<RouteInfo, 'method' | 'path' | 'owner' | 'operation' | 'kind'>;

function label(route: RouteLabel): string {
  return `${route.owner}.${route.operation}${route.kind === 'operation' ? '' : ` (${route.kind} route)`}`;
}

/** The `WiringError` of a second route for one method and path, naming both registrants. */
function duplicateRoute(added: RouteLabel, prior: RouteLabel): WiringError {
  return duplicateRouteError(label(added), added.method, added.path, label(prior), prior.path);
}
