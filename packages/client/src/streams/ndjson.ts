import { lines } from './lines';

/**
 * The items of an `application/x-ndjson` body: one JSON value per line. Ends when the server
 * ends the stream or the call's signal aborts; `break` cancels the body.
 *
 * @param body - the response body
 * @param signal - the call's signal
 */
export async function* ndjson<T>(
  body: ReadableStream<Uint8Array> | null,
  signal: AbortSignal | undefined,
): AsyncGenerator<T, void, undefined> {
  for await (const line of lines(body, signal)) if (line.trim() !== '') yield JSON.parse(line) as T;
}
