import type { IncomingMessage, ServerResponse } from 'node:http';
import type { Duplex } from 'node:stream';
import type { Exchange, HeaderList, Logger, RouteInfo, TakenOver } from '../extension/types';
import type { Plan, HeaderPairs } from './plan';
import type { Later } from '../binding/later';
import { RequestLogger } from '../logging/request-logger';
import { requestIdOf } from '../request-log/request-id';
import { watchClose } from './observe-close';

const EMPTY_PARAMS: readonly string[] = Object.freeze([]);

/** What an exchange needs from the runtime that created it. */
export interface ExchangeHost {
  readonly log: Logger;
  /** The plan whose tail unrouted answers carry (app-wide middleware, CORS). */
  readonly fallback: Plan;
  /** True once shutdown began: every response says `connection: close`. */
  readonly draining: boolean;
  /** True when the app has request ids (request log, or a `requestId` source): log lines carry them. */
  readonly requestIds: boolean;
  /** Aborted when shutdown begins (one signal for the app). */
  readonly shutdownSignal: AbortSignal;
  fail(ex: ExchangeImpl, error: unknown, extra?: HeaderList): void;
  /** Exchanges whose request body is being read (shutdown answers them 503 at its cap). */
  readonly reading: Set<ExchangeImpl>;
  /** Takes a connection out of the in-flight count and tracks it as an upgraded socket. */
  adopt(ex: ExchangeImpl, socket: Duplex): void;
}

/** The per-request context: one object per request, nothing else allocated for routing. */
export class ExchangeImpl implements Exchange {
  params: readonly string[] = EMPTY_PARAMS;
  receivedAt = 0;
  status = 0;
  plan: Plan | undefined = undefined;
  upgrade: { readonly head: Buffer } | undefined = undefined;
  /** Runs the plan's observers once; set by the runner when a plan has observers. */
  finished: (() => void) | undefined = undefined;
  /** Set by the funnel for refusals that end the connection (408, 413, 431). */
  closeAfter = false;
  /** The request body, read once by whichever body binder asks first. */
  body: Later<Buffer> | undefined = undefined;
  /** The socket's byte count when this response started (observed routes; -1: not counted). */
  bytesBefore = -1;
  /** Set when a route's `around` chain reached its run (checked by the outermost hook). */
  entered = false;
  #state: Record<string | symbol, unknown> | undefined = undefined;
  #requestId: string | undefined = undefined;
  #log: Logger | undefined = undefined;

  // Positional on purpose: one construction per request on the hot path, from one call site.
  constructor(
    readonly host: ExchangeHost,
    readonly req: IncomingMessage,
    readonly res: ServerResponse,
    readonly method: string,
    readonly path: string,
    readonly query: string,
  ) {}

  get route(): RouteInfo | undefined {
    return this.plan?.info;
  }

  get log(): Logger {
    return (this.#log ??= new RequestLogger(this.host.log, this, this.host.requestIds));
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
    else this.res.once('socket', (s: import('node:net').Socket) => (this.bytesBefore = s.bytesWritten ?? 0));
  }

  get shutdownSignal(): AbortSignal {
    return this.host.shutdownSignal;
  }

  get state(): Record<string | symbol, unknown> {
    return (this.#state ??= {});
  }

  /** Appends the tail of the route (or of the fallback) and records the status. */
  #head(status: number, headers: HeaderList, plan: Plan, options = false): void {
    const tail = options ? plan.optionsTail : plan.tail;
    for (let i = 0; i < tail.length; i++) headers.push(tail[i]!);
    const dynamic = options ? plan.optionsDynamic : plan.dynamic;
    if (dynamic) {
      for (const hook of dynamic) {
        let pairs: HeaderPairs | undefined;
        try {
          pairs = hook(this, status);
        } catch (error) {
          // The response is already decided; a failing header hook cannot change it.
          this.log.error(
            `${this.method} ${this.path}: a response-header hook failed (headers skipped)`,
            error,
          );
        }
        if (pairs) for (const [k, val] of pairs) headers.push(k, val);
      }
    }
    // Shutdown, a refusal that ends the connection, or a body nobody will read: say so and let node
    // close the socket after this response, instead of draining an unbounded body it will not use.
    if (this.closeAfter || this.host.draining || hasUnreadBody(this.req)) headers.push('connection', 'close');
    if (this.host.requestIds) headers.push('x-request-id', this.requestId);
    this.status = status;
  }

  send(status: number, headers: HeaderList, body?: string | Uint8Array): void {
    this.#head(status, headers, this.plan ?? this.host.fallback);
    if (body === undefined) {
      // 204 and 304 carry no body framing at all (not even content-type given as a raw header).
      if (status === 204 || status === 304) withoutFraming(headers);
      else if (status >= 200) headers.push('content-length', '0');
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

  /** Sends a bodiless answer with its own complete header block (an accepted preflight). */
  sendRaw(status: number, headers: HeaderList): void {
    if (this.host.draining) headers.push('connection', 'close');
    if (this.host.requestIds) headers.push('x-request-id', this.requestId);
    this.status = status;
    this.res.writeHead(status, headers);
    this.res.end();
  }

  /** The automatic OPTIONS answer: 204 with the plan's OPTIONS tail (no CORS block: that is the preflight's). */
  sendOptions(headers: HeaderList): void {
    this.#head(204, headers, this.plan ?? this.host.fallback, true);
    this.res.writeHead(204, headers);
    this.res.end();
  }

  sendHead(status: number, headers: HeaderList): boolean {
    this.#head(status, headers, this.plan ?? this.host.fallback);
    this.res.writeHead(status, headers);
    if (this.method === 'HEAD') {
      this.res.end();
      return false;
    }
    // The head goes out with the first chunk the writer sends (one write, not two).
    return true;
  }

  fail(error: unknown, extra?: HeaderList): void {
    this.host.fail(this, error, extra);
  }

  routeHeaders(status: number): HeaderList {
    const plan = this.plan ?? this.host.fallback;
    const headers: HeaderList = plan.tail.slice();
    if (plan.dynamic)
      for (const hook of plan.dynamic) {
        const pairs = hook(this, status);
        if (pairs) for (const [k, val] of pairs) headers.push(k, val);
      }
    if (this.host.requestIds) headers.push('x-request-id', this.requestId);
    return headers;
  }

  takeOver(): TakenOver {
    const upgrade = this.upgrade;
    if (upgrade === undefined)
      throw new TypeError(`${this.method} ${this.path}: takeOver() on a request that is not an upgrade`);
    if (this.res.headersSent)
      throw new TypeError(`${this.method} ${this.path}: takeOver() after the response started`);
    const socket = this.req.socket;
    this.res.detachSocket(socket);
    this.status = 101;
    this.bytesBefore = -1;
    this.host.adopt(this, socket);
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

/** Removes content-type / content-length / transfer-encoding pairs (a 204 or 304 has no body). */
function withoutFraming(headers: HeaderList): void {
  for (let i = headers.length - 2; i >= 0; i -= 2) {
    const name = headers[i]!.toLowerCase();
    if (name === 'content-type' || name === 'content-length' || name === 'transfer-encoding')
      headers.splice(i, 2);
  }
}

/** True while a request still has body bytes on the wire (declared by content-length or chunked). */
function hasUnreadBody(req: IncomingMessage): boolean {
  if (req.complete) return false;
  const headers = req.headers;
  if (headers['transfer-encoding'] !== undefined) return true;
  const length = headers['content-length'];
  return length !== undefined && length !== '0';
}
