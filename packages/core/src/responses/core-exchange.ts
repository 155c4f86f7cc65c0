import type { IncomingMessage, ServerResponse } from 'node:http';
import type { Socket } from 'node:net';
import type { Duplex } from 'node:stream';
import type { BodyEncoder, BodyTransform } from '../contract/body-transform';
import type { HeaderList, TakenOver } from '../contract/exchange';
import type { Logger } from '../logging/logger';
import type { RouteInfo } from '../contract/route-info';
import type { ConnectionControl, WireRequest, WireResponse } from '../contract/wire';
import { assertNoFraming, dropBodyFraming } from '../http/framing';
import { assertHookPairs, pushConstantsOnce } from '../http/owned-fields';
import type { WriterExchange } from './writers';
import type { StreamedBody } from './streamed-body';
import type { HeaderPairs, RoutePlan } from '../contract/route-plan';
import type { Later } from '../binding/body';
import type { BindingExchange } from '../binding/binders';
import type { Uploads } from '../binding/body';
import { RequestLogger } from '../logging/request-logger';
import { requestIdOf } from '../logging/request-id';
import { watchClose } from './observe-close';
import { hookFailure } from './hook-failure';
import type { RequestControl } from './request-control';

const EMPTY_PARAMS: readonly string[] = Object.freeze([]);

/** An upgrade request's node objects (node:http only): the request, its response object, the head bytes. */
interface Upgrade {
  readonly head: Buffer;
  readonly request: IncomingMessage;
  readonly response: ServerResponse;
}

/**
 * The runtime as an exchange sees it (`Runtime` implements it; the same one for node:http and
 * `app.fetch`): what an exchange needs from the runtime that created it.
 */
export interface ExchangeRuntime {
  readonly log: Logger;
  /** The plan whose route headers unrouted answers carry (app-wide middleware, CORS). */
  readonly fallback: RoutePlan;
  /** True once shutdown began: every response says `connection: close`. */
  readonly draining: boolean;
  /** The transport's control of the connection (the lingering close after an early refusal). */
  readonly connections: ConnectionControl;
  /** True when the app has request ids (request log, or a `requestId` source): echoed and logged. */
  readonly requestIds: boolean;
  /** Aborted when shutdown begins (one signal for the app). */
  readonly shutdownSignal: AbortSignal;
  /** True once the shutdown cap was reached (a request's own `signal` then aborts). */
  readonly capped: boolean;
  /** Requests whose `signal` is live, aborted at the shutdown cap. */
  readonly signalled: Set<RequestControl>;
  fail(ex: CoreExchange, error: unknown, extra?: HeaderList): void;
  /** Exchanges whose request body is being read (shutdown answers them 503 at its cap). */
  readonly reading: Uploads<BindingExchange>;
  /** Takes a connection out of the in-flight count and tracks it as an upgraded socket. */
  adopt(ex: CoreExchange, socket: Duplex): void;
}

/**
 * Core's exchange: the one class behind the public `Exchange`, built by both transports (node:http
 * in `transport/node/handle.ts`, `app.fetch` in `transport/fetch/fetch-handler.ts`); one object per request, nothing
 * else allocated for routing. It owns the response's head and body: every answer leaves through
 * `answer` (buffered) or `startBody` (streamed), which add the route headers (constant, then
 * dynamic), let the route's body transform see the final head, and frame the body
 * (`content-length`, `connection`) themselves.
 */
export class CoreExchange implements WriterExchange {
  params: readonly string[] = EMPTY_PARAMS;
  receivedAt = 0;
  status = 0;
  plan: RoutePlan | undefined = undefined;
  upgrade: Upgrade | undefined = undefined;
  /** Runs the plan's observers once; set by the runner when a plan has observers. */
  finished: (() => void) | undefined = undefined;
  /** Set by the funnel for refusals that end the connection (408, 413, 431). */
  closeAfter = false;
  /**
   * Set by the funnel once it answers with an error: a response-header hook or the body transform
   * failing from then on is logged and skipped, so the error leaves with its own status.
   */
  answeringError = false;
  /** The request body, read once by whichever body binder asks first. */
  body: Later<Buffer> | undefined = undefined;
  /** This exchange's place in `runtime.reading` while its body is read (-1: not reading). */
  readingAt = -1;
  /** The socket's byte count when this response started (observed routes; -1: not counted). */
  bytesBefore = -1;
  /** Set when a route's `around` chain reached the run inside it (checked by the outermost hook). */
  aroundReached = false;
  /** The request's signal and deadline (routes that bind `signal` or have a deadline). */
  control: RequestControl | undefined = undefined;
  #state: Record<string | symbol, unknown> | undefined = undefined;
  #requestId: string | undefined = undefined;
  #log: Logger | undefined = undefined;
  /** The route's body transform failed for this request: its error answer is sent unencoded. */
  #plain = false;

  // Positional on purpose: one construction per request on the hot path, from one call site.
  constructor(
    readonly runtime: ExchangeRuntime,
    readonly req: WireRequest,
    readonly res: WireResponse,
    readonly method: string,
    readonly path: string,
    readonly query: string,
  ) {}

  get route(): RouteInfo | undefined {
    return this.plan?.info;
  }

  get log(): Logger {
    return (this.#log ??= new RequestLogger(this.runtime.log, this, this.runtime.requestIds));
  }

  get requestId(): string {
    return (this.#requestId ??= requestIdOf(this.req.rawHeaders));
  }

  get bytesOut(): number {
    if (this.bytesBefore < 0) return 0;
    const written = this.req.socket?.bytesWritten;
    return written === undefined ? 0 : written - this.bytesBefore;
  }

  /** Starts counting `bytesOut`: now, or when a response queued behind a pipelined one gets the socket. */
  countBytes(): void {
    const socket = this.res.socket;
    if (socket) this.bytesBefore = socket.bytesWritten ?? 0;
    else this.res.once('socket', (s: Socket) => (this.bytesBefore = s.bytesWritten ?? 0));
  }

  get shutdownSignal(): AbortSignal {
    return this.runtime.shutdownSignal;
  }

  get state(): Record<string | symbol, unknown> {
    return (this.#state ??= {});
  }

  /** Appends the route headers of the route (or of the fallback): constant, then dynamic; records the status. */
  #head(status: number, headers: HeaderList, plan: RoutePlan, options: boolean): void {
    const constant = options ? plan.optionsConstantHeaders : plan.constantHeaders;
    const once = options ? undefined : plan.constantOnce;
    if (once === undefined) for (let i = 0; i < constant.length; i++) headers.push(constant[i]!);
    else {
      // A field sent once that the answer carries itself: a normal answer fails closed, an error keeps its own.
      const clash = pushConstantsOnce(headers, constant, once);
      if (clash !== undefined && !this.answeringError) throw clash;
      if (clash !== undefined)
        this.log.error(`${this.method} ${this.path}: the ${status} error answer keeps its own header`, clash);
    }
    const dynamic = options ? plan.optionsDynamicHeaders : plan.dynamicHeaders;
    if (dynamic !== undefined) this.#addDynamicHeaders(dynamic, status, headers);
    if (this.runtime.requestIds) headers.push('x-request-id', this.requestId);
    this.status = status;
  }

  /**
   * Runs the dynamic header hooks. One failing (a throw, its own headers failing to bind, a framing
   * header, a field the response owns or a second line of one sent once) fails a normal answer
   * closed: the error goes to the funnel instead of a response without the headers the app asked
   * for. On an error answer it is logged and skipped.
   */
  #addDynamicHeaders(
    hooks: NonNullable<RoutePlan['dynamicHeaders']>,
    status: number,
    headers: HeaderList,
  ): void {
    for (const hook of hooks) {
      let pairs: HeaderPairs | undefined;
      try {
        pairs = hook(this, status);
        if (pairs !== undefined) assertHookPairs(pairs, status, headers, 'a response-header hook');
      } catch (error) {
        if (!this.answeringError) throw hookFailure(error);
        this.log.error(
          `${this.method} ${this.path}: a response-header hook failed while ` +
            `the ${status} error answer was assembled (its headers are left out)`,
          error,
        );
        continue;
      }
      if (pairs !== undefined) for (const [name, value] of pairs) headers.push(name, value);
    }
  }

  /** Sends a complete answer for an extension (a custom route): its header names are checked first. */
  send(status: number, headers: HeaderList, body?: string | Uint8Array): void {
    assertNoFraming(headers, status, `${this.method} ${this.path}: ex.send`);
    this.answer(status, headers, body);
  }

  answer(status: number, headers: HeaderList, body?: string | Uint8Array): void {
    const plan = this.plan ?? this.runtime.fallback;
    this.#head(status, headers, plan, false);
    const transform = plan.transform;
    if (transform === undefined || status === 204 || this.#plain) this.#close(status, headers, body);
    else this.#encode(transform, status, headers, body);
  }

  /** The buffered answer under a body transform: it sees the final head, then may encode (async). */
  #encode(transform: BodyTransform, status: number, headers: HeaderList, body?: string | Uint8Array): void {
    const bytes = typeof body === 'string' ? Buffer.from(body) : body;
    const encoder = this.#consult(transform, status, headers, bytes === undefined ? 0 : bytes.byteLength);
    if (encoder === undefined || bytes === undefined) {
      this.#close(status, headers, bytes);
      return;
    }
    let encoded: Uint8Array | Promise<Uint8Array>;
    try {
      encoded = encoder.encode(bytes);
    } catch (error) {
      this.#encodeFailed(error);
      return;
    }
    if (!(encoded instanceof Promise)) {
      this.#close(status, headers, encoded);
      return;
    }
    encoded.then(
      (out) => {
        try {
          this.#close(status, headers, out);
        } catch (error) {
          this.runtime.fail(this, error);
        }
      },
      (error: unknown) => this.#encodeFailed(error),
    );
  }

  /** Asks the route's transform about this answer; its failure fails a normal answer closed. */
  #consult(
    transform: BodyTransform,
    status: number,
    headers: HeaderList,
    length: number | undefined,
  ): BodyEncoder | undefined {
    const given = headers.length;
    let encoder: BodyEncoder | undefined;
    try {
      encoder = transform(this, { status, headers, length });
      assertNoFraming(headers, status, 'the body transform');
    } catch (error) {
      if (!this.answeringError) throw error;
      this.log.error(
        `${this.method} ${this.path}: the body transform failed on the ${status} error answer (sent unencoded)`,
        error,
      );
      headers.length = given;
      return undefined;
    }
    return encoder;
  }

  /** The encoder failed: the answer becomes a logged 500, sent without the transform. */
  #encodeFailed(error: unknown): void {
    this.#plain = true;
    this.runtime.fail(this, error);
  }

  /** Frames and sends a buffered answer whose head is final. */
  #close(status: number, headers: HeaderList, body: string | Uint8Array | undefined): void {
    this.#connection(headers);
    if (body === undefined) {
      // 204 and 304 carry no body framing at all (not even content-type given as a raw header).
      if (status === 204 || status === 304) dropBodyFraming(headers);
      else if (status >= 200) headers.push('content-length', '0');
      this.#writeHead(status, headers);
      this.res.end();
      return;
    }
    headers.push(
      'content-length',
      typeof body === 'string' ? '' + Buffer.byteLength(body) : '' + body.byteLength,
    );
    this.#writeHead(status, headers);
    if (this.method === 'HEAD') this.res.end();
    else this.res.end(body);
  }

  /**
   * Shutdown, a refusal that ends the connection, or a body nobody will read: say so and close
   * the socket after this response, instead of draining an unbounded body it will not use (a body
   * still arriving gets a bounded lingering close, so the client reads this answer, not a reset).
   */
  #connection(headers: HeaderList): void {
    const unread = hasUnreadBody(this.req);
    if (unread || this.closeAfter || this.runtime.draining) this.#closeConnection(headers, unread);
  }

  /** `connection: close`, and node's socket closes after this response (lingering while `unread`). */
  #closeConnection(headers: HeaderList, unread: boolean): void {
    headers.push('connection', 'close');
    // The fetch transport has no socket of its own: its server drops the header and keeps the connection.
    const socket = this.req.socket;
    if (socket) this.runtime.connections.closeAfterResponse(socket, unread);
  }

  /**
   * `res.writeHead`, leaving the response reusable when node refuses a header (a value outside
   * Latin-1): the status line of the error answer that follows gets its own reason phrase.
   */
  #writeHead(status: number, headers: HeaderList): void {
    try {
      this.res.writeHead(status, headers);
    } catch (error) {
      // writeHead set the reason phrase of the refused status before it failed (it would say
      // "500 OK"); an empty one is recomputed from the next status.
      this.res.statusMessage = '';
      throw error;
    }
  }

  /** Sends a bodiless answer with its own complete header block (an accepted preflight). */
  sendRaw(status: number, headers: HeaderList): void {
    try {
      assertNoFraming(headers, status, `${this.method} ${this.path}: an OPTIONS contribution`);
      if (this.runtime.draining) this.#closeConnection(headers, hasUnreadBody(this.req));
      if (this.runtime.requestIds) headers.push('x-request-id', this.requestId);
      this.status = status;
      this.#writeHead(status, headers);
    } catch (error) {
      this.runtime.fail(this, error);
      return;
    }
    this.res.end();
  }

  /**
   * The automatic OPTIONS answer: 204 with the plan's OPTIONS route headers (no CORS block: that is
   * the preflight's).
   */
  sendOptions(headers: HeaderList): void {
    try {
      this.#head(204, headers, this.plan ?? this.runtime.fallback, true);
      this.#connection(headers);
      this.#writeHead(204, headers);
    } catch (error) {
      this.runtime.fail(this, error);
      return;
    }
    this.res.end();
  }

  sendHead(status: number, headers: HeaderList): boolean {
    assertNoFraming(headers, status, `${this.method} ${this.path}: ex.sendHead`);
    this.#head(status, headers, this.plan ?? this.runtime.fallback, false);
    return this.#open(status, headers, undefined);
  }

  startBody(status: number, headers: HeaderList, body: StreamedBody): boolean {
    const plan = this.plan ?? this.runtime.fallback;
    this.#head(status, headers, plan, false);
    let encoder: BodyEncoder | undefined;
    const transform = plan.transform;
    if (transform !== undefined && status !== 204 && status !== 304 && !this.#plain)
      encoder = this.#consult(transform, status, headers, undefined);
    return this.#open(status, headers, body, encoder);
  }

  /** Sends a streamed answer's head; the body goes through `body` (and its encoder) from now on. */
  #open(status: number, headers: HeaderList, body: StreamedBody | undefined, encoder?: BodyEncoder): boolean {
    this.#connection(headers);
    this.#writeHead(status, headers);
    if (this.method === 'HEAD') {
      this.res.end();
      return false;
    }
    // The head goes out with the first chunk the writer sends (one write, not two).
    body?.open(encoder?.stream());
    return true;
  }

  fail(error: unknown, extra?: HeaderList): void {
    this.runtime.fail(this, error, extra);
  }

  routeHeaders(status: number): HeaderList {
    const plan = this.plan ?? this.runtime.fallback;
    const headers: HeaderList = plan.constantHeaders.slice();
    // Dynamic headers fail closed here as on every other answer (a framing name, a throw).
    if (plan.dynamicHeaders) this.#addDynamicHeaders(plan.dynamicHeaders, status, headers);
    if (this.runtime.requestIds) headers.push('x-request-id', this.requestId);
    return headers;
  }

  takeOver(): TakenOver {
    const upgrade = this.upgrade;
    if (upgrade === undefined)
      throw new TypeError(`${this.method} ${this.path}: takeOver() on a request that is not an upgrade`);
    if (this.res.headersSent)
      throw new TypeError(`${this.method} ${this.path}: takeOver() after the response started`);
    const socket = upgrade.request.socket;
    upgrade.response.detachSocket(socket);
    this.status = 101;
    this.bytesBefore = -1;
    this.runtime.adopt(this, socket);
    const finished = this.finished;
    if (finished) {
      this.res.off('close', finished);
      finished();
    }
    const closers = this.plan?.closeObservers;
    return { socket, head: upgrade.head, end: closers ? watchClose(this, closers, socket) : NO_REPORT };
  }
}

/** `TakenOver.end` of a route nobody observes the close of. */
const NO_REPORT = (): void => undefined;

/** True while a request still has body bytes on the wire (declared by content-length or chunked). */
export function hasUnreadBody(req: WireRequest): boolean {
  if (req.complete) return false;
  const headers = req.headers;
  if (headers['transfer-encoding'] !== undefined) return true;
  const length = headers['content-length'];
  return length !== undefined && length !== '0';
}
