import type { IncomingMessage, ServerResponse } from 'node:http';
import type { Duplex } from 'node:stream';
import type { Exchange, HeaderList, Logger, RouteInfo } from '../extension/types';
import type { Plan, HeaderPairs } from './plan';

const EMPTY_PARAMS: readonly string[] = Object.freeze([]);

/** What an exchange needs from the runtime that created it. */
export interface ExchangeHost {
  readonly log: Logger;
  /** The plan whose tail unrouted answers carry (app-wide middleware, CORS). */
  readonly fallback: Plan;
  /** True once shutdown began: every response says `connection: close`. */
  readonly draining: boolean;
  fail(ex: ExchangeImpl, error: unknown, extra?: HeaderList): void;
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

  get state(): Record<string | symbol, unknown> {
    return (this.#state ??= {});
  }

  /** Appends the tail of the route (or of the fallback) and records the status. */
  #head(status: number, headers: HeaderList): void {
    const plan = this.plan ?? this.host.fallback;
    const tail = plan.tail;
    for (let i = 0; i < tail.length; i++) headers.push(tail[i]!);
    if (plan.dynamic) {
      for (const hook of plan.dynamic) {
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
    if (this.host.draining) headers.push('connection', 'close');
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

  /** Sends a bodiless answer with its own complete header block (an accepted preflight). */
  sendRaw(status: number, headers: HeaderList): void {
    if (this.host.draining) headers.push('connection', 'close');
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
    // The head goes out with the first chunk the writer sends (one write, not two).
    return true;
  }

  fail(error: unknown, extra?: HeaderList): void {
    this.host.fail(this, error, extra);
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
