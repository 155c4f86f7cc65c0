// The `Wiring` object extensions get in `setup(wiring)`: thin, checked doors into AppWiring.
import { standardReason } from '../schema/standard-issues';
import type { SchemaOutput } from '../contract/standard-schema';
import { cookiesBinder, headersBinder } from '../binding/binders';
import { describeValue, wiringError, type WiringErrorCode } from '../contract/wiring-error';
import type { RequestHead } from '../contract/exchange';
import type { Wiring } from './extension-api';
import type { AppWiring } from './app-wiring';
import { checkMethodNames, checkMiddleware } from '../middleware/check';
import { compileMiddlewareList } from '../middleware/compile';
import { toErrorReason } from '../schema/issues';
import { isCoreSource } from './plan-compiler';
import { clientAddressOf, schemeOf } from '../routing/proxy-trust';

/** Each app's wiring surface, built on first use. */
const surfaces = new WeakMap<AppWiring, Wiring>();

/** The wiring surface extensions get: one per app, the same one every built-in package uses. */
export function wiringApi(wiring: AppWiring): Wiring {
  let api = surfaces.get(wiring);
  if (api === undefined) surfaces.set(wiring, (api = createWiringApi(wiring)));
  return api;
}

/** Throws a `WiringError` unless `value` is a function (a callback an extension registers). */
function callback(member: string, what: string, value: unknown): void {
  if (typeof value !== 'function')
    throw wiringError(
      'API_WIRING_INVALID_ARGUMENT',
      `wiring.${member}`,
      `expected ${what}, got ${describeValue(value)}`,
      'pass a function',
    );
}

/** True for a value the exit stack can tear down. */
function isCloseable(value: unknown): boolean {
  if (typeof value !== 'object' && typeof value !== 'function') return false;
  if (value === null) return false;
  const r = value as Record<string | symbol, unknown>;
  return (
    typeof r[Symbol.asyncDispose] === 'function' ||
    typeof r[Symbol.dispose] === 'function' ||
    typeof r.close === 'function'
  );
}

/** Fails with a `WiringError` unless `resource` can be torn down by the exit stack. */
export function checkCloseable(where: string, resource: unknown): void {
  if (!isCloseable(resource))
    throw wiringError(
      'API_WIRING_NOT_CLOSEABLE',
      where,
      `${describeValue(resource)} has no [Symbol.asyncDispose], ` +
        '[Symbol.dispose] or close(), so nothing could tear it down',
      'pass a Disposable, an AsyncDisposable or an object with close()',
    );
}

/** Builds the wiring surface of one app. */
function createWiringApi(target: AppWiring): Wiring {
  const { stacks, assertWiring } = target;
  const fail = (where: string, problem: string, fix: string, code: WiringErrorCode = 'API_WIRING'): never => {
    throw wiringError(code, where, problem, fix);
  };
  // Routes, sources, contributors and intercepts are compiled once wire() and every async setup
  // are done: one added later (from onWired) would silently never take effect.
  const open = (member: string): void => {
    if (target.compiled)
      fail(
        `wiring.${member}`,
        'called after the routes were compiled (from onWired or later), so it would never take effect',
        `call ${member} in setup (an async setup may await first)`,
        'API_WIRING_APP_STATE',
      );
  };
  return {
    appName: target.appName,
    limits: target.limits,
    log: target.log,
    env: target.env,
    trustProxy: target.trustProxy,
    clientAddress: (req) => clientAddressOf(req, target.trustProxy),
    requestScheme: (req) => schemeOf(req, target.trustProxy),
    get transport() {
      return target.transport;
    },
    dispatch: (request) => target.dispatch(request),
    invoke: (request) => target.invoke(request),
    enter: (resource) => {
      checkCloseable('wiring.enter', resource);
      return stacks.sync.push(resource, 'extension enter');
    },
    aenter: async (resource) => {
      const opened = await resource;
      checkCloseable('wiring.aenter', opened);
      return stacks.async.push(opened, 'extension aenter');
    },
    addRoute: (route) => {
      assertWiring('include (addRoute)');
      open('addRoute');
      target.addExtensionRoute('custom', route);
    },
    addPrefixRoute: (route) => {
      assertWiring('include (addPrefixRoute)');
      open('addPrefixRoute');
      target.addPrefixRoute(route);
    },
    addUpgradeRoute: (route) => {
      assertWiring('include (addUpgradeRoute)');
      open('addUpgradeRoute');
      target.addExtensionRoute('upgrade', route);
    },
    hasRoute: (method, path, options) =>
      target.findRoute(String(method), String(path), options?.literal === true) !== undefined,
    findRoute: (method, path, options) =>
      target.findRoute(String(method), String(path), options?.literal === true),
    addSource: (source) => {
      assertWiring('include (addSource)');
      open('addSource');
      if (
        typeof source !== 'object' ||
        source === null ||
        typeof source.name !== 'string' ||
        source.name === ''
      )
        fail(
          'wiring.addSource',
          'expected { name, compile }, got ' +
            (typeof source === 'object' && source !== null
              ? `a source named ${describeValue(source.name)}`
              : describeValue(source)),
          "pass { name: 'requestId', compile: (ctx) => (ex) => value }",
          'API_WIRING_INVALID_ARGUMENT',
        );
      callback(
        `addSource(${source.name})`,
        'compile(ctx) returning a resolver',
        (source as { compile?: unknown }).compile,
      );
      if (isCoreSource(source.name))
        fail(
          `addSource(${source.name})`,
          `"${source.name}" is a source core binds itself, so this one would never be used`,
          'give the source another name',
          'API_WIRING_SOURCE',
        );
      if (target.sources.has(source.name))
        fail(
          `addSource(${source.name})`,
          `the "${source.name}" source is already provided`,
          'install the extension that provides it once',
          'API_WIRING_DUPLICATE',
        );
      target.sources.set(source.name, source);
    },
    addContributor: (contributor) => {
      open('addContributor');
      callback('addContributor', 'a function (route) => contribution', contributor);
      target.contributors.push(contributor);
    },
    addIntercept: (intercept) => {
      open('addIntercept');
      if (typeof intercept !== 'object' || intercept === null)
        fail(
          'wiring.addIntercept',
          `expected { methods?, intercept(ex) }, got ${describeValue(intercept)}`,
          'pass { intercept: (ex) => response | undefined }',
          'API_WIRING_INVALID_ARGUMENT',
        );
      callback('addIntercept', 'intercept(ex)', (intercept as { intercept?: unknown }).intercept);
      if (
        intercept.methods !== undefined &&
        !(Array.isArray(intercept.methods) && intercept.methods.every((m) => typeof m === 'string'))
      )
        fail(
          'wiring.addIntercept',
          `methods must be a list of method names, got ${describeValue(intercept.methods)}`,
          "methods: ['GET', 'POST'], or leave it out for every method",
          'API_WIRING_INVALID_ARGUMENT',
        );
      if (intercept.methods !== undefined)
        checkMethodNames('wiring.addIntercept: methods', intercept.methods);
      target.intercepts.push(intercept);
    },
    onWired: (fn) => {
      callback('onWired', 'a callback (catalogue) => void', fn);
      target.wired.push(fn);
    },
    onBeforeClose: (fn) => {
      callback('onBeforeClose', 'a callback () => void | Promise<void>', fn);
      target.beforeClose.push(fn);
    },
    onDrain: (fn) => {
      callback('onDrain', 'a callback () => void | Promise<void>', fn);
      target.drain.push(fn);
    },
    fail,
    compileMiddleware: (where, middleware, order) => {
      middleware.forEach((mw) => checkMiddleware(where, mw));
      return compileMiddlewareList(where, middleware, order);
    },
    headerBinder: (schema, _where, onError) =>
      headersBinder(
        schema,
        onError ? (issues) => onError(toErrorReason('header', issues).reason) : undefined,
        onError
          ? (issues, input, rename) => onError(standardReason('header', issues, input, rename).reason)
          : undefined,
      ) as (req: RequestHead) => SchemaOutput<typeof schema>,
    cookieBinder: (schema, _where, onError) =>
      cookiesBinder(
        schema,
        onError ? (issues) => onError(toErrorReason('cookie', issues).reason) : undefined,
        onError ? (issues, input) => onError(standardReason('cookie', issues, input).reason) : undefined,
      ) as (req: RequestHead) => SchemaOutput<typeof schema>,
  };
}
