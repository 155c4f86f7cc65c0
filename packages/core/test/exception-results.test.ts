// Issue 11: an exception handler's declared `returns` picks the encoder of a returned ExceptionResponse.
import * as v from 'valibot';
import { describe, expect, it } from 'vitest';
import {
  BaseApp,
  ConflictError,
  defineExceptionHandler,
  Endpoint,
  ExceptionResponse,
  Struct,
  StructHTTPError,
} from '../src/index';
import { clientFactory, memoryLogger } from './fixtures';

class UpstreamError extends Error {
  constructor(readonly answer: ExceptionResponse<unknown, unknown>) {
    super('upstream failed');
  }
}
const Busy = Struct('Busy', { retryIn: v.number() });
const Down = Struct('Down', { reason: v.string() });
const LegacyBody = Struct('LegacyBody', { code: v.string() });
class LegacyGone extends StructHTTPError.define(LegacyBody, { status: 410, consts: { code: 'E410' } }) {}

let answer: ExceptionResponse<unknown, unknown>;
class Raise extends Endpoint('/raise') {
  get = this.operation({}, () => {
    throw new UpstreamError(answer);
  });
}
const handler = defineExceptionHandler({
  exception: UpstreamError,
  returns: [
    ExceptionResponse.of(Busy, { status: 503, headers: Struct('Retry', { retryAfter: v.number() }) }),
    LegacyGone,
    ConflictError,
    ExceptionResponse.of(Down),
  ],
  handleException: (error) => error.answer as ExceptionResponse<{ reason: string }>,
});
class App extends BaseApp {
  protected override async wire(): Promise<void> {
    this.includeEndpoint(new Raise());
    this.includeExceptionHandler(handler);
  }
}

const client = clientFactory();
async function answerFor(value: ExceptionResponse<unknown, unknown>) {
  answer = value;
  const logger = memoryLogger();
  const res = await client(new App({ logger })).get('/raise');
  return { res, logger };
}

describe('exception handler results', () => {
  it('encodes with the ExceptionResponse.of pinned to the status (typed headers, declared fields only)', async () => {
    const { res } = await answerFor(
      new ExceptionResponse({
        statusCode: 503,
        json: { retryIn: 3, extra: 'x' },
        headers: { retryAfter: 3 },
      }),
    );
    expect(res.status).toBe(503);
    expect(res.text).toBe('{"retryIn":3}');
    expect(res.headers.get('retry-after')).toBe('3');
  });

  it('encodes a Struct error class body at its status', async () => {
    const { res } = await answerFor(
      new ExceptionResponse({ statusCode: 410, json: { code: 'E410', more: 1 } }),
    );
    expect(res.status).toBe(410);
    expect(res.headers.get('content-type')).toBe('application/json');
    expect(res.text).toBe('{"code":"E410"}');
  });

  it('falls back to the unpinned ExceptionResponse.of at any other status', async () => {
    const { res } = await answerFor(
      new ExceptionResponse({ statusCode: 502, json: { reason: 'down', x: 1 } }),
    );
    expect(res.status).toBe(502);
    expect(res.text).toBe('{"reason":"down"}');
  });

  it('sends a Problem body as is where a Problem error class declares the status', async () => {
    const problem = { type: 'conflict', title: 'Taken', status: 409 };
    const { res } = await answerFor(new ExceptionResponse({ statusCode: 409, json: problem }));
    expect(res.status).toBe(409);
    expect(res.json()).toEqual(problem);
  });

  it('answers 500 and logs when the body fits no declared schema', async () => {
    const { res, logger } = await answerFor(new ExceptionResponse({ statusCode: 503, json: { nope: true } }));
    expect(res.status).toBe(500);
    expect(res.json()).toEqual({
      type: 'internal-server-error',
      title: 'Internal server error',
      status: 500,
    });
    expect(logger.lines).toEqual([
      'error GET /raise: the exception handler failed while handling UpstreamError',
    ]);
  });
});
