// The route's hooks an answer consults once its status is known: the dynamic header hooks and the
// body transform. One failing fails a normal answer closed (the error goes to the funnel); on an
// error answer it is logged and skipped, so the error leaves with its own status.
import type { BodyEncoder, BodyTransform, FinalHead } from '../contract/body-transform';
import type { Exchange, HeaderList } from '../contract/exchange';
import type { HeaderPairs, RoutePlan } from '../contract/route-plan';
import { assertNoFraming } from '../http/framing';
import { assertHookPairs } from '../http/owned-fields';
import { hookFailure } from './hook-failure';

/** The exchange as an answer's hooks see it (`CoreExchange` is one). */
export interface AnsweringExchange extends Exchange {
  /** True once the funnel answers with an error: failing hooks are logged and skipped. */
  readonly answeringError: boolean;
}

/**
 * Runs the dynamic header hooks. One failing (a throw, its own headers failing to bind, a framing
 * header, a field the response owns or a second line of one sent once) fails a normal answer
 * closed: the error goes to the funnel instead of a response without the headers the app asked
 * for. On an error answer it is logged and skipped.
 */
export function addDynamicHeaders(
  ex: AnsweringExchange,
  hooks: NonNullable<RoutePlan['dynamicHeaders']>,
  status: number,
  headers: HeaderList,
): void {
  for (const hook of hooks) {
    let pairs: HeaderPairs | undefined;
    try {
      pairs = hook(ex, status);
      if (pairs !== undefined) assertHookPairs(pairs, status, headers, 'a response-header hook');
    } catch (error) {
      if (!ex.answeringError) throw hookFailure(error);
      ex.log.error(
        `${ex.method} ${ex.path}: a response-header hook failed while ` +
          `the ${status} error answer was assembled (its headers are left out)`,
        error,
      );
      continue;
    }
    if (pairs !== undefined) for (const [name, value] of pairs) headers.push(name, value);
  }
}

/** Asks the route's transform about this answer; its failure fails a normal answer closed. */
export function consultTransform(
  ex: AnsweringExchange,
  transform: BodyTransform,
  head: FinalHead,
): BodyEncoder | undefined {
  const { status, headers } = head;
  const given = headers.length;
  let encoder: BodyEncoder | undefined;
  try {
    encoder = transform(ex, head);
    assertNoFraming(headers, status, 'the body transform');
  } catch (error) {
    if (!ex.answeringError) throw error;
    ex.log.error(
      `${ex.method} ${ex.path}: the body transform failed on the ${status} error answer (sent unencoded)`,
      error,
    );
    headers.length = given;
    return undefined;
  }
  return encoder;
}

/** What encoding a buffered answer needs of the exchange (`CoreExchange` is one). */
export interface EncodingExchange extends AnsweringExchange {
  /** Frames and sends a buffered answer whose head is final. */
  closeAnswer(status: number, headers: HeaderList, body: string | Uint8Array | undefined): void;
  /** The encoder failed: the answer becomes a logged 500, sent without the transform. */
  encodeFailed(error: unknown): void;
}

/** The buffered answer under a body transform: it sees the final head, then may encode (async). */
export function encodeAnswer(
  ex: EncodingExchange,
  transform: BodyTransform,
  status: number,
  headers: HeaderList,
  body?: string | Uint8Array,
): void {
  const bytes = typeof body === 'string' ? Buffer.from(body) : body;
  const length = bytes === undefined ? 0 : bytes.byteLength;
  const encoder = consultTransform(ex, transform, { status, headers, length });
  if (encoder === undefined || bytes === undefined) {
    ex.closeAnswer(status, headers, bytes);
    return;
  }
  let encoded: Uint8Array | Promise<Uint8Array>;
  try {
    encoded = encoder.encode(bytes);
  } catch (error) {
    ex.encodeFailed(error);
    return;
  }
  if (!(encoded instanceof Promise)) {
    ex.closeAnswer(status, headers, encoded);
    return;
  }
  encoded.then(
    (out) => {
      try {
        ex.closeAnswer(status, headers, out);
      } catch (error) {
        ex.fail(error);
      }
    },
    (error: unknown) => ex.encodeFailed(error),
  );
}
