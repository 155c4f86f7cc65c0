import type { Socket } from 'node:net';
import type { ExchangeRequest, ResponseTarget } from './exchange';

/**
 * What core's exchange reads of a request: the public seam (`ExchangeRequest`) plus node's
 * socket, which the fetch transport does not have (its server owns the connection, so there is
 * no lingering close there). node:http's `IncomingMessage` is one as it is.
 */
export interface WireRequest extends ExchangeRequest {
  readonly socket?: Socket | null | undefined;
}

/**
 * What core writes a response to: the public seam (`ResponseTarget`), a node `Writable` (a
 * streamed body's encoder is piped into it) and node's reason phrase and socket (null on the
 * fetch transport). node:http's `ServerResponse` is one as it is; `FetchResponse` is the other.
 */
export type WireResponse = ResponseTarget &
  NodeJS.WritableStream & {
    statusMessage: string;
    readonly socket: Socket | null;
  };
