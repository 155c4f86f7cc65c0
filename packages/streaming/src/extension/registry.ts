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

  /** Ends every open stream (teardown, then the terminating chunk); resolves when all ended. */
  async stopAll(): Promise<void> {
    await Promise.all([...this.#open].map((pump) => pump.stop()));
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
