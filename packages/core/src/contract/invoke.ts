// `wiring.invoke`: a request an extension answers through the started app in-process, and its
// answer, as plain data (no WHATWG `Request`/`Response`, no socket).
import type { Exchange } from './exchange';

/** A request for `wiring.invoke`: what a client would send, as plain fields. */
export interface InvokeRequest {
  /** The method, as sent on the wire (`'GET'`, `'POST'`, … upper-case). */
  readonly method: string;
  /** The path in origin-form as a client sends it: starts with `/`, percent-encoded, no query. */
  readonly path: string;
  /** The query without `?`, percent-encoded (`'a=1&b=2'`); absent or `''`: none. */
  readonly query?: string | undefined;
  /**
   * Header fields by lower-case name (a name in another case is lower-cased); a list sends the
   * name once per item. `content-length` is set from `body`. Nothing is inherited: a header you
   * do not pass (`authorization`, `cookie`, `x-request-id`, `traceparent`) is not there.
   */
  readonly headers?: Readonly<Record<string, string | readonly string[] | undefined>> | undefined;
  /** The body: a string (sent as UTF-8) or bytes; absent: none. */
  readonly body?: string | Uint8Array | undefined;
  /**
   * Aborted when the caller's client leaves: the invoked route sees its client leave (its
   * `signal` aborts, a stream's teardown runs) and `invoke` rejects.
   */
  readonly signal?: AbortSignal | undefined;
  /**
   * The exchange being answered when you invoke (an extension's route): its response closing
   * before this answer is complete — its client left, or it was answered — is this request's
   * client leaving, as `signal` would tell it, without an `AbortSignal` made per call.
   */
  readonly parent?: Exchange | undefined;
  /**
   * The scheme and authority the request is addressed to (`https://api.example`), for the
   * absolute URLs the route builds and `wiring.requestScheme`; absent: `http`, no origin.
   */
  readonly origin?: string | undefined;
  /** The most answer body bytes collected (default 16 MiB): a longer answer rejects `invoke`. */
  readonly maxAnswerBytes?: number | undefined;
}

/** The answer `wiring.invoke` resolves with once the route has sent all of it. */
export interface InvokeAnswer {
  readonly status: number;
  /**
   * The header fields the app sent, by lower-case name, as node:http reads them: a repeated name
   * joined with `, `, `set-cookie` always a list.
   */
  readonly headers: Readonly<Record<string, string | readonly string[] | undefined>>;
  /** The whole body (empty for HEAD, 204, 304 and a bodiless answer). */
  readonly body: Uint8Array;
}

/** `maxAnswerBytes` when the request does not say. */
export const DEFAULT_MAX_ANSWER_BYTES = 16 * 1024 * 1024;
