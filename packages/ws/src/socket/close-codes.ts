/**
 * The close codes @api/ws sends, by meaning (RFC 6455 §7.4.1 and the IANA registry).
 *
 * @example
 * await websocket.close(CloseCode.policyViolation, 'not allowed in this room');
 */
export const CloseCode = {
  /** The handler returned (or `close()` with no code). */
  normal: 1000,
  /** The server is shutting down. */
  goingAway: 1001,
  /** A frame of the wrong kind (binary on a text socket, or the reverse). */
  unsupportedData: 1003,
  /** Malformed JSON (or invalid UTF-8 in a text frame, sent by `ws` itself). */
  invalidPayload: 1007,
  /** A message that does not match the declared schema. */
  policyViolation: 1008,
  /** A message over `maxFrameSize` (sent by `ws` from the frame's length header). */
  messageTooBig: 1009,
  /** The handler threw. */
  internalError: 1011,
  /** A `Channel` subscriber fell too far behind (`overflow: 'close'`). */
  tryAgainLater: 1013,
} as const;

/** The codes `close()` accepts: the ones above (except 1001, which is the server's) and 4000–4999. */
const ALLOWED = new Set<number>([1000, 1003, 1007, 1008, 1009, 1011, 1013]);

/** The longest close reason, in UTF-8 bytes (a control frame carries ≤ 125 bytes, 2 for the code). */
export const MAX_REASON_BYTES = 123;

/**
 * Checks a close code and reason the way `close()` does; throws a `RangeError` naming the rule.
 *
 * @param code - 1000, 1003, 1007, 1008, 1009, 1011, 1013, or 4000–4999
 * @param reason - at most 123 UTF-8 bytes
 */
export function checkClose(code: number, reason: string): void {
  if (!Number.isInteger(code) || (!ALLOWED.has(code) && (code < 4000 || code > 4999)))
    throw new RangeError(
      `close code ${String(code)} is not allowed: use 1000, 1003, 1007, 1008, 1009, 1011, 1013 or an application code 4000–4999`,
    );
  if (typeof reason !== 'string') throw new TypeError('a close reason is a string');
  const bytes = Buffer.byteLength(reason, 'utf8');
  if (bytes > MAX_REASON_BYTES)
    throw new RangeError(`a close reason is at most ${MAX_REASON_BYTES} UTF-8 bytes, got ${bytes}`);
}

/** Cuts a reason to at most 123 UTF-8 bytes on a character boundary (for reasons we compose). */
export function truncateReason(reason: string): string {
  if (Buffer.byteLength(reason, 'utf8') <= MAX_REASON_BYTES) return reason;
  let out = '';
  let bytes = 0;
  for (const ch of reason) {
    const n = Buffer.byteLength(ch, 'utf8');
    if (bytes + n > MAX_REASON_BYTES - 3) break;
    out += ch;
    bytes += n;
  }
  return out + '...';
}
