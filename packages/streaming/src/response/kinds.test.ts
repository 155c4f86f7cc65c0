import * as v from 'valibot';
import { describe, expect, it } from 'vitest';
import { Struct } from '@api/core';
import { responseInfo } from '@api/core/extension';
import { NDJSONStreamingResponse, SSEResponse, StreamingResponse } from '../index';

const Item = Struct('Item', { id: v.string() });
const Headers = v.object({ xTraceId: v.string() });

describe('the declarations @api/openapi reads', () => {
  it.each([
    [
      'StreamingResponse.of()',
      StreamingResponse.of(),
      'stream',
      StreamingResponse,
      undefined,
      'application/octet-stream',
    ],
    [
      'StreamingResponse.of({ contentType })',
      StreamingResponse.of({ contentType: 'text/csv' }),
      'stream',
      StreamingResponse,
      undefined,
      'text/csv',
    ],
    [
      'NDJSONStreamingResponse.of(Item)',
      NDJSONStreamingResponse.of(Item),
      'ndjson',
      NDJSONStreamingResponse,
      Item,
      'application/x-ndjson',
    ],
    ['SSEResponse.of(Item)', SSEResponse.of(Item), 'sse', SSEResponse, Item, 'text/event-stream'],
  ] as const)('%s: kind, class, item schema, media type', (_label, spec, kind, cls, schema, contentType) => {
    expect(responseInfo(spec)).toMatchObject({
      kind,
      cls,
      schema,
      contentType,
      status: undefined,
      headers: undefined,
    });
    expect(typeof responseInfo(spec)?.compile).toBe('function');
  });

  it('carries the typed headers schema', () => {
    expect(responseInfo(SSEResponse.of(Item, { headers: Headers }))?.headers).toBe(Headers);
    expect(responseInfo(StreamingResponse.of({ headers: Headers }))?.headers).toBe(Headers);
  });
});

describe('SSEResponse keepalive', () => {
  const stream = (async function* () {})();
  it.each([0, -1, Number.NaN, Number.POSITIVE_INFINITY])('refuses %s seconds', (keepalive) => {
    expect(() => new SSEResponse<{ id: string }>({ stream, keepalive })).toThrow(
      /SSEResponse: keepalive must be a positive number of seconds/,
    );
  });
  it('takes fractions of a second', () => {
    expect(new SSEResponse<{ id: string }>({ stream, keepalive: 0.5 }).keepalive).toBe(0.5);
  });
});

describe("the fields core's wrappers check, checked on a stream too", () => {
  const items = (async function* () {})();
  it('refuses a status outside 200–599', () => {
    expect(() => new StreamingResponse({ stream: items, statusCode: 99 })).toThrow(
      "new StreamingResponse: statusCode must be an integer from 200 to 599, got 99. Fix: e.g. statusCode: 201, or leave it out for the operation's default.",
    );
  });
  it('refuses cookies that are not a list of SetCookie', () => {
    const cookies = 'session=1' as never;
    expect(() => new NDJSONStreamingResponse({ stream: items, cookies })).toThrow(
      /^new NDJSONStreamingResponse: /,
    );
  });
});
