import { CloseCode } from '../socket/close-codes';
import type { SocketInternals } from '../socket/websocket';

/**
 * The open sockets of one mount: one liveness timer for all of them (each tick pings every
 * socket and cuts those that did not answer the previous ping), and the shutdown close. The
 * timer runs only while sockets are open, so an idle mount holds no timer.
 */
export class SocketSet {
  readonly #sockets = new Set<SocketInternals>();
  readonly #interval: number;
  #timer: NodeJS.Timeout | undefined;
  #closing = false;

  /** @param pingInterval - ms between pings; 0 disables liveness pings */
  constructor(pingInterval: number) {
    this.#interval = pingInterval;
  }

  /** Open sockets. */
  get size(): number {
    return this.#sockets.size;
  }

  /** True while the liveness timer runs (sockets are open and pings are on). */
  get pinging(): boolean {
    return this.#timer !== undefined;
  }

  /** True once `closeAll` ran (the mount refuses new handshakes then). */
  get closing(): boolean {
    return this.#closing;
  }

  /** Tracks a socket until it closes. */
  add(socket: SocketInternals): void {
    this.#sockets.add(socket);
    socket.closeListeners.add(() => this.#remove(socket));
    if (this.#interval > 0 && !this.#timer) {
      this.#timer = setInterval(() => this.#tick(), this.#interval);
      this.#timer.unref();
    }
  }

  #remove(socket: SocketInternals): void {
    this.#sockets.delete(socket);
    if (this.#sockets.size === 0 && this.#timer) {
      clearInterval(this.#timer);
      this.#timer = undefined;
    }
  }

  #tick(): void {
    for (const socket of this.#sockets) {
      if (!socket.alive) {
        socket.terminate();
        continue;
      }
      socket.alive = false;
      socket.raw.ping();
    }
  }

  /**
   * Sends close 1001 to every socket and cuts the ones whose closing handshake has not finished
   * after `graceMs`. Resolves once all are closed (or cut).
   *
   * @param graceMs - how long a peer has to answer the close
   */
  closeAll(graceMs: number): Promise<void> {
    this.#closing = true;
    const waits: Promise<void>[] = [];
    for (const socket of this.#sockets) {
      waits.push(new Promise<void>((resolve) => socket.closeListeners.add(resolve)));
      socket.closeWith(CloseCode.goingAway, 'server shutting down', graceMs);
    }
    return Promise.all(waits).then(() => undefined);
  }
}
