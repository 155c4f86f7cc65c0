// What other modules of @api/ws (Channel, liveness, shutdown) reach behind a typed socket.
import type { Duplex } from 'node:stream';
import type { WebSocket as RawWebSocket } from 'ws';
import type { Codec } from '../framing/framing';

/** What other modules of @api/ws reach behind a typed socket (`Channel`, liveness, shutdown). */
export interface SocketInternals {
  readonly raw: RawWebSocket;
  readonly socket: Duplex;
  readonly outbound: Codec;
  /** False after a ping went unanswered (the liveness check terminates the socket then). */
  alive: boolean;
  /** Called once when the connection has closed (either side, any reason). */
  readonly closeListeners: Set<() => void>;
  /**
   * Closes with any code (1001, 1013, refusals), skipping the user-facing code check; with
   * `graceMs`, the connection is cut if the closing handshake has not finished by then (also
   * when it was already closing).
   */
  closeWith(code: number, reason: string, graceMs?: number): void;
  /** Cuts the connection without a closing handshake (missed pong, shutdown grace). */
  terminate(): void;
}
