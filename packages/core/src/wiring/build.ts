import { compileAdapter } from '../errors';
import type { Exchange } from '../contract/exchange';
import type { MountOptionValue } from './mount-option';
import type { RouteCatalogue } from './route-catalogue';
import type { ConnectionControl } from '../contract/wire';
import type { RouteContribution } from '../contract/contribution';
import { mountOption } from './mount-option';
import { compileMiddlewareList, middlewareHook } from '../middleware/compile';
import { baseFromEnv, CatalogueResolver } from '../routing/url-resolver';
import { Router } from '../routing/router';
import { PrefixTable } from '../routing/prefix-table';
import { ErrorFunnel } from '../runtime/funnel';
import type { Plan } from '../runtime/plan';
import { Runtime, type CompiledIntercept } from '../runtime/runtime';
import type { AppWiring } from './app-wiring';
import { wiringApi } from './wiring-api';
import { requestLogContribution } from '../logging/request-log';
import { compileHandlerWriters } from './compile-exception-handlers';
import { CORE_MOUNT_OPTIONS } from './mount';
import { compilePlan, type PlanContext } from './plan-compiler';
import { newRouteInfo, type RouteRecord } from './records';
import { compileHealth, compileShedding } from './serving';

/**
 * Ends wiring: compiles every record into a plan, builds the runtime and the catalogue, then runs
 * the `onWired` callbacks. Anything an extension adds from now on is refused (`compiled`).
 */
export async function finishWiring(
  wiring: AppWiring,
  connections: ConnectionControl,
): Promise<{ runtime: Runtime; catalogue: RouteCatalogue }> {
  wiring.compiled = true;
  const built = buildRuntime(wiring, connections);
  for (const callback of wiring.wired) await callback(built.catalogue);
  return built;
}

/**
 * Wiring's last step: every record (operation, custom, upgrade, and the fallback of unrouted
 * answers) gets its contributions and compiles into a plan in one router; errors get one funnel.
 */
export function buildRuntime(
  wiring: AppWiring,
  connections: ConnectionControl,
): { runtime: Runtime; catalogue: RouteCatalogue } {
  const appName = wiring.appName;
  const log = wiring.log;
  // Before the catalogue: the probe paths are routes too (duplicates fail, other methods get 405).
  const health = compileHealth(wiring);
  const adapter = wiring.adapter ? compileAdapter(wiring.adapter, (m, e) => log.error(m, e)) : undefined;
  const routes = wiring.records.map((r) => r.info);
  const catalogue: RouteCatalogue = {
    routes,
    find: (owner, operation) => routes.find((r) => r.ownerClass === owner && r.operation === operation),
    errorAdapter: wiring.adapter,
    exceptionHandlers: [...wiring.handlers.values()],
  };
  const resolver = new CatalogueResolver(routes, baseFromEnv(wiring.env, appName, wiring.trustProxyOption));
  const ctx: PlanContext = { resolver, sources: wiring.sources };
  const appMiddleware = compileMiddlewareList(
    `${appName}.includeMiddleware`,
    wiring.appMiddleware.filter((m) => m.responseHeaders !== undefined || m.observe !== undefined),
    20,
  );
  const api = wiringApi(wiring);
  // Decided here, once: without the request log and without a route binding `requestId`, no
  // request carries an id (nothing echoed, nothing logged, nothing generated).
  const requestIds =
    wiring.requestLog ||
    wiring.records.some((r) => (r.info.spec as { requestId?: unknown })?.requestId !== undefined);
  const requestLog = wiring.requestLog ? requestLogContribution(log) : undefined;
  const router = new Router<Plan>();
  // Decided here: an app without prefix routes has none, and its misses never look for one.
  let prefixes: PrefixTable<Plan> | undefined;
  for (const record of wiring.records) {
    const info = record.info;
    const where = `${info.owner}.${info.operation}`;
    const contributions: RouteContribution[] = [];
    for (const [key, value] of Object.entries(info.mountOptions)) {
      if (value === undefined || value === false || CORE_MOUNT_OPTIONS.has(key)) continue;
      const c = (value as MountOptionValue)[mountOption]({ route: info, wiring: api });
      if (c) contributions.push(c);
    }
    if (record.mountMiddleware.length > 0) {
      const c = compileMiddlewareList(`${where} middleware`, record.mountMiddleware, 30);
      if (c) contributions.push(c);
    }
    if (appMiddleware) contributions.push(appMiddleware);
    for (const contributor of wiring.contributors) {
      const c = contributor(info);
      if (c) contributions.push(c);
    }
    if (requestLog) contributions.push(requestLog);
    if (info.kind === 'prefix') {
      prefixes ??= new PrefixTable<Plan>();
      prefixes.add(info.path, info.method, compilePlan(record, contributions, ctx), info.owner);
      continue;
    }
    router.add(
      info.method,
      info.path,
      compilePlan(record, contributions, ctx),
      (plan) => {
        const kind = plan.info.kind === 'operation' ? '' : ` (${plan.info.kind} route)`;
        return `${plan.info.owner}.${plan.info.operation}${kind}`;
      },
      info.literal === true,
    );
  }

  const runtime = new Runtime({
    router,
    prefixes,
    fallback: compileFallback(wiring, appMiddleware, requestLog, ctx),
    appIntercepts: compileAppIntercepts(wiring),
    funnel: new ErrorFunnel({
      handlers: wiring.handlers,
      handlerWriters: compileHandlerWriters(wiring.handlers.values()),
      adapter,
      resolver,
      log,
    }),
    resolver,
    limits: wiring.limits,
    log,
    requestIds,
    connections,
    health,
    shedding: compileShedding(wiring),
  });
  return { runtime, catalogue };
}

/** The plan of unrouted answers: the app-wide route headers (CORS, middleware headers) and app-wide observers. */
function compileFallback(
  wiring: AppWiring,
  appMiddleware: RouteContribution | undefined,
  requestLog: RouteContribution | undefined,
  ctx: PlanContext,
): Plan {
  const record: RouteRecord = {
    info: newRouteInfo({
      method: '*',
      path: '*',
      kind: 'custom',
      owner: wiring.appName,
      ownerClass: undefined,
      operation: 'fallback',
      spec: undefined,
      classMeta: undefined,
      ref: undefined,
      responses: [],
      defaultStatus: 404,
      mountOptions: {},
      hidden: true,
    }),
    slots: [],
    limits: wiring.limits,
    mountMiddleware: [],
    target: { kind: 'extension', handle: () => undefined },
  };
  const contributions: RouteContribution[] = [];
  if (appMiddleware) contributions.push(appMiddleware);
  for (const contributor of wiring.contributors) {
    const c = contributor(record.info);
    if (c) contributions.push(c);
  }
  if (requestLog) contributions.push(requestLog);
  return compilePlan(record, contributions, ctx);
}

/** App-wide middleware intercepts, then extension intercepts: they run before routing. */
function compileAppIntercepts(wiring: AppWiring): CompiledIntercept[] {
  const intercepts: CompiledIntercept[] = [];
  for (const mw of wiring.appMiddleware) {
    if (!mw.intercept) continue;
    const hook = middlewareHook(mw);
    intercepts.push({
      methods: mw.interceptMethods ? new Set(mw.interceptMethods.map((m) => m.toUpperCase())) : undefined,
      intercept: (ex: Exchange) => mw.intercept!(hook(ex)),
    });
  }
  for (const i of wiring.intercepts)
    intercepts.push({
      methods: i.methods ? new Set(i.methods) : undefined,
      intercept: (ex) => i.intercept(ex),
    });
  return intercepts;
}
