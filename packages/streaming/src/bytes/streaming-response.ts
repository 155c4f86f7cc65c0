import type { ResponseSpec } from '@api/core';
import { defineResponseKind } from '@api/core/extension';
import { compileStreamWriter } from '../response/stream-writer';
import {
  StreamResponse,
  type HeaderSchema,
  type HeadersOf,
  type StreamResponseInit,
} from '../response/stream-response';

const OCTETS = 'application/octet-stream';

/** A chunk of a byte stream: bytes as they are, or text sent as UTF-8. */
export type ByteChunk = Uint8Array | string;

function encodeChunk(item: unknown): ByteChunk {
  if (item instanceof Uint8Array || typeof item === 'string') return item;
  throw new TypeError(
    `StreamingResponse chunks must be Uint8Array (Buffer) or string, got ${item === null ? 'null' : typeof item}`,
  );
}

/**
 * A stream of bytes, each chunk written as it comes (`application/octet-stream` unless the
 * declaration's `contentType` or the response's `rawHeaders` say otherwise). A Node `Readable`
 * works as the `stream`.
 *
 * @example
 * download = this.operation({ returns: StreamingResponse.of({ contentType: 'text/csv' }) }, () =>
 *   new StreamingResponse({ stream: createReadStream('report.csv') }),
 * );
 */
export class StreamingResponse<THeaders = undefined> extends StreamResponse<ByteChunk, THeaders> {
  /**
   * @param init - `stream` (chunks, or a lifecycle generator yielding them), plus `statusCode`,
   *   `headers` (required when declared), `rawHeaders` (`content-type` here wins), `cookies`,
   *   `location`, `links`
   */
  constructor(init: StreamResponseInit<ByteChunk, THeaders>) {
    super(init);
  }

  /**
   * Declares a byte stream, with optional typed headers and media type.
   *
   * @param options - `headers`: the typed response-headers schema; `contentType`: the default
   *   media type (`application/octet-stream`)
   */
  static of<THeaders extends HeaderSchema | undefined = undefined>(
    options: { readonly headers?: THeaders; readonly contentType?: string } = {},
  ): ResponseSpec<StreamingResponse<HeadersOf<THeaders>>> {
    const contentType = options.contentType ?? OCTETS;
    return defineResponseKind({
      kind: 'stream',
      cls: StreamingResponse,
      schema: undefined,
      headers: options.headers,
      status: undefined,
      contentType,
      compile: (ctx) =>
        compileStreamWriter(ctx, {
          name: 'StreamingResponse',
          cls: StreamingResponse,
          contentType,
          encode: encodeChunk,
        }),
    });
  }
}
