import { defineExtension, type Extension, type ResponseKindInfo } from '@api/core/extension';
import { StreamingResponse } from '../bytes/streaming-response';
import { NDJSONStreamingResponse } from '../ndjson/ndjson-response';
import { SSEResponse } from '../sse/sse-response';
import { StreamRegistry, STREAMS_FACT } from './registry';

const WRAPPERS = new Set<unknown>([StreamingResponse, NDJSONStreamingResponse, SSEResponse]);
const streams = (info: ResponseKindInfo): boolean => WRAPPERS.has(info.cls);

/**
 * Joins the app's graceful shutdown: when the server stops accepting (the before-close phase),
 * every open stream stops pulling, runs its teardown and ends with its terminating chunk, so
 * clients see a complete response and shutdown does not wait for them until its time limit.
 * The wrappers work without it; include it once in any app that streams.
 *
 * @example
 * protected override async wire() {
 *   this.include(streaming());
 *   this.includeEndpoint(new Notifications());
 * }
 */
export function streaming(): Extension<void> {
  return defineExtension({
    name: '@api/streaming',
    setup(wiring) {
      const registry = new StreamRegistry();
      wiring.addContributor((route) =>
        route.responses.some(streams) ? { facts: { [STREAMS_FACT]: registry } } : undefined,
      );
      wiring.onBeforeClose(() =>
        registry.stopAll(wiring.limits.shutdownTimeoutMs, (pending) =>
          wiring.log.warn(
            `@api/streaming: ${pending} stream teardown(s) still running after the shutdown limit (${wiring.limits.shutdownTimeoutMs} ms); shutdown goes on without them`,
          ),
        ),
      );
    },
  });
}
