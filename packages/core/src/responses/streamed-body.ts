import type { Logger } from '../logging/logger';
import type { ResponseBody, StreamEncoder } from '../contract/body-transform';
import type { WireResponse } from '../contract/wire';

/** How long a cut connection may take to flush what was written before it is destroyed. */
const CUT_GRACE_MS = 1000;

/**
 * The body of one streamed answer: the only way bytes reach the wire after a writer's
 * `sink.start`. Listeners may be added before the head is out (a pump listens from the start);
 * once it is, bytes go through the route's encoder (piped into the response, `flush()` after every
 * write so no item waits for the next; an encoder may coalesce one turn's writes) or straight to the response.
 */
export class StreamedBody implements ResponseBody {
  readonly #res: WireResponse;
  readonly #log: Logger;
  readonly #label: string;
  #encoder: StreamEncoder | undefined = undefined;
  readonly #drain: (() => void)[] = [];
  #cut = false;

  /**
   * @param res - the response
   * @param log - where an encoder failure is reported
   * @param label - `GET /path`, for log lines
   */
  constructor(res: WireResponse, log: Logger, label: string) {
    this.#res = res;
    this.#log = log;
    this.#label = label;
  }

  /** The head is out: from now on bytes go through `encoder` (when the route's transform gave one). */
  open(encoder: StreamEncoder | undefined): void {
    const res = this.#res;
    if (encoder !== undefined) {
      this.#encoder = encoder;
      encoder.on('error', (error: unknown) => {
        this.#log.error(`${this.#label}: the body encoder failed; the response is cut`, error);
        this.cut();
      });
      encoder.pipe(res);
      // A client that leaves frees the encoder's memory at once (zlib holds native buffers).
      res.once('close', () => encoder.destroy());
    }
    (encoder ?? res).on('drain', this.#onDrain);
  }

  readonly #onDrain = (): void => {
    for (const listener of this.#drain.slice()) listener();
  };

  write(chunk: string | Uint8Array): boolean {
    const encoder = this.#encoder;
    if (encoder === undefined) return this.#res.write(chunk);
    const accepted = encoder.write(chunk);
    encoder.flush();
    return accepted;
  }

  end(chunk?: string | Uint8Array): void {
    const encoder = this.#encoder;
    if (encoder === undefined) {
      if (chunk === undefined) this.#res.end();
      else this.#res.end(chunk);
      return;
    }
    if (chunk !== undefined) encoder.write(chunk);
    // The encoder's end flushes its trailer; the pipe then ends the response.
    encoder.end();
  }

  cut(): void {
    if (this.#cut) return;
    this.#cut = true;
    const encoder = this.#encoder;
    if (encoder === undefined || encoder.destroyed) {
      this.#endSocket();
      return;
    }
    // What was written is still inside the encoder: flush it to the socket first, then end there
    // (bounded: an encoder held by a client that reads nothing is cut after the grace).
    let ended = false;
    const end = (): void => {
      if (ended) return;
      ended = true;
      clearTimeout(stuck);
      encoder.unpipe(this.#res);
      encoder.destroy();
      this.#endSocket();
    };
    const stuck = setTimeout(end, CUT_GRACE_MS);
    stuck.unref();
    encoder.flush(end);
  }

  /** Ends the connection without the terminating chunk; destroys it after a grace. */
  #endSocket(): void {
    const socket = this.#res.socket;
    if (!socket || socket.destroyed) {
      this.#res.destroy();
      return;
    }
    // End, not destroy: what the socket already holds still reaches the client.
    socket.end();
    // A client that stopped reading must not hold the socket open: cut hard after a grace.
    const hard = setTimeout(() => socket.destroy(), CUT_GRACE_MS);
    hard.unref();
    socket.once('close', () => clearTimeout(hard));
  }

  flushHeaders(): void {
    this.#res.flushHeaders();
  }

  get writableLength(): number {
    const encoder = this.#encoder;
    const own = this.#res.writableLength;
    return encoder === undefined ? own : own + encoder.writableLength + encoder.readableLength;
  }

  on(event: 'close' | 'drain', listener: () => void): void {
    if (event === 'drain') this.#drain.push(listener);
    else this.#res.on('close', listener);
  }

  off(event: 'close' | 'drain', listener: () => void): void {
    if (event === 'close') {
      this.#res.off('close', listener);
      return;
    }
    const at = this.#drain.indexOf(listener);
    if (at >= 0) this.#drain.splice(at, 1);
  }
}
