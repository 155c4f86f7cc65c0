// A WHATWG `Response` from a fetch handler, answered through core's writer: the route headers
// (CORS, middleware, request id), the body transform (compression) and core's framing apply as
// to any answer; a body that is complete at once is sent buffered (with content-length), a live
// one streams with backpressure and is cancelled when the client leaves.
import type { Exchange, HeaderList } from '../contract/exchange';
import { isFramingHeader } from '../http/framing';
import { StreamedBody } from '../responses/streamed-body';
import { CoreExchange } from '../responses/core-exchange';

/** Most bytes gathered before the head is sent: a larger body streams. */
const BUFFER_BYTES = 64 * 1024;

/** A read that did not settle within one turn of the event loop (the body is live). */
const PENDING = Symbol('pending');

type Step = Awaited<ReturnType<ReadableStreamDefaultReader<Uint8Array>['read']>>;

/**
 * Answers an exchange with a WHATWG `Response` (a fetch handler's answer) through core: status,
 * headers (framing headers dropped: core frames the body; every `set-cookie` kept), then the
 * body. A body the handler already holds whole (a `Response` over a string or bytes) is sent as
 * one buffered answer; a body still being produced (a stream, server-sent events) is sent as it
 * comes, each chunk through the route's body transform, waiting for the client when it is slow.
 * A client that leaves cancels the body (the handler's stream sees `cancel`). A body that fails
 * before the head is out fails the request (the funnel answers); after, the response is cut.
 *
 * @param ex - The exchange (a route's handle gets it).
 * @param response - The handler's answer.
 * @example
 * handle: async (ex) => sendFetchResponse(ex, await handler(toFetchRequest(ex, limits).request)),
 */
export async function sendFetchResponse(ex: Exchange, response: Response): Promise<void> {
  if (!(ex instanceof CoreExchange))
    throw new TypeError("sendFetchResponse: pass the exchange core gave the route's handle");
  if (!(response instanceof Response)) throw new TypeError('the fetch handler did not return a Response');
  const status = response.status;
  if (status < 200)
    throw new TypeError(`the fetch handler answered ${status}; informational answers cannot be relayed`);
  const headers: HeaderList = [];
  response.headers.forEach((value, name) => {
    if (name !== 'set-cookie' && !isFramingHeader(name, status)) headers.push(name, value);
  });
  for (const cookie of response.headers.getSetCookie()) headers.push('set-cookie', cookie);
  const body = response.body;
  if (body === null || ex.method === 'HEAD' || status === 204 || status === 304) {
    await body?.cancel().catch(() => undefined);
    ex.answer(status, headers, undefined);
    return;
  }
  const reader = body.getReader();
  const chunks: Uint8Array[] = [];
  let size = 0;
  let next: Promise<Step> = reader.read();
  for (;;) {
    const step = await settledThisTurn(next);
    if (step === PENDING) break;
    if (step.done) {
      ex.answer(status, headers, chunks.length === 1 ? chunks[0] : Buffer.concat(chunks, size));
      return;
    }
    chunks.push(step.value);
    size += step.value.byteLength;
    next = reader.read();
    if (size > BUFFER_BYTES) break;
  }
  await stream(ex, status, headers, chunks, next, reader);
}

/** The read's result if it settles within this turn of the event loop, else `PENDING`. */
function settledThisTurn(read: Promise<Step>): Promise<Step | typeof PENDING> {
  return new Promise((resolve, reject) => {
    const turn = setImmediate(() => resolve(PENDING));
    read.then(
      (step) => {
        clearImmediate(turn);
        resolve(step);
      },
      (error: unknown) => {
        clearImmediate(turn);
        reject(error instanceof Error ? error : new Error(String(error)));
      },
    );
  });
}

/** Sends the head, then every chunk as it comes, waiting for `drain` when the client is slow. */
async function stream(
  ex: CoreExchange,
  status: number,
  headers: HeaderList,
  held: readonly Uint8Array[],
  pending: Promise<Step>,
  reader: ReadableStreamDefaultReader<Uint8Array>,
): Promise<void> {
  const out = new StreamedBody(ex.res, ex.log, `${ex.method} ${ex.path}`);
  let left = false;
  out.on('close', () => {
    if (left) return;
    left = true;
    reader.cancel().catch(() => undefined);
  });
  if (!ex.startBody(status, headers, out)) {
    left = true;
    await reader.cancel().catch(() => undefined);
    return;
  }
  if (held.length === 0) out.flushHeaders();
  let ready = true;
  for (const chunk of held) ready = out.write(chunk);
  let next = pending;
  for (;;) {
    if (!ready) await drained(out);
    if (left) return;
    let step: Step;
    try {
      step = await next;
    } catch (error) {
      if (left) return;
      ex.log.error(`${ex.method} ${ex.path}: the fetch handler's body failed; the response is cut`, error);
      left = true;
      out.cut();
      return;
    }
    if (left) return;
    if (step.done) {
      left = true;
      out.end();
      return;
    }
    ready = out.write(step.value);
    next = reader.read();
  }
}

/** Resolves at the body's next `drain`, or when the response closes. */
function drained(out: StreamedBody): Promise<void> {
  return new Promise((resolve) => {
    const done = (): void => {
      out.off('drain', done);
      out.off('close', done);
      resolve();
    };
    out.on('drain', done);
    out.on('close', done);
  });
}
