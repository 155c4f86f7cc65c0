import type { ResponseSink, RouteInfo } from '@api/core/extension';
import type { Pump } from '../pump/pump';

/** The catalogue fact under which `streaming()` hands its registry to the routes that stream. */
export const STREAMS_FACT = '@api/streaming';

/** The open streams of one app, so graceful shutdown can end them properly. */
export class StreamRegistry {
  readonly #open = new Set<Pump>();

  add(pump: Pump): void {
    this.#open.add(pump);
  }

  delete(pump: Pump): void {
    this.#open.delete(pump);
  }

  /** How many streams are open. */
  get size(): number {
    return this.#open.size;
  }

  /**
   * Ends every open stream (teardown, then the terminating chunk); resolves when all ended, or
   * after `capMs` (core does not bound before-close hooks: a hanging teardown must not hang
   * shutdown), calling `onCap` with how many were still tearing down.
   */
  async stopAll(capMs = Number.POSITIVE_INFINITY, onCap?: (pending: number) => void): Promise<void> {
    const pending = new Set(this.#open);
    const all = Promise.all([...pending].map((pump) => pump.stop().then(() => pending.delete(pump))));
    if (!Number.isFinite(capMs)) {
      await all;
      return;
    }
    let timer: NodeJS.Timeout | undefined;
    const cap = new Promise<'cap'>((resolve) => {
      timer = setTimeout(() => resolve('cap'), capMs);
      timer.unref();
    });
    const outcome = await Promise.race([all.then(() => 'done' as const), cap]);
    clearTimeout(timer);
    if (outcome === 'cap') onCap?.(pending.size);
  }
}

const warned = new WeakSet<RouteInfo>();

/**
 * The registry of the app serving `sink`'s request, or undefined when the app did not include
 * `streaming()` (then the route warns once: shutdown cannot end its streams early).
 */
export function registryOf(sink: ResponseSink): StreamRegistry | undefined {
  const route = sink.exchange.route;
  if (!route) return undefined;
  const registry = route.facts.get(STREAMS_FACT) as StreamRegistry | undefined;
  if (!registry && !warned.has(route)) {
    warned.add(route);
    sink.log.warn(
      `${route.method} ${route.path} streams, but the app did not include streaming(): graceful shutdown cannot end its open streams and waits for them up to the shutdown limit. Fix: this.include(streaming()) in wire().`,
    );
  }
  return registry;
}
