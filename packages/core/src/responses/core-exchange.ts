import type { Socket } from 'node:net';
import { performance } from 'node:perf_hooks';
import type { BodyEncoder } from '../contract/body-transform';
import type { HeaderList, TakenOver } from '../contract/exchange';
import type { Logger } from '../logging/logger';
import type { RouteInfo } from '../contract/route-info';
import type { WireRequest, WireResponse } from '../contract/wire';
import { assertNoFraming, dropBodyFraming } from '../http/framing';
import { pushConstantsOnce } from '../http/owned-fields';
import type { WriterExchange } from './writers';
import type { StreamedBody } from './streamed-body';
import type { RoutePlan } from '../contract/route-plan';
import type { Later } from '../binding/body';
import { RequestLogger } from '../logging/request-logger';
import { requestIdOf } from '../logging/request-id';
import { watchClose } from './observe-close';
import { RequestControl } from './request-control';
import type { ExchangeRuntime, Upgrade } from './exchange-runtime';
import { addDynamicHeaders, consultTransform, encodeAnswer } from './answer-hooks';

const EMPTY_PARAMS: readonly string[] = Object.freeze([]);

/**
 * Core's exchange: the one class behind the public `Exchange`, built by both transports (node:http
 * in `transport/node/handle.ts`, `app.fetch` in `transport/fetch/fetch-handler.ts`); one object per request, nothing
 * else allocated for routing. It owns the response's head and body: every answer leaves through
 * `answer` (buffered) or `startBody` (streamed), which add the route headers (constant, then
 * dynamic), let the route's body transform see the final head, and frame the body
 * (`content-length`, `connection`) themselves.
 */
export class CoreExchange implements WriterExchange {
  #params: readonly string[] = EMPTY_PARAMS;
  #receivedAt = 0;
  status = 0;
  #plan: RoutePlan | undefined = undefined;
  #upgrade: Upgrade | undefined = undefined;
  /** Runs the plan's observers once (`onFinished`); the runner arms it when a plan has observers. */
  #finished: (() => void) | undefined = undefined;
  /** The answer closes the connection (`closeAfterAnswer`: refusals, a body refused mid-read). */
  #closeAfter = false;
  /**
   * Set once the funnel answers with an error (`beginErrorAnswer`): a response-header hook or the
   * body transform failing from then on is logged and skipped, so the error leaves with its own status.
   */
  #answeringError = false;
  /** The request body, read once by whichever body binder asks first (`keepBody`). */
  #body: Later<Buffer> | undefined = undefined;
  /** Its place in `runtime.reading` while its body is read (-1: not); only `Uploads` writes it. */
  readingAt = -1;
  /** The socket's byte count when this response started (observed routes; -1: not counted). */
  bytesBefore = -1;
  /** Set when a route's `around` chain reached the run inside it (checked by the outermost hook). */
  #aroundReached = false;
  /** The request's signal and deadline (routes that bind `signal` or have a deadline). */
  #control: RequestControl | undefined = undefined;
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
    return this.#plan?.info;
  }

  /** The route's plan (the fallback's answers: undefined, or the path's sibling plan). */
  get plan(): RoutePlan | undefined {
    return this.#plan;
  }

  get params(): readonly string[] {
    return this.#params;
  }

  get receivedAt(): number {
    return this.#receivedAt;
  }

  get finished(): (() => void) | undefined {
    return this.#finished;
  }

  get answeringError(): boolean {
    return this.#answeringError;
  }

  get body(): Later<Buffer> | undefined {
    return this.#body;
  }

  get aroundReached(): boolean {
    return this.#aroundReached;
  }

  get control(): RequestControl | undefined {
    return this.#control;
  }

  /** The router found the plan that answers (`params`: the path's slot values, when it has slots). */
  /** The upgrade request's node objects (node:http only), or undefined for an ordinary request. */
  get upgrade(): Upgrade | undefined {
    return this.#upgrade;
  }

  /** Marks the request as an upgrade (node:http's `upgrade` event): `takeOver()` may then detach its socket. */
  acceptUpgrade(upgrade: Upgrade): void {
    this.#upgrade = upgrade;
  }

  routeTo(plan: RoutePlan | undefined, params?: readonly string[]): void {
    if (params !== undefined) this.#params = params;
    this.#plan = plan;
  }

  /** Stamps `receivedAt` now (`always: false`: only when nothing stamped it yet). */
  stampReceived(always: boolean): void {
    if (always || this.#receivedAt === 0) this.#receivedAt = performance.now();
  }

  /** Gives the request its signal and deadline (routes that bind `signal` or have a deadline). */
  startControl(deadlineMs: number | undefined): void {
    this.#control = new RequestControl(this, deadlineMs);
    this.res.watchClient?.();
  }

  /** The answer also closes the connection (a refusal, or a body left unread mid-way). */
  closeAfterAnswer(): void {
    this.#closeAfter = true;
  }

  /** The funnel answers with an error from now on: failing hooks are logged and skipped. */
  beginErrorAnswer(): void {
    this.#answeringError = true;
  }

  /** Keeps the request body's one read (the body binders share it). */
  keepBody(body: Later<Buffer>): void {
    this.#body = body;
  }

  /** The route's `around` chain reached the run inside it. */
  reachAround(): void {
    this.#aroundReached = true;
  }

  /**
   * Arms `finished` (the plan's observers) to run when the response closes, or at a takeover; it
   * calls `disarmFinished` first, so it runs once.
   */
  onFinished(finished: () => void): void {
    this.#finished = finished;
    // One listener: node emits 'close' on every response, right after 'finish' or at a disconnect.
    // 'on', not 'once': no wrapper per request; the response object is dropped after 'close' anyway.
    this.res.on('close', finished);
  }

  /** True when `finished` is the armed one, which it no longer is: its observers run now. */
  disarmFinished(finished: () => void): boolean {
    if (this.#finished !== finished) return false;
    this.#finished = undefined;
    return true;
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
      if (clash !== undefined && !this.#answeringError) throw clash;
      if (clash !== undefined)
        this.log.error(`${this.method} ${this.path}: the ${status} error answer keeps its own header`, clash);
    }
    const dynamic = options ? plan.optionsDynamicHeaders : plan.dynamicHeaders;
    if (dynamic !== undefined) addDynamicHeaders(this, dynamic, status, headers);
    if (this.runtime.requestIds) headers.push('x-request-id', this.requestId);
    this.status = status;
  }

  /** Sends a complete answer for an extension (a custom route): its header names are checked first. */
  send(status: number, headers: HeaderList, body?: string | Uint8Array): void {
    assertNoFraming(headers, status, `${this.method} ${this.path}: ex.send`);
    this.answer(status, headers, body);
  }

  answer(status: number, headers: HeaderList, body?: string | Uint8Array): void {
    const plan = this.#plan ?? this.runtime.fallback;
    this.#head(status, headers, plan, false);
    const transform = plan.transform;
    if (transform === undefined || status === 204 || this.#plain) this.closeAnswer(status, headers, body);
    else encodeAnswer(this, transform, status, headers, body);
  }

  /** The encoder failed: the answer becomes a logged 500, sent without the transform. */
  encodeFailed(error: unknown): void {
    this.#plain = true;
    this.runtime.fail(this, error);
  }

  /** Frames and sends a buffered answer whose head is final (`encodeAnswer` calls it once encoded). */
  closeAnswer(status: number, headers: HeaderList, body: string | Uint8Array | undefined): void {
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
    if (unread || this.#closeAfter || this.runtime.draining) this.#closeConnection(headers, unread);
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
      this.#head(204, headers, this.#plan ?? this.runtime.fallback, true);
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
    this.#head(status, headers, this.#plan ?? this.runtime.fallback, false);
    return this.#open(status, headers, undefined);
  }

  startBody(status: number, headers: HeaderList, body: StreamedBody): boolean {
    const plan = this.#plan ?? this.runtime.fallback;
    this.#head(status, headers, plan, false);
    let encoder: BodyEncoder | undefined;
    const transform = plan.transform;
    if (transform !== undefined && status !== 204 && status !== 304 && !this.#plain)
      encoder = consultTransform(this, transform, { status, headers, length: undefined });
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
    const plan = this.#plan ?? this.runtime.fallback;
    const headers: HeaderList = plan.constantHeaders.slice();
    // Dynamic headers fail closed here as on every other answer (a framing name, a throw).
    if (plan.dynamicHeaders) addDynamicHeaders(this, plan.dynamicHeaders, status, headers);
    if (this.runtime.requestIds) headers.push('x-request-id', this.requestId);
    return headers;
  }

  takeOver(): TakenOver {
    const upgrade = this.#upgrade;
    if (upgrade === undefined)
      throw new TypeError(`${this.method} ${this.path}: takeOver() on a request that is not an upgrade`);
    if (this.res.headersSent)
      throw new TypeError(`${this.method} ${this.path}: takeOver() after the response started`);
    const socket = upgrade.request.socket;
    upgrade.response.detachSocket(socket);
    this.status = 101;
    this.bytesBefore = -1;
    this.runtime.adopt(this, socket);
    const finished = this.#finished;
    if (finished) {
      this.res.off('close', finished);
      finished();
    }
    const closers = this.#plan?.closeObservers;
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
