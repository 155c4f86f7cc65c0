// What a transport's entry points (node's listeners, `app.fetch`) need of the app: the app keeps
// one host and hands it to each entry when it is built, so no transport imports the app layer.
import type { Transport } from '../contract/exchange';
import type { HealthPaths } from '../contract/serving-options';
import type { Logger } from '../logging/logger';
import type { Runtime } from '../runtime/runtime';

/** The app as its transports see it; `runtime` is set once the app has started. */
export interface AppHost {
  /** The runtime, once wiring has finished. */
  runtime: Runtime | undefined;
  /** Starts the app (runs `wire()`) for a transport; resolves once `runtime` is set. */
  start(options?: { readonly transport?: Transport }): Promise<void>;
  /** True once a start has begun (the fetch entry starts an unstarted app for the fetch transport). */
  readonly starting: boolean;
  /** The app's logger. */
  readonly log: Logger;
  /** The app's class name, for log lines. */
  readonly name: string;
  /** The app's probe paths when it answers liveness and readiness probes (its `health` option). */
  readonly health: HealthPaths | undefined;
}

/** The host an app hands its transports: `runtime` a plain field (read per request), the rest read late. */
export function createAppHost(
  app: object,
  parts: {
    readonly start: AppHost['start'];
    readonly starting: () => boolean;
    readonly log: () => Logger;
    readonly health: () => AppHost['health'];
  },
): AppHost {
  return {
    runtime: undefined,
    start: parts.start,
    get starting() {
      return parts.starting();
    },
    get log() {
      return parts.log();
    },
    get health() {
      return parts.health();
    },
    name: app.constructor.name,
  };
}
