/**
 * The text lines of a response body, decoded as UTF-8 and split on CR LF, CR or LF (an SSE
 * stream may use any of them; NDJSON uses LF). Ends quietly when `signal` aborts; a consumer that
 * stops early cancels the body (the server sees the disconnect and runs its teardown).
 *
 * @param body - the response body
 * @param signal - the call's signal
 */
export async function* lines(
  body: ReadableStream<Uint8Array> | null,
  signal: AbortSignal | undefined,
): AsyncGenerator<string, void, undefined> {
  if (!body) return;
  const reader = body.getReader();
  const decoder = new TextDecoder();
  let buffer = '';
  let done = false;
  try {
    for (;;) {
      let chunk: Awaited<ReturnType<typeof reader.read>>;
      try {
        chunk = await reader.read();
      } catch (error) {
        if (signal?.aborted) return;
        throw error;
      }
      if (chunk.done) break;
      buffer += decoder.decode(chunk.value, { stream: true });
      let start = 0;
      for (let i = 0; i < buffer.length; i++) {
        const c = buffer[i];
        if (c !== '\n' && c !== '\r') continue;
        // A CR at the very end may be the first half of CR LF: wait for the next chunk.
        if (c === '\r' && i === buffer.length - 1) break;
        // Lines already received are not handed out after the caller aborted.
        if (signal?.aborted) return;
        yield buffer.slice(start, i);
        if (c === '\r' && buffer[i + 1] === '\n') i++;
        start = i + 1;
      }
      buffer = buffer.slice(start);
    }
    done = true;
    buffer += decoder.decode();
    if (buffer.endsWith('\r')) buffer = buffer.slice(0, -1);
    if (buffer !== '' && !signal?.aborted) yield buffer;
  } finally {
    // Stopped early (break, abort, a throw): release the connection.
    if (!done) reader.cancel().catch(() => undefined);
  }
}
