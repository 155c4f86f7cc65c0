import {
  describeValue,
  hasHeader,
  type CustomWriter,
  type ResponseCompileContext,
  type ResponseSink,
} from '@api/core/extension';
import { Pump } from '../pump/pump';
import { release } from '../pump/stream-source';
import { StreamResponse } from './stream-response';

/** What differs between the three wrappers' writers; everything else is shared. */
export interface StreamKind<TValue extends StreamResponse<unknown, unknown>> {
  /** The wrapper's class name, for error messages. */
  readonly name: string;
  readonly cls: abstract new (...args: never[]) => TValue;
  /** The media type unless the response's raw headers set `content-type`. */
  readonly contentType: string;
  /** Headers added unless the response sets them itself (SSE: `cache-control: no-cache`). */
  readonly defaults?: readonly (readonly [string, string])[];
  /** Encodes one item into its wire chunk; throws a `TypeError` for an item that cannot be sent. */
  readonly encode: (item: unknown) => string | Uint8Array;
  /** The keepalive of one response, in milliseconds (SSE). */
  readonly keepaliveMs?: (value: TValue) => number | undefined;
  /** The keepalive chunk. */
  readonly ping?: string;
  /**
   * What a lifecycle generator must get through before the head is sent: its setup alone (SSE)
   * or its setup and first item (the default). A plain async iterable's first item, always.
   */
  readonly gate?: 'setup' | 'first-item';
}

/**
 * Compiles the writer shared by every streaming wrapper: headers through core's machinery
 * (typed, cookies, raw, Location/Link, then the route headers in `start`), HEAD answered without
 * touching the stream, the gate (setup and the first item; a lifecycle generator's setup alone
 * for SSE) awaited before the head, then the pump; the exchange's `shutdownSignal` stops it.
 *
 * @param ctx - the route being wired
 * @param kind - the wrapper's media type, encoder and keepalive
 */
export function compileStreamWriter<TValue extends StreamResponse<unknown, unknown>>(
  ctx: ResponseCompileContext,
  kind: StreamKind<TValue>,
): CustomWriter {
  const defaults = kind.defaults ?? [];
  return async (value: unknown, sink: ResponseSink): Promise<void> => {
    if (!(value instanceof kind.cls))
      throw new TypeError(`${ctx.where} declares ${kind.name} but returned ${describeValue(value)}`);
    const response = value;
    const status = response.statusCode ?? ctx.defaultStatus;
    let headers: string[];
    try {
      headers = sink.head(status, undefined, response);
    } catch (error) {
      // A header that cannot be sent (CR/LF in a value, two cookies of one name): the stream never starts.
      release(response.stream);
      throw error;
    }
    if (!hasHeader(headers, 'content-type')) headers.unshift('content-type', kind.contentType);
    for (const [name, text] of defaults) if (!hasHeader(headers, name)) headers.push(name, text);
    if (sink.method === 'HEAD') {
      // HEAD never runs setup nor pulls an item: the head alone, then let the source go.
      sink.start(status, headers);
      release(response.stream);
      return;
    }
    const pump = new Pump(sink, {
      encode: kind.encode,
      keepaliveMs: kind.keepaliveMs?.(response),
      ping: kind.ping,
      log: sink.log,
      label: `${sink.method} ${sink.exchange.path}`,
      gate: kind.gate,
    });
    // Graceful shutdown: core aborts one app-wide signal as it begins; the pump then stops
    // pulling, runs teardown and ends the body properly. The listener lives as long as the
    // stream: `done` settles on every path (end, cut, disconnect, failed setup), and the
    // response's 'close' covers a teardown that never settles after the client left.
    const shutdown = sink.exchange.shutdownSignal;
    if (shutdown.aborted) void pump.stop();
    else {
      const stop = (): void => void pump.stop();
      const off = (): void => shutdown.removeEventListener('abort', stop);
      shutdown.addEventListener('abort', stop, { once: true });
      void pump.done.then(off);
      const closed = (): void => {
        off();
        sink.off('close', closed);
      };
      sink.on('close', closed);
    }
    // The gate (setup, the first item): a failure here rejects into the normal error funnel.
    if (!(await pump.open(response.stream))) return;
    try {
      sink.start(status, headers);
    } catch (error) {
      await pump.discard();
      throw error;
    }
    await pump.run();
  };
}
