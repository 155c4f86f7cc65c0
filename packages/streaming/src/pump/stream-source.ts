/**
 * What a streaming response's `stream` may be: an async iterable of items (an async generator,
 * a Node `Readable`, …), or a one-yield **lifecycle** async generator that opens what the stream
 * needs, yields the items' iterable once, and tears down after the `yield`:
 *
 * @example
 * async function* rows() {
 *   const cursor = await db.open();        // setup: awaited before the status line is sent
 *   try {
 *     yield cursor.items();                // the stream itself
 *   } finally {
 *     await cursor.close();                // teardown: on completion, error, disconnect, shutdown
 *   }
 * }
 */
export type StreamSource<T> = AsyncIterable<T> | AsyncIterable<AsyncIterable<T>>;

/** True for anything `for await` iterates without a sync fallback. */
export function isAsyncIterable(value: unknown): value is AsyncIterable<unknown> {
  return (
    value !== null &&
    (typeof value === 'object' || typeof value === 'function') &&
    typeof (value as { [Symbol.asyncIterator]?: unknown })[Symbol.asyncIterator] === 'function'
  );
}

/**
 * Lets go of a stream that will never be iterated (a HEAD request): a generator is closed
 * without running its body, a Node stream is destroyed; anything else is left alone.
 */
export function release(stream: unknown): void {
  if (stream === null || typeof stream !== 'object') return;
  const s = stream as { return?: unknown; destroy?: unknown };
  if (typeof s.return === 'function') {
    try {
      (s.return as () => Promise<unknown>).call(stream)?.catch?.(() => undefined);
    } catch {
      // A custom iterator that refuses to close has nothing we could release anyway.
    }
  } else if (typeof s.destroy === 'function') (s.destroy as () => void).call(stream);
}
