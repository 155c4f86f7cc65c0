// What core's exchange needs from the runtime that created it, and the node objects of an upgrade
// request: types only (`runtime/runtime.ts` implements `ExchangeRuntime`).
import type { IncomingMessage, ServerResponse } from 'node:http';
import type { Duplex } from 'node:stream';
import type { Exchange, HeaderList } from '../contract/exchange';
import type { RoutePlan } from '../contract/route-plan';
import type { ConnectionControl } from '../contract/wire';
import type { Logger } from '../logging/logger';
import type { BindingExchange } from '../binding/binders';
import type { Uploads } from '../binding/body';
import type { RequestControl } from './request-control';

/** An upgrade request's node objects (node:http only): the request, its response object, the head bytes. */
export interface Upgrade {
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
  /** Renders `error` as the exchange's answer (core's own exchange: `Runtime` takes a `CoreExchange`). */
  fail(ex: Exchange, error: unknown, extra?: HeaderList): void;
  /** Exchanges whose request body is being read (shutdown answers them 503 at its cap). */
  readonly reading: Uploads<BindingExchange>;
  /** Takes a connection out of the in-flight count and tracks it as an upgraded socket. */
  adopt(ex: Exchange, socket: Duplex): void;
}
