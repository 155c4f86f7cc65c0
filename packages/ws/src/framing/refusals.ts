// What a compiled framing is (`Codec`) and the refusals its `decode` answers: shared by the tagged
// Structs' compiled path (framing.ts) and the Standard Schema path (standard-framing.ts).
import type * as v from 'valibot';
import type { StandardSchemaV1 } from '@api/core/extension';
import { CloseCode } from '../socket/close-codes';

/** Why an inbound frame was refused: the close code and reason the socket closes with. */
export class Refusal {
  constructor(
    readonly code: number,
    readonly reason: string,
  ) {}
}

export const EXPECTED_TEXT = new Refusal(CloseCode.unsupportedData, 'expected text frames');
export const EXPECTED_BINARY = new Refusal(CloseCode.unsupportedData, 'expected binary frames');
export const MALFORMED_JSON = new Refusal(CloseCode.invalidPayload, 'malformed JSON');

/** A framing compiled once, at declaration: decode inbound frames, encode outbound messages. */
export interface Codec {
  readonly kind: 'json' | 'string' | 'bytes';
  /** True when `decode` may answer a promise (a Standard Schema framing): the socket keeps order. */
  readonly mayDefer: boolean;
  /** True when messages travel in binary frames. */
  readonly binary: boolean;
  /** The tag names a JSON framing accepts, in declaration order (empty for string/bytes). */
  readonly tags: readonly string[];
  /**
   * The schema of each tag (JSON framing only): a tagged Struct, or for a Standard Schema framing
   * the one schema every tag belongs to.
   */
  readonly members: ReadonlyMap<string, v.GenericSchema | StandardSchemaV1>;
  /**
   * Decodes one received message; a `Refusal` says how to close instead. Only a Standard Schema
   * framing whose library validates asynchronously answers a promise (of either, never rejected).
   */
  decode(data: Buffer, isBinary: boolean): unknown;
  /**
   * Validates and encodes one outbound message (JSON text, a string, or bytes); throws a
   * `TypeError` naming the schema path (never the value) when it does not match.
   */
  encode(message: unknown): string | Uint8Array;
}
