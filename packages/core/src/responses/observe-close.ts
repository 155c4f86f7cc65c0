import { performance } from 'node:perf_hooks';
import type { Duplex } from 'node:stream';
import type { ConnectionClose, Exchange, TakenOver } from '../contract/exchange';

/**
 * Runs a route's `observeClose` hooks once for a connection it took over: at the route's first
 * `end(outcome)`, or — when the route reports nothing — after the socket's `'close'`, one turn of
 * the event loop later, so a protocol that learns its close code from that same close event (a
 * WebSocket library does) reports it first. Returns the `end` the route calls.
 */
export function watchClose(
  ex: Exchange & { readonly receivedAt: number },
  observers: ReadonlyArray<(ex: Exchange, closed: ConnectionClose) => void>,
  socket: Duplex,
): TakenOver['end'] {
  let done = false;
  const run = (code: number | undefined): void => {
    if (done) return;
    done = true;
    const closed: ConnectionClose = { durationMs: performance.now() - ex.receivedAt, code };
    for (const observe of observers) {
      try {
        observe(ex, closed);
      } catch (error) {
        ex.log.warn(`${ex.method} ${ex.path}: an observeClose hook failed (ignored)`, error);
      }
    }
  };
  socket.once('close', () => setImmediate(run, undefined));
  return (outcome) => run(outcome?.code);
}
