import type { Logger } from '@api/core';
import { kInternals } from '../symbols';
import { CloseCode } from './close-codes';
import { WebSocketClosedError, type WebSocket } from './websocket';

/**
 * Runs a handler for the lifetime of one connection: when it returns the socket closes with
 * 1000; when it throws, the failure is logged and the socket closes with 1011. A failure is
 * confined to its own connection. A `WebSocketClosedError` after the peer went away is the
 * normal end of a handler that was still sending, and is not logged.
 *
 * @param websocket - the accepted socket
 * @param handler - the endpoint's handler, already bound to its input
 * @param log - where failures go
 * @param label - `GET /chat: WebSocket handler ChatSocket.handle`, for the log line (method and
 *   path first, as every log line of a request)
 */
export async function runSession<TIn, TOut>(
  websocket: WebSocket<TIn, TOut>,
  handler: (websocket: WebSocket<TIn, TOut>) => unknown,
  log: Logger,
  label: string,
): Promise<void> {
  try {
    await handler(websocket);
    websocket[kInternals].closeWith(CloseCode.normal, '');
  } catch (error) {
    if (!(error instanceof WebSocketClosedError && websocket.closed)) {
      log.error(`${label} failed; closing the WebSocket with 1011`, error);
    }
    websocket[kInternals].closeWith(CloseCode.internalError, 'internal error');
  }
}
