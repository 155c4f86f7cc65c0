import type { IncomingMessage, ServerResponse } from 'node:http';
import type { Duplex } from 'node:stream';
import type { Exchange, HeaderList, Logger, RouteInfo } from '../extension/types';
import type { Plan, HeaderPairs } from './plan';
import type { Later } from '../binding/later';
import { closeAfterResponse, type LingerLimits } from '../server/linger';

const EMPTY_PARAMS: readonly string[] = Object.freeze([]);

/** What an exchange needs from the runtime that created it. */
export interface ExchangeHost {
  readonly log: Logger;
  /** The plan whose tail unrouted answers carry (app-wide middleware, CORS). */
  readonly fallback: Plan;
  /** True once shutdown began: every response says `connection: close`. */
  readonly draining: boolean;
  /** Bounds of the lingering close after an early refusal. */
  readonly limits: LingerLimits;
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
  #state: Record<string | symbol, unknown> | undefined = undefined;

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
    return this.host.log;
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
          this.host.log.error(
            `${this.method} ${this.path}: a response-header hook failed (headers skipped)`,
            error,
          );
        }
        if (pairs) for (const [k, val] of pairs) headers.push(k, val);
      }
    }
    // Shutdown, a refusal that ends the connection, or a body nobody will read: say so and close
    // the socket after this response, instead of draining an unbounded body it will not use (a body
    // still arriving gets a bounded lingering close, so the client reads this answer, not a reset).
    const unread = hasUnreadBody(this.req);
    if (unread || this.closeAfter || this.host.draining) {
      headers.push('connection', 'close');
      closeAfterResponse(this.req.socket, this.host.limits, unread);
    }
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
    if (this.host.draining) {
      headers.push('connection', 'close');
      closeAfterResponse(this.req.socket, this.host.limits, hasUnreadBody(this.req));
    }
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
    return headers;
  }

  takeOver(): { readonly socket: Duplex; readonly head: Buffer } {
    const upgrade = this.upgrade;
    if (upgrade === undefined)
      throw new TypeError(`${this.method} ${this.path}: takeOver() on a request that is not an upgrade`);
    if (this.res.headersSent)
      throw new TypeError(`${this.method} ${this.path}: takeOver() after the response started`);
    const socket = this.req.socket;
    this.res.detachSocket(socket);
    this.status = 101;
    this.host.adopt(this, socket);
    const finished = this.finished;
    if (finished) {
      this.res.off('finish', finished);
      finished();
    }
    return { socket, head: upgrade.head };
  }
}

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
