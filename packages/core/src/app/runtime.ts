import type { IncomingMessage, ServerResponse } from 'node:http';
import type { Duplex } from 'node:stream';
import { performance } from 'node:perf_hooks';
import {
  BaseHTTPError,
  InternalServerError,
  MethodNotAllowedError,
  NotFoundError,
  RequestHeaderFieldsTooLargeError,
  type CompiledAdapter,
  type RenderedError,
} from '../errors/http-error';
import type {
  Exchange,
  HeaderList,
  Logger,
  RouteInfo,
  SourceResolver,
  BeforeStep,
  UpgradeRoute,
} from '../extension/types';
import { pick, type Router } from '../routing/router';
import { ExceptionResponse } from '../responses/response';
import type { UrlResolver } from '../responses/location';
import { writeAdHoc, type Writer } from '../responses/writers';
import type { Binder } from '../binding/binders';
import type { ExceptionHandler } from './exception-handler';
import type { Limits } from './limits';

const EMPTY_PARAMS: readonly string[] = Object.freeze([]);
// The router's answers carry no per-request data: one instance each serves every miss.
const NOT_FOUND = new NotFoundError();
const METHOD_NOT_ALLOWED = new MethodNotAllowedError();

/** A route compiled at wiring: every decision is already made. */
export class CompiledRoute {
  constructor(
    readonly info: RouteInfo,
    /** Constant tail headers (flat). */
    readonly tail: readonly string[],
    readonly dynamic:
      | ReadonlyArray<(ex: Exchange, status: number) => ReadonlyArray<readonly [string, string]> | undefined>
      | undefined,
    readonly observers: ReadonlyArray<(ex: Exchange, status: number, durationMs: number) => void> | undefined,
    readonly intercepts: ReadonlyArray<(ex: Exchange) => unknown> | undefined,
    readonly before: readonly BeforeStep[] | undefined,
    readonly keys: readonly string[],
    readonly binders: readonly (Binder | SourceResolver)[],
    /** True when every binder is synchronous and nothing runs before binding. */
    readonly fast: boolean,
    readonly handler: ((input: Record<string, unknown>) => unknown) | undefined,
    readonly write: Writer | undefined,
    readonly custom: ((ex: Exchange) => void | Promise<void>) | undefined,
    readonly options:
      | ReadonlyArray<(ex: Exchange) => ReadonlyArray<readonly [string, string]> | undefined>
      | undefined,
    readonly timed: boolean,
  ) {}
}

/** The request path: built once when wiring finishes. */
export class Runtime {
  readonly #handlerCache = new Map<object, ExceptionHandler | null>();

  constructor(
    readonly router: Router<CompiledRoute>,
    readonly fallback: CompiledRoute,
    readonly appIntercepts: ReadonlyArray<{
      methods: ReadonlySet<string> | undefined;
      intercept: (ex: Exchange) => unknown;
    }>,
    readonly handlers: ReadonlyMap<object, ExceptionHandler>,
    readonly handlerWriters: ReadonlyMap<
      ExceptionHandler,
      (value: ExceptionResponse<unknown, unknown>, ex: Exchange) => void
    >,
    readonly adapter: CompiledAdapter | undefined,
    readonly resolver: UrlResolver,
    readonly limits: Limits,
    readonly log: Logger,
    readonly upgrades: Router<UpgradeRoute>,
    readonly hasUpgrades: boolean,
  ) {}

  /** Whether the server is draining (new requests get `connection: close`). */
  draining = false;
  inFlight = 0;
  #idle: (() => void) | undefined;

  /** Resolves when no request is in flight. */
  whenIdle(): Promise<void> {
    if (this.inFlight === 0) return Promise.resolve();
    return new Promise((resolve) => (this.#idle = resolve));
  }

  handle(req: IncomingMessage, res: ServerResponse): void {
    const url = req.url ?? '/';
    const q = url.indexOf('?');
    const ex = new ExchangeImpl(
      this,
      req,
      res,
      req.method ?? 'GET',
      q < 0 ? url : url.slice(0, q),
      q < 0 ? '' : url.slice(q + 1),
    );
    this.inFlight++;
    // 'on', not 'once': no wrapper per request; the response object is dropped after 'close' anyway.
    res.on('close', this.#onClose);
    if (this.draining) res.setHeader('connection', 'close');
    if (req.rawHeaders.length > this.limits.maxHeaders * 2) {
      ex.fail(new RequestHeaderFieldsTooLargeError());
      return;
    }
    if (this.appIntercepts.length > 0) {
      this.#interceptThenRoute(ex).catch((error: unknown) => ex.fail(error));
      return;
    }
    this.route(ex);
  }

  readonly #onClose = (): void => this.#done();

  #done(): void {
    this.inFlight--;
    if (this.inFlight === 0 && this.#idle) {
      const idle = this.#idle;
      this.#idle = undefined;
      idle();
    }
  }

  async #interceptThenRoute(ex: ExchangeImpl): Promise<void> {
    for (const { methods, intercept } of this.appIntercepts) {
      if (methods && !methods.has(ex.method)) continue;
      const answer = await intercept(ex);
      if (answer !== undefined) {
        writeAdHoc(answer, ex, this.resolver);
        return;
      }
    }
    this.route(ex);
  }

  route(ex: ExchangeImpl): void {
    // Exact paths first, without allocating a match.
    const entry = this.router.findStatic(ex.path);
    if (entry !== undefined && ex.method !== 'OPTIONS') {
      const route = pick(entry, ex.method);
      if (route !== undefined) {
        ex.compiled = route;
        runRoute(route, ex);
        return;
      }
    }
    const match = this.router.find(ex.method, ex.path);
    if (match === undefined) {
      ex.fail(NOT_FOUND);
      return;
    }
    if (ex.method === 'OPTIONS') {
      this.#options(ex, match.entry.methods, match.entry.allow, match.params);
      return;
    }
    const route = match.route;
    if (route === undefined) {
      ex.fail(METHOD_NOT_ALLOWED, ['allow', match.entry.allow]);
      return;
    }
    ex.params = match.params;
    ex.compiled = route;
    runRoute(route, ex);
  }

  #options(
    ex: ExchangeImpl,
    routes: ReadonlyMap<string, CompiledRoute>,
    allow: string,
    params: readonly string[],
  ): void {
    ex.params = params;
    // The automatic answer carries the path's own tail (its routes share a mount), not the fallback's.
    ex.compiled = routes.values().next().value;
    const head: HeaderList = ['allow', allow];
    for (const route of routes.values()) {
      if (!route.options) continue;
      for (const hook of route.options) {
        const extra = hook(ex);
        if (extra) {
          for (const [k, val] of extra) head.push(k, val);
          ex.sendRaw(204, head);
          return;
        }
      }
    }
    ex.send(204, head, undefined);
  }

  /** The exception funnel: custom handler (nearest class) → Problem/adapter body → 500. */
  fail(ex: ExchangeImpl, error: unknown, extra?: HeaderList): void {
    if (ex.res.headersSent) {
      this.log.error(`${ex.method} ${ex.path} failed after the response started`, error);
      ex.res.destroy();
      return;
    }
    const handler = error instanceof Error ? this.#handlerFor(error) : undefined;
    if (handler) {
      let result: unknown;
      try {
        result = handler.handleException(error as Error);
      } catch (failure) {
        this.#handlerFailed(ex, error, failure);
        return;
      }
      if (result instanceof Promise) {
        result.then(
          (value: unknown) => this.#afterHandler(ex, error, value, handler, extra),
          (failure: unknown) => this.#handlerFailed(ex, error, failure),
        );
        return;
      }
      this.#afterHandler(ex, error, result, handler, extra);
      return;
    }
    this.#renderDefault(ex, error, extra);
  }

  #afterHandler(
    ex: ExchangeImpl,
    error: unknown,
    result: unknown,
    handler: ExceptionHandler,
    extra: HeaderList | undefined,
  ): void {
    try {
      if (result === undefined) this.#renderDefault(ex, error, extra);
      else if (result instanceof ExceptionResponse) {
        const writer = this.handlerWriters.get(handler);
        if (writer) writer(result, ex);
        else writeAdHoc(result, ex, this.resolver);
      } else if (result instanceof BaseHTTPError) this.#sendRendered(ex, result.render(this.adapter), extra);
      else
        throw new TypeError(
          `exception handler for ${handler.exception.name} returned neither an ExceptionResponse, an HTTP error nor undefined`,
        );
    } catch (failure) {
      this.#handlerFailed(ex, error, failure);
    }
  }

  #handlerFailed(ex: ExchangeImpl, error: unknown, failure: unknown): void {
    this.log.error(
      `${ex.method} ${ex.path}: the exception handler failed while handling ${describe(error)}`,
      failure,
    );
    if (!ex.res.headersSent) this.#sendRendered(ex, new InternalServerError().render(), undefined);
  }

  #renderDefault(ex: ExchangeImpl, error: unknown, extra: HeaderList | undefined): void {
    let rendered: RenderedError;
    if (error instanceof BaseHTTPError) rendered = error.render(this.adapter);
    else {
      this.log.error(`${ex.method} ${ex.path} failed with an uncaught exception`, error);
      rendered = new InternalServerError().render(this.adapter);
    }
    this.#sendRendered(ex, rendered, extra);
  }

  #sendRendered(ex: ExchangeImpl, rendered: RenderedError, extra: HeaderList | undefined): void {
    const head: HeaderList = ['content-type', rendered.contentType];
    if (extra) head.push(...extra);
    if (rendered.status === 413 || rendered.status === 408 || rendered.status === 431)
      head.push('connection', 'close');
    ex.send(rendered.status, head, rendered.body);
  }

  #handlerFor(error: Error): ExceptionHandler | undefined {
    if (this.handlers.size === 0) return undefined;
    const ctor = error.constructor;
    const cached = this.#handlerCache.get(ctor);
    if (cached !== undefined) return cached ?? undefined;
    let found: ExceptionHandler | undefined;
    for (
      let c: object | null = ctor;
      c && c !== Object && c !== Function.prototype;
      c = Object.getPrototypeOf(c) as object | null
    ) {
      found = this.handlers.get(c);
      if (found) break;
    }
    this.#handlerCache.set(ctor, found ?? null);
    return found;
  }

  upgrade(req: IncomingMessage, socket: Duplex, head: Buffer): void {
    const url = req.url ?? '/';
    const q = url.indexOf('?');
    const match = this.upgrades.find('GET', q < 0 ? url : url.slice(0, q));
    if (!match?.route) {
      socket.end(
        'HTTP/1.1 404 Not Found\r\ncontent-type: application/problem+json\r\nconnection: close\r\ncontent-length: 55\r\n\r\n{"type":"not-found","title":"Not found","status":404}\n'.replace(
          '55',
          String(Buffer.byteLength('{"type":"not-found","title":"Not found","status":404}\n')),
        ),
      );
      return;
    }
    Promise.resolve(match.route.handle(req, socket, head, match.params)).catch((error: unknown) => {
      this.log.error(`upgrade ${url} failed`, error);
      socket.destroy();
    });
  }
}

function describe(error: unknown): string {
  return error instanceof Error ? error.constructor.name : typeof error;
}

function observeOnFinish(route: CompiledRoute, ex: ExchangeImpl): void {
  const observers = route.observers!;
  ex.res.once('finish', () => {
    const duration = performance.now() - ex.receivedAt;
    for (const observe of observers) {
      try {
        observe(ex, ex.status, duration);
      } catch (error) {
        ex.runtime.log.warn(`${ex.method} ${ex.path}: an observe hook failed (ignored)`, error);
      }
    }
  });
}

/** Runs one compiled route. The fast path stays synchronous until the handler returns. */
export function runRoute(route: CompiledRoute, ex: ExchangeImpl): void {
  if (route.timed) ex.receivedAt = performance.now();
  if (route.observers) observeOnFinish(route, ex);
  if (route.custom) {
    try {
      const done = route.custom(ex);
      if (done instanceof Promise) done.catch((error: unknown) => ex.fail(error));
    } catch (error) {
      ex.fail(error);
    }
    return;
  }
  if (!route.fast) {
    runSlow(route, ex).catch((error: unknown) => ex.fail(error));
    return;
  }
  try {
    const keys = route.keys;
    const binders = route.binders;
    const input: Record<string, unknown> = {};
    for (let i = 0; i < keys.length; i++) input[keys[i]!] = binders[i]!(ex);
    const out = route.handler!(input);
    if (out instanceof Promise) {
      out.then(
        (value: unknown) => writeSafely(route, value, ex),
        (error: unknown) => ex.fail(error),
      );
    } else {
      const written = route.write!(out, ex);
      if (written instanceof Promise) written.catch((error: unknown) => ex.fail(error));
    }
  } catch (error) {
    ex.fail(error);
  }
}

function writeSafely(route: CompiledRoute, value: unknown, ex: ExchangeImpl): void {
  try {
    const written = route.write!(value, ex);
    if (written instanceof Promise) written.catch((error: unknown) => ex.fail(error));
  } catch (error) {
    ex.fail(error);
  }
}

async function runSlow(route: CompiledRoute, ex: ExchangeImpl): Promise<void> {
  if (route.intercepts) {
    for (const intercept of route.intercepts) {
      const answer = await intercept(ex);
      if (answer !== undefined) {
        writeAdHoc(answer, ex, ex.runtime.resolver);
        return;
      }
    }
  }
  if (route.before) for (const step of route.before) await step(ex);
  const keys = route.keys;
  const binders = route.binders;
  const input: Record<string, unknown> = {};
  for (let i = 0; i < keys.length; i++) {
    let value = binders[i]!(ex);
    if (value instanceof Promise) value = await value;
    input[keys[i]!] = value;
  }
  let out = route.handler!(input);
  if (out instanceof Promise) out = await out;
  const written = route.write!(out, ex);
  if (written instanceof Promise) await written;
}

/** The per-request context. */
export class ExchangeImpl implements Exchange {
  params: readonly string[] = EMPTY_PARAMS;
  receivedAt = 0;
  status = 0;
  compiled: CompiledRoute | undefined = undefined;
  #state: Record<string | symbol, unknown> | undefined = undefined;

  constructor(
    readonly runtime: Runtime,
    readonly req: IncomingMessage,
    readonly res: ServerResponse,
    readonly method: string,
    readonly path: string,
    readonly query: string,
  ) {}

  get route(): RouteInfo | undefined {
    return this.compiled?.info;
  }

  get state(): Record<string | symbol, unknown> {
    return (this.#state ??= {});
  }

  #head(status: number, headers: HeaderList): void {
    const route = this.compiled ?? this.runtime.fallback;
    const tail = route.tail;
    for (let i = 0; i < tail.length; i++) headers.push(tail[i]!);
    if (route.dynamic) {
      for (const hook of route.dynamic) {
        let pairs: ReadonlyArray<readonly [string, string]> | undefined;
        try {
          pairs = hook(this, status);
        } catch (error) {
          // The response is already decided; a failing header hook cannot change it.
          this.runtime.log.error(
            `${this.method} ${this.path}: a response-header hook failed (headers skipped)`,
            error,
          );
        }
        if (pairs) for (const [k, val] of pairs) headers.push(k, val);
      }
    }
    this.status = status;
  }

  send(status: number, headers: HeaderList, body?: string | Uint8Array): void {
    this.#head(status, headers);
    if (body === undefined) {
      if (status !== 204 && status !== 304 && status >= 200) headers.push('content-length', '0');
      this.res.writeHead(status, headers);
      this.res.end();
      return;
    }
    headers.push(
      'content-length',
      typeof body === 'string' ? '' + Buffer.byteLength(body) : '' + body.byteLength,
    );
    this.res.writeHead(status, headers);
    if (this.method === 'HEAD') this.res.end();
    else this.res.end(body);
  }

  /** Sends a bodiless answer without the route tail (preflights carry their own block). */
  sendRaw(status: number, headers: HeaderList): void {
    this.status = status;
    this.res.writeHead(status, headers);
    this.res.end();
  }

  sendHead(status: number, headers: HeaderList): boolean {
    this.#head(status, headers);
    this.res.writeHead(status, headers);
    if (this.method === 'HEAD') {
      this.res.end();
      return false;
    }
    return true;
  }

  fail(error: unknown, extra?: HeaderList): void {
    this.runtime.fail(this, error, extra);
  }
}
