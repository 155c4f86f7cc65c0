import * as v from 'valibot';
import { describe, expectTypeOf, it } from 'vitest';
import { Endpoint, Struct } from '@api/core';
import {
  NDJSONStreamingResponse,
  ServerSentEvent,
  SSEResponse,
  StreamingResponse,
  type StreamSource,
} from '../index';

const Chunk = Struct('Chunk', { text: v.string() });
const Created = Struct('Created', { id: v.string() }, { tag: true });
const Deleted = Struct('Deleted', { id: v.string(), hard: v.boolean() }, { tag: true });
const TraceHeaders = v.object({ xTraceId: v.string() });

async function* chunks(): AsyncGenerator<{ text: string }> {
  yield { text: 'a' };
}

describe('NDJSONStreamingResponse', () => {
  it('infers the item type from the schema', () => {
    const spec = NDJSONStreamingResponse.of(Chunk);
    expectTypeOf(spec.__value).toEqualTypeOf<
      NDJSONStreamingResponse<{ text: string }, undefined> | undefined
    >();
  });

  it('accepts an async generator and a lifecycle generator of the item type', () => {
    class Ask extends Endpoint('/ask') {
      post = this.operation({ returns: NDJSONStreamingResponse.of(Chunk) }, () => {
        return new NDJSONStreamingResponse({ stream: chunks() });
      });
      put = this.operation({ returns: NDJSONStreamingResponse.of(Chunk) }, () => {
        async function* lifecycle() {
          try {
            yield chunks();
          } finally {
            // teardown
          }
        }
        return new NDJSONStreamingResponse({ stream: lifecycle() });
      });
    }
    expectTypeOf<Ask>().toBeObject();
  });

  it('rejects a stream of the wrong item type', () => {
    class Ask extends Endpoint('/ask') {
      post = this.operation({ returns: NDJSONStreamingResponse.of(Chunk) }, () => {
        async function* numbers() {
          yield 1;
        }
        // @ts-expect-error items are numbers, the declaration says Chunk
        return new NDJSONStreamingResponse({ stream: numbers() });
      });
    }
    expectTypeOf<Ask>().toBeObject();
  });

  it('types a union of tagged Structs as a discriminated union', () => {
    const spec = NDJSONStreamingResponse.of(v.union([Created, Deleted]));
    type Item =
      NonNullable<typeof spec.__value> extends NDJSONStreamingResponse<infer T, undefined> ? T : never;
    expectTypeOf<Item>().toEqualTypeOf<
      { type: 'Created'; id: string } | { type: 'Deleted'; id: string; hard: boolean }
    >();
  });
});

describe('SSEResponse', () => {
  it('accepts models, strings and ServerSentEvents of the model', () => {
    class Events extends Endpoint('/events') {
      get = this.operation({ returns: SSEResponse.of(Chunk) }, () => {
        async function* events() {
          yield { text: 'model' };
          yield 'raw text';
          yield new ServerSentEvent({ data: { text: 'x' }, event: 'tick', id: '1' });
        }
        return new SSEResponse({ stream: events(), keepalive: 15 });
      });
    }
    expectTypeOf<Events>().toBeObject();
  });

  it('rejects data of the wrong type', () => {
    class Events extends Endpoint('/events') {
      get = this.operation({ returns: SSEResponse.of(Chunk) }, () => {
        async function* events() {
          yield 42;
        }
        // @ts-expect-error data is a number
        return new SSEResponse({ stream: events() });
      });
    }
    expectTypeOf<Events>().toBeObject();
  });

  it('requires the declared typed headers, with their types', () => {
    class Events extends Endpoint('/events') {
      get = this.operation({ returns: SSEResponse.of(Chunk, { headers: TraceHeaders }) }, () => {
        return new SSEResponse({ stream: chunks(), headers: { xTraceId: 't' } });
      });
      other = this.operation({ returns: SSEResponse.of(Chunk, { headers: TraceHeaders }) }, () => {
        // @ts-expect-error headers are declared, so they are required
        return new SSEResponse({ stream: chunks() });
      });
    }
    expectTypeOf<Events>().toBeObject();
    // @ts-expect-error xTraceId must be a string
    new SSEResponse<{ text: string }, { xTraceId: string }>({ stream: chunks(), headers: { xTraceId: 1 } });
  });

  it('checks the item type without a declaration when the type argument is given', () => {
    new NDJSONStreamingResponse<{ text: string }>({
      // @ts-expect-error items are Chunks
      stream: (async function* () {
        yield 1;
      })(),
    });
    expectTypeOf(new NDJSONStreamingResponse<{ text: string }>({ stream: chunks() }).stream).toEqualTypeOf<
      StreamSource<{ text: string }>
    >();
  });

  it('types ServerSentEvent data as the model or a string', () => {
    expectTypeOf(new ServerSentEvent<{ text: string }>({ data: 'x' }).data).toEqualTypeOf<
      { text: string } | string | undefined
    >();
    // @ts-expect-error retry is a number
    new ServerSentEvent({ retry: '10' });
  });
});

describe('StreamingResponse', () => {
  it('takes bytes or text chunks', () => {
    async function* bytes() {
      yield new Uint8Array([1]);
      yield 'text';
    }
    expectTypeOf(new StreamingResponse({ stream: bytes() })).toEqualTypeOf<StreamingResponse<undefined>>();
    async function* numbers() {
      yield 1;
    }
    // @ts-expect-error numbers are not bytes
    new StreamingResponse({ stream: numbers() });
  });
});
