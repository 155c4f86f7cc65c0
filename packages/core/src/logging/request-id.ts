import { randomBytes } from 'node:crypto';

/** The longest `x-request-id` taken from a caller. */
export const MAX_REQUEST_ID_LENGTH = 128;

// Characters safe in a header, a log line and a URL: no spaces, quotes, commas (a repeated header
// arrives joined with ", "), semicolons or control characters.
const WELL_FORMED = /^[A-Za-z0-9\-_.:+/=@~]+$/;

/**
 * The request's id: the caller's `x-request-id` when it is well-formed (1–128 safe characters)
 * and sent once, else a fresh one (`freshRequestId`). An over-long or malformed id is replaced, never echoed or
 * logged.
 *
 * @param rawHeaders - the request's header lines as sent (name, value, …): read directly, so
 *   node:http need not build `req.headers` for a route that reads no other header
 */
export function requestIdOf(rawHeaders: readonly string[]): string {
  let sent: string | undefined;
  for (let i = 0; i < rawHeaders.length; i += 2) {
    const name = rawHeaders[i]!;
    if (name.length !== 12 || name.toLowerCase() !== 'x-request-id') continue;
    if (sent !== undefined) return freshRequestId(); // two ids: neither is the request's
    sent = rawHeaders[i + 1]!;
  }
  return sent !== undefined &&
    sent.length > 0 &&
    sent.length <= MAX_REQUEST_ID_LENGTH &&
    WELL_FORMED.test(sent)
    ? sent
    : freshRequestId();
}

// The fresh ids' random part: drawn at the first id (not at import: some runtimes, workerd among
// them, refuse random values at module scope) and again each time the counter runs out.
let prefix = '';
let issued = 0;
const COUNTER_END = 2 ** 48;

/**
 * A fresh request id in UUID form (version 4 layout): 74 random bits drawn once per process, then
 * a 48-bit counter — unique across processes and restarts like a random UUID, without drawing 16
 * random bytes per request (`randomUUID()` per request cost 1.4k–6k instructions, up to a tenth
 * of a small request's; bench/ instructions). Ids are not secrets: they are echoed and logged.
 */
export function freshRequestId(): string {
  if (prefix === '' || issued === COUNTER_END) {
    const hex = randomBytes(10).toString('hex');
    const variant = '89ab'[Number.parseInt(hex[16]!, 16) & 3]!;
    prefix = `${hex.slice(0, 8)}-${hex.slice(8, 12)}-4${hex.slice(13, 16)}-${variant}${hex.slice(17, 20)}-`;
    issued = 0;
  }
  const count = (issued++).toString(16);
  return prefix + '000000000000'.slice(count.length) + count;
}
