import { describeValue, wiringError, type WiringErrorCode } from '../contract/wiring-error';
import { isErrorClass } from '../responses/exception-handler';
import type { ErrorClass } from '../contract/meta';
import { isFramingHeader } from '../http/framing';
import { isOwnedHeader, ownedHeaderFix } from '../http/owned-fields';
import type { BeforeStep, RouteContribution, SourceProvider, SourceResolver } from '../contract/contribution';
import type { Exchange } from '../contract/exchange';
import {
  contentBinder,
  cookiesBinder,
  headersBinder,
  jsonBinder,
  queryBinder,
  rawHeadersBinder,
  type Binder,
} from '../binding/binders';
import { formBinder } from '../binding/form-binder';
import { pathBinder } from '../binding/path-binder';
import type { UrlResolver } from '../responses/location';
import { compileWriter, type Writer } from '../responses/writers';
import { ResponseShapeError } from '../schema/response-shape-error';
import type { OperationSpec } from '../route-class/route-class';
import { Plan, type HeaderPairs, type PlanSteps } from '../runtime/plan';
import { composeAround, runRoute } from '../runtime/runner';
import { dropWhenExpired, signalOf, skipWhenExpired } from '../responses/request-control';
import type { RouteRecord } from './records';
import { resolveSourcesFirst } from './after-sources';

/**
 * Core's own binding sources, in binding order after extension sources (DECISIONS: auth → path →
 * headers → cookies → query → body).
 */
const CORE_SOURCES: readonly (keyof OperationSpec)[] = [
  'path',
  'headers',
  'cookies',
  'params',
  'rawHeaders',
  'json',
  'content',
  'form',
  'requestId',
  'signal',
];
const CORE_SOURCE_SET: ReadonlySet<string> = new Set<string>(CORE_SOURCES);

/** True for a binding source core binds itself (an extension cannot provide one by that name). */
export function isCoreSource(name: string): boolean {
  return CORE_SOURCE_SET.has(name);
}
const NOT_SOURCES: ReadonlySet<string> = new Set(['returns', 'meta']);
const BODY_SOURCES: ReadonlySet<string> = new Set(['json', 'content', 'form']);

/** What every plan compiles against. */
export interface PlanContext {
  readonly resolver: UrlResolver;
  /** Binding sources added by extensions (`wiring.addSource`). */
  readonly sources: ReadonlyMap<string, SourceProvider>;
}

type Mutable<T> = { -readonly [K in keyof T]: T[K] };

/**
 * Compiles one route record and its contributions (mount options, middleware, contributors) into
 * a plan: every step decided here, absent steps left out.
 */
export function compilePlan(record: RouteRecord, contributions: RouteContribution[], ctx: PlanContext): Plan {
  const info = record.info;
  const where = `${info.owner}.${info.operation}`;
  contributions.sort((a, b) => (a.order ?? 50) - (b.order ?? 50));
  const constantHeaders = compileConstantHeaders(where, contributions, info.ownHeaders);
  recordFacts(contributions, info.facts);
  recordErrors(where, contributions, info.errors);
  const onOptions = contributions.filter((c) => c.headersOnOptions !== false);
  const optionsConstantHeaders = onOptions.flatMap((c) =>
    (c.headers ?? []).flatMap(([name, value]) =>
      info.ownHeaders?.includes(name.toLowerCase()) ? [] : [name.toLowerCase(), value],
    ),
  );
  const dynamicHeaders = collect(contributions, (c) => c.dynamicHeaders);
  const observers = collect(contributions, (c) => c.observe);
  const closeObservers = collect(contributions, (c) => c.observeClose);
  const around = collect(contributions, (c) => c.around);
  const intercepts = collect(contributions, (c) => c.intercept);
  const before: BeforeStep[] = collect(contributions, (c) => c.before) ?? [];
  const options = collect(contributions, (c) => c.options);

  const provided = new Map<string, SourceResolver>();
  for (const c of contributions) {
    for (const [key, resolve] of Object.entries(c.sources ?? {})) {
      if (provided.has(key))
        throw wiringError(
          'API_WIRING_SOURCE',
          where,
          `two mount options provide the "${key}" source`,
          'keep one of them',
        );
      provided.set(key, resolve);
    }
  }

  // A step that reads the mount's sources (afterSources) makes them resolve first, as a pre-handler step.
  const afterSources = collect(contributions, (c) => c.afterSources);
  if (afterSources) resolveSourcesFirst(provided, afterSources, before);

  const spec: OperationSpec = info.spec ?? {};
  const keys: string[] = [];
  const binders: Binder[] = [];
  let asyncBinders = false;
  // Extension sources first (e.g. `user`): auth answers 401 before path/404 and before any body read.
  for (const key of Object.keys(spec)) {
    if (CORE_SOURCE_SET.has(key) || NOT_SOURCES.has(key)) continue;
    const fromMount = provided.get(key);
    const registered = ctx.sources.get(key);
    let resolve: SourceResolver;
    if (fromMount) resolve = fromMount;
    else if (registered)
      resolve = registered.compile({ route: info, declared: (spec as Record<string, unknown>)[key], where });
    else if (key === 'user')
      throw wiringError(
        'API_WIRING_SOURCE',
        where,
        'declares the "user" source, but nothing mounted with it provides "user"',
        `mount ${info.owner} with the option that provides it (auth from @api/auth), or remove "user"`,
      );
    else {
      const installed = [...ctx.sources.keys()];
      throw wiringError(
        'API_WIRING_UNKNOWN_OPTION',
        where,
        `unknown operation key "${key}"`,
        'use path, params, headers, cookies, json, content, rawHeaders, ' +
          'form, requestId, signal, user, returns or ' +
          `meta${installed.length ? `, or an installed extension source (${installed.join(', ')})` : ''}`,
      );
    }
    keys.push(key);
    binders.push(resolve);
    asyncBinders = true;
  }
  for (const [key, resolve] of provided) {
    // Still run it (a gating authenticator on a handler that does not read `user`), as a step
    // before binding, so the handler's argument holds exactly the declared sources.
    // Its value is dropped: the runner awaits a returned promise (a failure answers), nothing else.
    if (!afterSources && !(key in spec)) before.push(resolve as BeforeStep);
  }
  const limits = record.limits;
  const make: Record<string, () => Binder> = {
    path: () => pathBinder(spec.path!, record.slots, where),
    headers: () => {
      const bind = headersBinder(spec.headers!);
      return (ex) => bind(ex.req);
    },
    cookies: () => {
      const bind = cookiesBinder(spec.cookies!);
      return (ex) => bind(ex.req);
    },
    params: () => queryBinder(spec.params!),
    rawHeaders: () => rawHeadersBinder,
    json: () => jsonBinder(spec.json!, limits),
    content: () => contentBinder(limits),
    form: () => formBinder(spec.form!, limits, where),
    // Declared with `true`: checked with the other flag sources when the operation is mounted.
    requestId: () => (ex) => ex.requestId,
    signal: () => signalOf,
  };
  for (const key of CORE_SOURCES) {
    if (spec[key] === undefined) continue;
    keys.push(key);
    binders.push(make[key]!());
    if (BODY_SOURCES.has(key)) asyncBinders = true;
  }

  const target = record.target;
  // Operations only: an extension route (a file, a document, an upgrade) answers on its own terms.
  const deadlineMs = target.kind === 'operation' ? limits.deadlineMs : undefined;
  let invoke: PlanSteps['invoke'] =
    target.kind === 'operation'
      ? target.handler
      : (input: Record<string, unknown>, ex: Exchange) => target.handle(ex, input);
  let write = target.kind === 'operation' ? compileResponses(record, where, ctx.resolver) : undefined;
  if (deadlineMs !== undefined && write !== undefined) {
    invoke = skipWhenExpired(invoke);
    write = dropWhenExpired(write);
  }
  const steps: Mutable<PlanSteps> = {
    info,
    intercepts,
    before: before.length ? before : undefined,
    keys,
    binders,
    invoke,
    write,
    constantHeaders,
    dynamicHeaders,
    observers,
    closeObservers,
    around,
    aroundRun: undefined,
    errorHeaders: collect(contributions, (c) => c.errorHeaders),
    options,
    optionsConstantHeaders,
    optionsDynamicHeaders: collect(onOptions, (c) => c.dynamicHeaders),
    transform: oneTransform(where, contributions),
    deadlineMs,
    signal: spec.signal !== undefined,
  };
  // The route's run inside its around hooks, composed once here (the closure reads `plan` per request).
  const plan: Plan = new Plan({
    ...steps,
    aroundRun: around ? composeAround(around, (ex) => runRoute(plan, ex, ctx.resolver)) : undefined,
    asyncBinders,
  });
  return plan;
}

function collect<T>(
  contributions: readonly RouteContribution[],
  pick: (c: RouteContribution) => T | undefined,
): T[] | undefined {
  const out: T[] = [];
  for (const c of contributions) {
    const step = pick(c);
    if (step !== undefined) out.push(step);
  }
  return out.length ? out : undefined;
}

/** The route's body transform: at most one contribution may encode its bodies. */
function oneTransform(
  where: string,
  contributions: readonly RouteContribution[],
): RouteContribution['transform'] {
  const transforms = collect(contributions, (c) => c.transform);
  if (transforms !== undefined && transforms.length > 1)
    throw wiringError(
      'API_WIRING_CONTRIBUTION_CONFLICT',
      where,
      `${transforms.length} contributions give a body transform; a body is encoded once`,
      'install one extension that transforms bodies (e.g. ' +
        'one compression), or turn it off for this mount',
    );
  return transforms?.[0];
}

/** The route's constant headers (flat), checked for duplicates, framing headers and owned fields. */
function compileConstantHeaders(
  where: string,
  contributions: readonly RouteContribution[],
  ownHeaders: readonly string[] = [],
): string[] {
  const headers: string[] = [];
  const names = new Set<string>();
  for (const c of contributions) {
    for (const [name, value] of c.headers ?? []) {
      const lower = name.toLowerCase();
      // The route's answers set this one themselves (e.g. a page's own CSP).
      if (ownHeaders.includes(lower)) continue;
      if (isFramingHeader(lower, undefined))
        throw wiringError(
          'API_WIRING_FRAMING_HEADER',
          where,
          'a contribution (an extension, CORS or middleware) sets the constant response ' +
            `header "${lower}", a framing header the framework computes for every response`,
          'remove it from that contribution',
        );
      if (isOwnedHeader(lower))
        throw wiringError(
          'API_WIRING_OWNED_HEADER',
          where,
          'a contribution (an extension, CORS or middleware) sets the constant response ' +
            `header "${lower}", a field each response sends itself (it would go out twice)`,
          ownedHeaderFix(lower),
        );
      if (names.has(lower))
        throw wiringError(
          'API_WIRING_CONTRIBUTION_CONFLICT',
          where,
          'two contributions set the constant response header ' +
            `"${lower}" (CORS, app-wide or scoped middleware)`,
          `set "${lower}" in one place only`,
        );
      names.add(lower);
      headers.push(lower, value);
    }
  }
  return headers;
}

/** Records each contribution's `facts` on the catalogue entry (keyed by extension, e.g. `auth`). */
function recordFacts(contributions: readonly RouteContribution[], facts: Map<string, unknown>): void {
  for (const c of contributions)
    for (const [key, value] of Object.entries(c.facts ?? {})) facts.set(key, value);
}

/** Records the error classes contributions raise on the catalogue entry (each once, in order). */
function recordErrors(
  where: string,
  contributions: readonly RouteContribution[],
  errors: ErrorClass[],
): void {
  for (const c of contributions) {
    if (c.raises === undefined) continue;
    if (!Array.isArray(c.raises))
      throw wiringError(
        'API_WIRING_NOT_AN_ERROR_CLASS',
        where,
        `a contribution's raises must be a list of HTTP error classes, got ${describeValue(c.raises)}`,
        'raises: [MyError], with class MyError extends HTTPError.define({ … }) {}',
      );
    for (const cls of c.raises as readonly unknown[]) {
      if (!isErrorClass(cls))
        throw wiringError(
          'API_WIRING_NOT_AN_ERROR_CLASS',
          where,
          `a contribution raises ${describeValue(cls)}, which is not an HTTP error class`,
          'list classes declared with HTTPError.define, ' +
            'DataclassHTTPError.define or StructHTTPError.define',
        );
      if (!errors.includes(cls)) errors.push(cls);
    }
  }
}

/** One writer per declared response; a union dispatches by wrapper class, then the plain member. */
function compileResponses(record: RouteRecord, where: string, resolver: UrlResolver): Writer {
  const info = record.info;
  const ctx = {
    defaultStatus: info.defaultStatus,
    resolver,
    where,
    method: info.method,
    path: info.path,
    fail: (problem: string, fix: string, code: WiringErrorCode = 'API_WIRING'): never => {
      throw wiringError(code, where, problem, fix);
    },
  };
  const writers = info.responses.map((r) => [r, compileWriter(r, ctx)] as const);
  if (writers.length === 1) return writers[0]![1];
  const byClass = writers.filter(([r]) => r.cls !== undefined);
  const plain = writers.find(([r]) => r.cls === undefined);
  return (value, ex) => {
    for (const [r, write] of byClass) if (value instanceof r.cls!) return write(value, ex);
    if (plain) return plain[1](value, ex);
    throw new ResponseShapeError(`one of the declared responses of ${where}`, describeValue(value));
  };
}

/** Header pairs type re-exported for contributors. */
export type { HeaderPairs };
