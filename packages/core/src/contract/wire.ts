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
    /**
     * Starts watching for the client leaving, where that has a cost: a fetch server tells it only
     * through `request.signal` (Deno makes one and aborts it after every answer once it was read).
     * Called when something must know at once (a request's signal or deadline); a streamed answer
     * watches by itself. node:http's response has none: its 'close' comes from the socket.
     */
    watchClient?(): void;
  };

/**
 * What an exchange asks of the connection under its request; the transport supplies it when the
 * app starts (node:http: a lingering close; the fetch transport has no socket of its own).
 */
export interface ConnectionControl {
  /**
   * Makes the response being sent its connection's last; `bodyArriving`: the request body is still
   * on the wire (node:http then closes with a bounded linger, so the client reads the answer).
   */
  closeAfterResponse(socket: Socket, bodyArriving: boolean): void;
}
