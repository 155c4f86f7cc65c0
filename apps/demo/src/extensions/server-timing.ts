import { performance } from 'node:perf_hooks';
import { defineExtension, type Extension } from '@api/core/extension';

/**
 * A third-party-style extension written only against core's public extension API: every response
 * (errors and unrouted answers included) carries `server-timing: app;dur=<ms>`, the time from the
 * request's arrival to its response head, which browsers' developer tools show per request.
 */
export function serverTiming(): Extension<void> {
  return defineExtension({
    name: 'server-timing',
    setup(wiring) {
      const contribution = {
        // Computed when the head is written; a route with a computed header is timed from dispatch.
        dynamicHeaders: (ex: { readonly receivedAt: number }) =>
          [['server-timing', `app;dur=${(performance.now() - ex.receivedAt).toFixed(1)}`]] as const,
      };
      wiring.addContributor(() => contribution);
    },
  });
}
